"""Kept text nodes back into an article: paragraphs in document order."""

from __future__ import annotations

import numpy as np

from .clean import LINE_BREAK
from .features import NodeTable, collapse_spaces


def smooth(table: NodeTable, proba: np.ndarray) -> np.ndarray:
    """Blend each node's probability with its container's, char-weighted.

    The cheap alternative to the context stage, kept so ``evaluate`` can show what each adds.
    A container (the nearest div/section/list around a node) is mostly all content or all
    boilerplate; a lone short node that disagrees with the rest of its container is more often
    a classifier slip than a real exception.
    """
    if len(proba) == 0:
        return proba
    weight = table.weights
    _, inv = np.unique(table.container, return_inverse=True)
    cont_mean = np.bincount(inv, weights=proba * weight) / np.bincount(inv, weights=weight)
    return 0.5 * proba + 0.5 * cont_mean[inv]


FALLBACK_FLOOR = 0.3
"""On a page where no node passes the threshold, the most probable nodes are kept if the best
has at least this probability: a page of one or two paragraphs has no neighbours to vouch for
them, and a corpus is better served by its paragraph than by nothing."""


def choose_nodes(proba: np.ndarray, threshold: float = 0.5) -> np.ndarray:
    """Which nodes make the article: those over ``threshold``; else the near-best, as above."""
    keep = proba > threshold
    if not keep.any() and len(proba) and proba.max() >= FALLBACK_FLOOR:
        keep = proba >= 0.8 * proba.max()
    return keep


REPEAT_MIN_CHARS = 15
"""A kept paragraph this long (non-space characters) is written once when the page repeats it
elsewhere; shorter ones ("Reply", a date, a price) legitimately recur in content."""
REPEAT_MIN_LEVELS = 3
"""How far up (from the later copy's element) the two copies of a paragraph must first meet
for the later one to count as the page's second rendering rather than the author's repeat."""


def _levels_to_common(parent: np.ndarray, first: int, later: int) -> int:
    """Levels from ``later`` up to the nearest ancestor it shares with ``first``."""
    ancestors = set()
    while first >= 0:
        ancestors.add(first)
        first = int(parent[first])
    levels = 0
    while later >= 0 and later not in ancestors:
        later = int(parent[later])
        levels += 1
    return levels


def assemble(table: NodeTable, keep: np.ndarray) -> str:
    """Join kept nodes, one paragraph each, separated by a blank line.

    Within a node, whitespace (source newlines included) collapses to one space; only a
    ``<br>`` starts a new line. Pages often carry their text twice, far apart in the tree (a
    mobile and a desktop layout, a standfirst repeated above the body, a post quoted further
    down a thread); the classifier keeps both copies, since they look alike, and a corpus
    wants one. So a paragraph equal (case aside) to one already written is skipped when the
    two copies first meet ``REPEAT_MIN_LEVELS`` or more levels up; repeats within one section
    of text are the author's and stay.
    """
    paragraphs = []
    first_node: dict[str, int] = {}
    texts = table.texts
    for i in np.flatnonzero(keep).tolist():
        text = texts[i]
        if LINE_BREAK in text:
            text = "\n".join(line for line in map(collapse_spaces, text.split(LINE_BREAK)) if line)
        else:
            text = collapse_spaces(text)
        if not text:
            continue
        if len(text) - text.count(" ") - text.count("\n") >= REPEAT_MIN_CHARS:
            first = first_node.setdefault(text.casefold(), i)
            if first != i and _levels_to_common(
                    table.parent, int(table.owner[first]), int(table.owner[i])
            ) >= REPEAT_MIN_LEVELS:
                continue
        paragraphs.append(text)
    return "\n\n".join(paragraphs)
