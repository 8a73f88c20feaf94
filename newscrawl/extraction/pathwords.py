"""The class and id words on a text node's path, weighed by a linear model trained with stage 1.

``features.CLASS_GROUPS`` names the words publishers commonly give their boxes (nav, footer,
related ...), read as distances beside those of semantic tags and hidden markup. Sites use
many more, and most lean one way: "entry-summary", "woocommerce-tabs", "pdp-shipping",
"wp-caption", "toc". A logistic regression over every word
seen on three or more training domains, by how far up the path it sits, turns them into one
column of stage 1 (``path_words``), which the trees weigh against the rest.

A node's words are those of its element and all its ancestors, each counted once per bucket:
at the element itself, its parent, its grandparent, higher up, and anywhere on the path.
The model's word table ships beside the stage-1 file (``NAME.words.json``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from itertools import chain, repeat
from pathlib import Path

import numpy as np

from .compiled import CWALK
from .features import NodeTable, class_words

BUCKETS = ("self", "parent", "grandparent", "above", "anywhere")
FORMAT_VERSION = 1
_CACHE_MAX = 16384


def _word_rows(table: NodeTable, row: Mapping[str, int], cache: dict[str, tuple[int, ...]]
               ) -> tuple[np.ndarray, np.ndarray]:
    """Per element with a class or id, each distinct word of it that ``row`` knows, as
    parallel arrays (element, row), in the table's element order and the value's word order.

    Values recur across a site's pages, so each value's rows are kept in ``cache`` (bounded:
    emptied when full; it holds row numbers, not copies of the words). A page's new values
    are split in a few calls over all of them (``class_words``) and looked up in one ``map``.
    Median path-words column over WCXB dev (scratch, against the loop per value it replaced,
    in alternating order): 0.228 -> 0.193 ms on pages whose values are all cached, 0.558 ->
    0.574 on pages of sites not seen before; without the cache, 0.463 and 0.519.
    """
    if len(cache) > _CACHE_MAX:
        cache.clear()
    new = [value for value in dict.fromkeys(table.keys) if value not in cache]
    if new:
        words = class_words(new)
        lengths = np.fromiter(map(len, words), np.int64, len(words))
        ids = np.fromiter(map(row.get, chain.from_iterable(words), repeat(-1)), np.int64,
                          int(lengths.sum()))
        value_of = np.repeat(np.arange(len(new)), lengths)
        known = ids >= 0
        value_of, ids = value_of[known], ids[known]
        # each (value, word) once, where it first appears: value_of stays in ascending runs
        first = np.unique(value_of * max(len(row), 1) + ids, return_index=True)[1]
        first.sort()
        ends = np.cumsum(np.bincount(value_of[first], minlength=len(new))).tolist()
        rows = ids[first].tolist()
        spans = zip([0, *ends[:-1]], ends, strict=True)
        cache.update(zip(new, (tuple(rows[a:b]) for a, b in spans), strict=True))
    of_element = list(map(cache.__getitem__, table.keys))
    count = np.fromiter(map(len, of_element), np.int64, len(of_element))
    return (np.repeat(table.keyed, count),
            np.fromiter(chain.from_iterable(of_element), np.int64, int(count.sum())))


def owner_words(table: NodeTable, known: Iterable[str] | None = None
                ) -> tuple[np.ndarray, list[list[tuple[int, str]]]]:
    """Per distinct element owning text, its (bucket, word) pairs; and each node's index into
    that list. What ``PathWords.score`` sums, spelled out: training reads it."""
    names = list(dict.fromkeys(chain.from_iterable(class_words(list(dict.fromkeys(table.keys)))))
                 if known is None else list(known))
    elements, rows = _word_rows(table, dict(zip(names, range(len(names)), strict=True)), {})
    words_of: dict[int, list[str]] = {}
    for e, r in zip(elements.tolist(), rows.tolist(), strict=True):
        words_of.setdefault(e, []).append(names[r])
    parent = table.parent.tolist()
    owners, node_owner = np.unique(table.owner, return_inverse=True)
    pairs_of: list[list[tuple[int, str]]] = []
    for o in owners.tolist():
        pairs: list[tuple[int, str]] = []
        above: set[str] = set()
        anywhere: set[str] = set()
        e, d = o, 0
        while e >= 0:
            for w in words_of.get(e, ()):
                if d < 3:
                    pairs.append((d, w))
                else:
                    above.add(w)
                anywhere.add(w)
            e = parent[e]
            d += 1
        pairs += [(3, w) for w in above]
        pairs += [(4, w) for w in anywhere]
        pairs_of.append(pairs)
    return node_owner, pairs_of


class PathWords:
    """Per word, one weight per bucket, and an intercept: the node's score is their sum (a
    logit)."""

    def __init__(self, intercept: float, weights: dict[str, list[float]]):
        self.intercept = float(intercept)
        self.weights = weights
        self._row = {w: i for i, w in enumerate(weights)}
        self._cache: dict[str, tuple[int, ...]] = {}
        self._matrix = np.asarray(list(weights.values()), dtype=np.float64
                                  ).reshape(-1, len(BUCKETS))

    def score(self, table: NodeTable) -> np.ndarray:
        """``owner_words``' sums, per node, without walking each node's path: in C when the
        package was built with its compiled walks (``_cwalk.path_word_scores``, the same
        float32 values; ~25 NumPy calls on arrays of a few hundred rows cost 0.51 ms a page,
        the loops 0.35), else ``_score``."""
        if CWALK is not None:
            if len(self._cache) > _CACHE_MAX:
                self._cache.clear()
            return CWALK.path_word_scores(
                table.keys, table.keyed, table.parent, table.end, table.owner, self._cache,
                self._row, self._matrix, self.intercept)
        return self._score(table)

    def _score(self, table: NodeTable) -> np.ndarray:
        """The three nearest levels are per-element sums. For the whole path, a word counts
        at its topmost element on the path: an element's word is topmost unless an ancestor
        has it, that is unless an earlier element with the same word (in pre-order) spans it.
        Those words' weights, added over each element's subtree range, sum to each element's
        path totals.
        """
        n, n_el = len(table), len(table.parent)
        element, rows = _word_rows(table, self._row, self._cache)
        if not n or not len(rows):
            return np.full(n, self.intercept, dtype=np.float32)
        M = self._matrix[rows]
        own = np.array([np.bincount(element, M[:, b], minlength=n_el) for b in range(3)])

        end = table.end
        order = np.lexsort((element, rows))  # by word, then in pre-order
        e, r = element[order], rows[order]
        span = n_el + 1
        reach = np.maximum.accumulate(r * span + end[e])
        topmost = r * span + e >= np.concatenate(([-1], reach[:-1]))
        e, w = e[topmost], M[order[topmost]]
        path = np.zeros((2, n_el + 1))
        for k, b in enumerate((3, 4)):
            path[k] = np.cumsum(np.bincount(e, w[:, b], minlength=n_el + 1)
                                - np.bincount(end[e], w[:, b], minlength=n_el + 1))

        o = table.owner
        parent = np.append(table.parent, -1)  # parent[-1]: above the root is nothing
        p = parent[o]
        gp = parent[p]
        ggp = parent[gp]
        own = np.append(own, np.zeros((3, 1)), axis=1)  # column -1: no such element
        total = own[0, o] + own[1, p] + own[2, gp] + path[0, ggp] * (ggp >= 0) + path[1, o]
        return (total + self.intercept).astype(np.float32)

    def save(self, path: str | Path, **attrs: object) -> None:
        doc = {"format": FORMAT_VERSION, "buckets": list(BUCKETS),
               **{k: str(v) for k, v in attrs.items()},
               "intercept": self.intercept,
               "weights": {w: [round(c, 5) for c in v] for w, v in sorted(self.weights.items())}}
        Path(path).write_text(json.dumps(doc, ensure_ascii=False, indent=0), "utf-8")

    @classmethod
    def load(cls, path: str | Path) -> PathWords:
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(
                f"{path}: no path-words file (train one with `newscrawl train`)")
        doc = json.loads(path.read_text("utf-8"))
        if (doc.get("format"), doc.get("buckets")) != (FORMAT_VERSION, list(BUCKETS)):
            raise ValueError(f"{path}: path words of format {doc.get('format')!r}, buckets "
                             f"{doc.get('buckets')!r}; this code reads format {FORMAT_VERSION}")
        return cls(doc["intercept"], doc["weights"])
