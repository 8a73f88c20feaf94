"""Second-stage features: each node seen through its neighbours' first-stage probabilities.

The first stage judges a node mostly by itself and its ancestors; content, though, comes in
runs. Feeding the second stage what the first stage thought of the nodes around it (in reading
order, in the same container, under the same parent) lets a short line inside the article be
kept and a lone paragraph-like blurb inside a teaser list be dropped.
"""

from __future__ import annotations

import numpy as np

from .compiled import CWALK
from .features import FEATURE_NAMES, NodeTable, subtree_sums

_CARRIED = ("chars", "punct_ratio", "own_link_density", "is_heading", "tag", "rank",
            "in_best_block", "cont_link_density", "cont_text_share", "page_is_article",
            "site_recurrence", "site_pages")
_CARRIED_COLS = [FEATURE_NAMES.index(n) for n in _CARRIED]
_OFFSETS = (1, 2, 3, 5)
_WINDOWS = (2, 5)
"""Half-widths of the reading-order windows whose mean p the context stage reads."""
_LEVELS = (1, 2, 3, 4, 6)
"""Ancestor levels above a node's element whose subtrees the context stage looks at."""

CONTEXT_NAMES: tuple[str, ...] = (
    ("p",)
    + tuple(f"p_prev{k}" for k in _OFFSETS) + tuple(f"p_next{k}" for k in _OFFSETS)
    + ("p_window5", "p_window11", "p_cont_mean", "p_cont_max", "p_cont_min", "p_cont_n",
       "p_owner_mean", "p_page_max", "p_page_mean", "page_kept_share", "dist_to_kept",
       "p_rank_in_page", "kept_before_share", "kept_after_share")
    + tuple(f"up{k}_{f}" for k in _LEVELS for f in ("p_mean", "kept_share", "text_share"))
    + ("in_content_root", "content_root_share", "content_root_up")
    + ("in_sure_core", "sure_core_levels_out", "sure_core_share", "sure_share")
    + tuple(f"c_{n}" for n in _CARRIED)
)
STORY_NAMES: tuple[str, ...] = CONTEXT_NAMES + ("anc_linked",)
"""The story stage 2's columns: the context stage's and ``NodeTable.linked``. On a page that
declares a story, a list of other stories' headlines, each card one ``<a>`` around its blocks,
reads as short unlinked paragraphs (Mainichi's related-headline list, kept at 0.63-0.72); the
column lets the story stage tell them apart. Out of fold (pooled WCXB dev + fundus-dev, seed
pairs 0+1, 2+3, 4+5, shipped stage 1s) fundus-dev 0.9697 -> 0.9714, 0.9712 -> 0.9718,
0.9702 -> 0.9716, WCXB 0.8800 -> 0.8804, 0.8763 -> 0.8766, 0.8779 -> 0.8774. In the plain
stage 2 too it gained nothing more (pair 0+1: 0.9713, 0.8802; listings -0.006)."""


def _group_mean(keys: np.ndarray, values: np.ndarray, weights: np.ndarray,
                size: int) -> np.ndarray:
    """Per row, the weighted mean of ``values`` over the rows sharing its key; keys are
    element indices below ``size``, so they index the sums directly (np.unique would sort)."""
    return (np.bincount(keys, weights=values * weights, minlength=size)[keys]
            / np.bincount(keys, weights=weights, minlength=size)[keys])


def _group_stats(keys: np.ndarray, values: np.ndarray, weights: np.ndarray, size: int):
    mx = np.full(size, -np.inf)
    np.maximum.at(mx, keys, values)
    mn = np.full(size, np.inf)
    np.minimum.at(mn, keys, values)
    return (_group_mean(keys, values, weights, size), mx[keys], mn[keys],
            np.bincount(keys, minlength=size)[keys])


def _subtree(table: NodeTable, per_node: np.ndarray) -> np.ndarray:
    """Per element, ``per_node`` summed over the nodes of its subtree (prefix sums over the
    pre-order, where a subtree is a contiguous range of elements)."""
    return subtree_sums(np.bincount(table.owner, weights=per_node, minlength=len(table.parent)),
                        table.end)


def _deepest_holding(table: NodeTable, sub_mass: np.ndarray, at_least: float) -> int:
    """The deepest element whose subtree holds ``at_least`` of a mass (``_subtree``)."""
    holds = np.flatnonzero(sub_mass >= at_least)
    return int(holds[np.argmax(table.depth[holds])])


def _ancestor_columns(table: NodeTable, p: np.ndarray, weight: np.ndarray,
                      kept: np.ndarray, sub_w: np.ndarray) -> list[np.ndarray]:
    """How content-like the subtrees around a node are, a few levels up.

    Main content is one subtree of the page: a node whose grandparent holds most of the text
    stage 1 kept sits inside the article, whatever it looks like itself.
    """
    parent, end = table.parent, table.end
    sub_wp = _subtree(table, weight * p)
    sub_kept = _subtree(table, weight * kept)
    total_w = max(sub_w[0], 1.0)
    total_kept = max(sub_kept[0], 1.0)
    cols = []
    anc = table.owner.copy()
    level = 0
    for k in _LEVELS:
        while level < k:
            anc = np.maximum(parent[anc], 0)
            level += 1
        cols += [sub_wp[anc] / np.maximum(sub_w[anc], 1.0), sub_kept[anc] / total_kept,
                 sub_w[anc] / total_w]
    # The content root: the deepest element holding 80 % of the kept text.
    depth = table.depth
    root = (_deepest_holding(table, sub_kept, CONTENT_ROOT_HOLDS * total_kept)
            if sub_kept[0] > 0 else 0)
    inside = (table.owner >= root) & (table.owner < end[root])
    cols += [inside.astype(np.float64), np.full(len(p), sub_w[root] / total_w),
             np.where(inside, depth[table.owner] - depth[root], -1).astype(np.float64)]
    return cols


CONTENT_ROOT_HOLDS = 0.8
"""Share of the kept text the content root's subtree holds (``_ancestor_columns``)."""
SURE = 0.8
"""Stage-1 probability of a node counted as sure content for ``_sure_core_columns``."""
SURE_CORE_HOLDS = 0.9
"""Share of the sure text the sure core's subtree holds."""


def _sure_core_columns(table: NodeTable, p: np.ndarray, weight: np.ndarray,
                       sub_w: np.ndarray) -> list[np.ndarray]:
    """Where a node stands to the subtree that holds the text stage 1 is sure of.

    The content root above counts every node over 0.5, so a story's "more news" teasers,
    kept at 0.6 beside it, pull the root up to the wrapper that holds both. The deepest
    element holding 90 % of the nodes over 0.8 is the story's own body; how many levels a
    node sits outside it tells a teaser block beside the story from a paragraph within it.
    """
    n = len(p)
    sure = p >= SURE
    if not sure.any():
        return [np.zeros(n), np.full(n, -1.0), np.zeros(n), np.zeros(n)]
    parent, end, depth = table.parent, table.end, table.depth
    sub_sure = _subtree(table, weight * sure)
    core = _deepest_holding(table, sub_sure, SURE_CORE_HOLDS * sub_sure[0])
    chain = [core]  # the core and its ancestors, root first: nested subtrees
    while parent[chain[-1]] >= 0:
        chain.append(int(parent[chain[-1]]))
    chain = np.asarray(chain[::-1])
    # An element's nearest ancestor on the chain is the last chain element that starts at
    # or before it (pre-order) and whose subtree still holds it; both are prefixes.
    el = table.owner
    starts = np.searchsorted(chain, el, side="right")
    holding = np.searchsorted(-end[chain], -el, side="left")
    nearest = chain[np.minimum(starts, holding) - 1]
    inside = (el >= core) & (el < end[core])
    return [inside.astype(np.float64), np.where(inside, 0.0, depth[el] - depth[nearest]),
            np.full(n, sub_w[core] / max(sub_w[0], 1.0)),
            np.full(n, (weight * sure).sum() / max(weight.sum(), 1.0))]


def story_features(table: NodeTable, proba: np.ndarray) -> np.ndarray:
    """float32 rows in ``STORY_NAMES`` order: ``context_features`` and the linked column."""
    return np.hstack((context_features(table, proba), table.linked[:, None]))


_COMPUTED = len(CONTEXT_NAMES) - len(_CARRIED)
_C_SHAPE = tuple(np.array(v, dtype=np.int64) for v in (_OFFSETS, _WINDOWS, _LEVELS))


def context_features(table: NodeTable, proba: np.ndarray) -> np.ndarray:
    """float32 rows in ``CONTEXT_NAMES`` order, from a page's table and stage-1 output: in C
    when the package was built with its compiled walks (``_cwalk.context_columns``, the same
    float32 values), else ``_computed_columns``."""
    n = len(proba)
    X = np.zeros((n, len(CONTEXT_NAMES)), dtype=np.float32)
    if n == 0:
        return X
    if CWALK is not None:
        CWALK.context_columns(np.ascontiguousarray(proba, dtype=np.float32), table.weights,
                              table.container, table.owner, table.parent, table.end,
                              table.depth, X, *_C_SHAPE, SURE, SURE_CORE_HOLDS,
                              CONTENT_ROOT_HOLDS)
    else:
        X[:, :_COMPUTED] = _computed_columns(table, proba)
    X[:, _COMPUTED:] = table.X[:, _CARRIED_COLS]
    return X


def _computed_columns(table: NodeTable, proba: np.ndarray) -> np.ndarray:
    """The context stage's own columns (all but the carried ones), float64, with NumPy."""
    n = len(proba)
    p = proba.astype(np.float64)
    weight = table.weights
    cols = [p]
    padded = np.concatenate((np.full(5, -1.0), p, np.full(5, -1.0)))
    cols += [padded[5 - k: 5 - k + n] for k in _OFFSETS]
    cols += [padded[5 + k: 5 + k + n] for k in _OFFSETS]
    csum = np.concatenate(([0.0], np.cumsum(p)))
    idx = np.arange(n)
    for half in _WINDOWS:
        lo, hi = np.maximum(idx - half, 0), np.minimum(idx + half + 1, n)
        cols.append((csum[hi] - csum[lo]) / (hi - lo))
    n_el = len(table.parent)
    c_mean, c_max, c_min, c_n = _group_stats(table.container, p, weight, n_el)
    o_mean = _group_mean(table.owner, p, weight, n_el)
    kept = p > 0.5
    kept_idx = np.flatnonzero(kept)
    if len(kept_idx):
        pos = np.searchsorted(kept_idx, idx)
        left = kept_idx[np.maximum(pos - 1, 0)]
        right = kept_idx[np.minimum(pos, len(kept_idx) - 1)]
        dist = np.minimum(np.abs(idx - left), np.abs(right - idx)) / n
    else:
        dist = np.ones(n)
    kept_chars = np.cumsum(weight * kept)
    total_kept = max(kept_chars[-1], 1.0)
    order = np.empty(n, dtype=np.int64)  # each node's rank by p, ties in reading order
    order[np.argsort(-p, kind="stable")] = idx
    cols += [c_mean, c_max, c_min, np.log1p(c_n), o_mean,
             np.full(n, p.max()), np.full(n, (p * weight).sum() / weight.sum()),
             np.full(n, (weight * kept).sum() / weight.sum()), dist, order / n,
             (kept_chars - weight * kept) / total_kept, (total_kept - kept_chars) / total_kept]
    sub_w = _subtree(table, weight)
    cols += _ancestor_columns(table, p, weight, kept, sub_w)
    cols += _sure_core_columns(table, p, weight, sub_w)
    return np.array(cols).T  # column_stack reshapes each column in Python
