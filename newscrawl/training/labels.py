"""Node labels from a page's ground-truth text, by robust alignment.

Ground truth is plain text made by people (or tools) from the rendered page, so it differs
from the DOM's text in whitespace, Unicode forms, entities, and in bits dropped or added
inside paragraphs. A node is content when its normalised text occurs in the truth, or when
most of its word bigrams do (fuzzy). Short nodes ("Home", "Share") occur in many truths by
chance, so they count only when found close to where the previous content node matched:
ground truth follows document order.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

from ..extraction.text import CJK

# CJK characters are tokens on their own (no spaces between words); other scripts by word.
_TOKEN = re.compile(f"[{CJK}]|[^\\W_]+")
_SHORT = 3          # tokens: at or below this a node must match near the cursor
_WINDOW = 400       # characters after the cursor where short nodes may match
_FUZZY = 0.6        # share of a node's bigrams found in the truth to count as content


def align_tokens(text: str) -> list[str]:
    return _TOKEN.findall(unicodedata.normalize("NFKC", text).lower())


def label_nodes(texts: list[str], truth: str) -> np.ndarray:
    """1.0 for nodes that belong to ``truth``, 0.0 for the others, in document order."""
    labels = np.zeros(len(texts), dtype=np.float32)
    truth_tokens = align_tokens(truth or "")
    if not truth_tokens:
        return labels
    joined = " " + " ".join(truth_tokens) + " "
    bigrams = set(zip(truth_tokens, truth_tokens[1:], strict=False))
    cursor = 0
    for i, text in enumerate(texts):
        tokens = align_tokens(text)
        if not tokens:
            continue
        needle = " " + " ".join(tokens) + " "
        if len(tokens) <= _SHORT:
            pos = joined.find(needle, max(cursor - 50, 0), cursor + _WINDOW + len(needle))
            if pos >= 0:
                labels[i] = 1.0
                cursor = pos + len(needle) - 1
            continue
        pos = joined.find(needle, cursor)
        if pos < 0:
            pos = joined.find(needle)
        if pos >= 0:
            labels[i] = 1.0
            cursor = pos + len(needle) - 1
            continue
        node_bigrams = list(zip(tokens, tokens[1:], strict=False))
        hits = sum(1 for b in node_bigrams if b in bigrams)
        if hits >= _FUZZY * len(node_bigrams):
            labels[i] = 1.0
            # Move the cursor to where this paragraph's tail sits in the truth.
            tail = " " + " ".join(tokens[-3:]) + " "
            pos = joined.find(tail, cursor)
            if pos >= 0:
                cursor = pos + len(tail) - 1
    return labels
