"""Node labels from a page's ground-truth text, by robust alignment.

Ground truth is plain text made by people (or tools) from the rendered page, so it differs
from the DOM's text in whitespace, Unicode forms, entities, and in bits dropped or added
inside paragraphs. A node is content when its normalised text occurs in the truth, or when
most of its word bigrams do (fuzzy).

Short nodes ("Home", "Share", "News") occur in many truths by chance. Ground truth follows
document order, so the longer nodes are matched first and anchor it; a short node counts
only where it fits between the anchors around it: after the text the previous content node
claimed, within a few hundred characters of it, and before the text of the next anchor. A
menu above the article therefore cannot claim the truth's first words, and two nodes cannot
claim the same words.
"""

from __future__ import annotations

import re
import unicodedata

import numpy as np

from ..extraction.text import CJK

# CJK characters are tokens on their own (no spaces between words); other scripts by word.
_TOKEN = re.compile(f"[{CJK}]|[^\\W_]+")
_CJK_TOKEN = re.compile(f"[{CJK}]")
_SHORT = 3          # word-equivalents (a CJK character is half a word): at or below, a short node
_WINDOW = 400       # characters after the previous claim where a short node may match
_FUZZY = 0.6        # share of a node's bigrams found in the truth to count as content


def align_tokens(text: str) -> list[str]:
    return _TOKEN.findall(unicodedata.normalize("NFKC", text).lower())


def _is_short(tokens: list[str]) -> bool:
    cjk = sum(1 for t in tokens if _CJK_TOKEN.fullmatch(t))
    return (len(tokens) - cjk) + cjk / 2 <= _SHORT


def label_nodes(texts: list[str], truth: str) -> np.ndarray:
    """1.0 for nodes that belong to ``truth``, 0.0 for the others, in document order."""
    labels = np.zeros(len(texts), dtype=np.float32)
    truth_tokens = align_tokens(truth or "")
    if not truth_tokens:
        return labels
    joined = " " + " ".join(truth_tokens) + " "
    bigrams = set(zip(truth_tokens, truth_tokens[1:], strict=False))
    tokens_of = [align_tokens(text) for text in texts]
    short = [bool(tokens) and _is_short(tokens) for tokens in tokens_of]
    # Where each anchor's text starts and ends in the truth (-1: not known).
    starts = np.full(len(texts), -1, dtype=np.int64)
    ends = np.full(len(texts), -1, dtype=np.int64)
    cursor = 0
    for i, tokens in enumerate(tokens_of):
        if not tokens or short[i]:
            continue
        needle = " " + " ".join(tokens) + " "
        pos = joined.find(needle, cursor)
        if pos < 0:
            pos = joined.find(needle)
        if pos >= 0:
            labels[i] = 1.0
            starts[i], ends[i] = pos, pos + len(needle) - 1
            cursor = ends[i]
            continue
        node_bigrams = list(zip(tokens, tokens[1:], strict=False))
        hits = sum(1 for b in node_bigrams if b in bigrams)
        if hits >= _FUZZY * len(node_bigrams):
            labels[i] = 1.0
            head = " " + " ".join(tokens[:3]) + " "
            tail = " " + " ".join(tokens[-3:]) + " "
            start = joined.find(head, max(cursor - len(needle), 0))
            pos = joined.find(tail, cursor)
            starts[i] = start if 0 <= start < max(pos, cursor + 1) else -1
            if pos >= 0:
                ends[i] = cursor = pos + len(tail) - 1
    # Short nodes, each between the claims around it.
    claimed = 0
    anchor_after = [len(joined)] * (len(texts) + 1)
    for i in range(len(texts) - 1, -1, -1):
        anchor_after[i] = anchor_after[i + 1]
        if labels[i]:
            anchor_after[i] = int(starts[i]) if starts[i] >= 0 else len(joined)
    for i, tokens in enumerate(tokens_of):
        if labels[i]:
            if ends[i] >= 0:
                claimed = int(ends[i])
            continue
        if not short[i]:
            continue
        needle = " " + " ".join(tokens) + " "
        stop = min(claimed + _WINDOW + len(needle), anchor_after[i + 1] + 1)
        pos = joined.find(needle, claimed, stop)
        if pos >= 0:
            labels[i] = 1.0
            claimed = pos + len(needle) - 1
    return labels
