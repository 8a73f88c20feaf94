"""Labelled node matrices for a page set: features through the extractor's own code path."""

from __future__ import annotations

import hashlib
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..evaluation.datasets import Page, load_pages
from ..extraction.extractor import page_nodes
from ..extraction.features import FEATURE_NAMES, FEATURE_VERSION, NodeTable
from ..extraction.site import site_recurrence
from .labels import label_nodes
from .respell import respell


@dataclass(slots=True)
class LabelledPage:
    page: Page
    table: NodeTable
    y: np.ndarray
    source: str = ""
    """The page set it came from (its ``--data`` directory), for scores per set."""


@dataclass(slots=True)
class RespelledCopies:
    """Pages respelled in ideographs (``respell``), node for node: their labels are their
    originals' and they fall in their originals' folds."""

    tables: list[NodeTable]
    origin: np.ndarray
    """Per copy, the index of its original in ``NodeDataset.pages``."""
    X: np.ndarray
    y: np.ndarray
    page_of_row: np.ndarray
    """Per row, the index of its copy."""

    @property
    def origin_of_row(self) -> np.ndarray:
        return self.origin[self.page_of_row]


@dataclass(slots=True)
class NodeDataset:
    """All pages' rows stacked, with each row's page index for grouping and scoring."""

    pages: list[LabelledPage]
    X: np.ndarray
    y: np.ndarray
    page_of_row: np.ndarray
    data_sha256: str
    seconds: float
    textless: list[Page]
    """Labelled pages that yield no text node (nothing to train on): a benchmark still counts
    them, as empty extractions."""
    copies: RespelledCopies
    page_weight: np.ndarray
    """Per page, the weight of its page set in training (1 unless ``build_dataset`` is told
    otherwise): a small set of the pages that matter most can count for more."""

    @property
    def groups(self) -> np.ndarray:
        """Each page's fold group for grouped cross-validation: its domain, joined with every
        other domain of its publisher where the set names one (fundus-dev), so neither a
        site nor a publisher is both trained and tested on, across sets too."""
        return np.asarray(page_groups([lp.page for lp in self.pages]))

    @property
    def sources(self) -> list[str]:
        """The page sets, in the order given."""
        return list(dict.fromkeys(lp.source for lp in self.pages))


def page_groups(pages: Sequence[Page]) -> list[str]:
    """Per page, a group name shared by the pages that share a domain or a publisher
    (transitively): the smallest domain of the group."""
    parent: dict[str, str] = {}

    def find(key: str) -> str:
        while parent.setdefault(key, key) != key:
            parent[key] = parent[parent[key]]
            key = parent[key]
        return key

    for page in pages:
        root = find("domain:" + page.domain)
        if page.publisher:
            other = find("publisher:" + page.publisher)
            if other != root:
                parent[max(root, other)] = min(root, other)
    names: dict[str, str] = {}
    for page in pages:
        root = find("domain:" + page.domain)
        names[root] = min(names.get(root, page.domain), page.domain)
    return [names[find("domain:" + page.domain)] for page in pages]


def build_dataset(data_dirs: str | Path | Sequence[str | Path], limit: int | None = None,
                  verbose: bool = True, set_weights: dict[str, float] | None = None
                  ) -> NodeDataset:
    """Run every labelled page of one or more page sets through ``page_nodes`` and label its
    nodes, and make a copy of each respelled in ideographs. Each page's site sample
    (``site``) is the other pages of its domain; a copy's is the other copies. ``limit``
    applies to each set; ``set_weights`` maps a set's directory name (``fundus-dev``) to the
    weight of each of its pages in training.

    A copy whose cleaned tree has other text nodes than its original (cleaning reads some
    texts: "Your browser does not support JavaScript") is left out: it has no labels.
    """
    t0 = time.perf_counter()
    digest = hashlib.sha256()
    pages: list[LabelledPage] = []
    textless: list[Page] = []
    copies: list[NodeTable] = []
    origin: list[int] = []
    dirs = [data_dirs] if isinstance(data_dirs, str | Path) else list(data_dirs)
    labelled = ((str(d), page) for d in dirs for page in load_pages(d, limit))
    for n, (source, page) in enumerate(labelled, 1):
        digest.update(page.page_id.encode())
        digest.update(hashlib.sha256(page.body).digest())
        digest.update((page.text or "").encode())
        if page.text is None:
            continue
        nodes = page_nodes(page.body, page.url)
        if nodes.table is None or not len(nodes.table):
            textless.append(page)
            continue
        pages.append(LabelledPage(page, nodes.table, label_nodes(nodes.table.texts, page.text),
                                  source))
        copy = page_nodes(page.body, page.url, respell=respell).table
        if copy is not None and len(copy) == len(nodes.table):
            copies.append(copy)
            origin.append(len(pages) - 1)
        if verbose and n % 250 == 0:
            print(f"  {n} pages featurised", file=sys.stderr)
    site_recurrence([lp.table for lp in pages], [lp.page.domain for lp in pages])
    site_recurrence(copies, [pages[i].page.domain for i in origin])
    X = np.concatenate([lp.table.X for lp in pages]) if pages else np.zeros((0, len(FEATURE_NAMES)))
    y = np.concatenate([lp.y for lp in pages]) if pages else np.zeros(0)
    page_of_row = np.repeat(np.arange(len(pages)), [len(lp.y) for lp in pages])
    assert X.shape[1] == len(FEATURE_NAMES), FEATURE_VERSION
    origin_a = np.asarray(origin, dtype=np.int64)
    respelled = RespelledCopies(
        copies, origin_a,
        np.concatenate([t.X for t in copies]) if copies else X[:0],
        np.concatenate([pages[i].y for i in origin]) if copies else y[:0],
        np.repeat(np.arange(len(copies)), [len(t) for t in copies]),
    )
    weights = set_weights or {}
    page_weight = np.asarray([weights.get(Path(lp.source).name, 1.0) for lp in pages],
                             dtype=np.float64)
    return NodeDataset(pages, X, y, page_of_row, digest.hexdigest(), time.perf_counter() - t0,
                       textless, respelled, page_weight)
