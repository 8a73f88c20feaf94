"""Text scores as the benchmarks define them."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

_WORD = re.compile(r"\w+")


def tokens(text: str, script: str = "words") -> Counter[str]:
    """WCXB's bag: lower-cased ``\\w+`` tokens; for "chars", letters and digits one by one."""
    text = unicodedata.normalize("NFKC", text or "").lower()
    if script == "chars":
        return Counter(c for c in text if c.isalnum())
    return Counter(_WORD.findall(text))


def bag_prf(predicted: str, truth: str, script: str = "words") -> tuple[float, float, float]:
    """Precision, recall and F1 of two bags of tokens (1.0 each when both are empty)."""
    p, t = tokens(predicted, script), tokens(truth, script)
    if not p and not t:
        return 1.0, 1.0, 1.0
    overlap = sum((p & t).values())
    precision = overlap / sum(p.values()) if p else 0.0
    recall = overlap / sum(t.values()) if t else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1
