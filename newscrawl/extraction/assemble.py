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


def assemble(table: NodeTable, keep: np.ndarray) -> str:
    """Join kept nodes, one paragraph each, separated by a blank line.

    Within a node, whitespace (source newlines included) collapses to one space; only a
    ``<br>`` starts a new line.
    """
    paragraphs = []
    for i in np.flatnonzero(keep):
        lines = (collapse_spaces(line) for line in table.texts[i].split(LINE_BREAK))
        text = "\n".join(line for line in lines if line)
        if text:
            paragraphs.append(text)
    return "\n\n".join(paragraphs)
