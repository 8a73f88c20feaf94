"""Labelled node matrices for a page set: features through the extractor's own code path."""

from __future__ import annotations

import hashlib
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..evaluation.datasets import Page, load_pages
from ..extraction.extractor import page_nodes
from ..extraction.features import FEATURE_NAMES, FEATURE_VERSION, NodeTable
from .labels import label_nodes


@dataclass(slots=True)
class LabelledPage:
    page: Page
    table: NodeTable
    y: np.ndarray


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

    @property
    def groups(self) -> np.ndarray:
        """Domain of each page, for grouped cross-validation."""
        return np.asarray([lp.page.domain for lp in self.pages])


def build_dataset(data_dir: str | Path, limit: int | None = None,
                  verbose: bool = True) -> NodeDataset:
    """Run every labelled page through ``page_nodes`` and label its nodes."""
    t0 = time.perf_counter()
    digest = hashlib.sha256()
    pages: list[LabelledPage] = []
    textless: list[Page] = []
    for n, page in enumerate(load_pages(data_dir, limit), 1):
        digest.update(page.page_id.encode())
        digest.update(hashlib.sha256(page.body).digest())
        digest.update((page.text or "").encode())
        if page.text is None:
            continue
        nodes = page_nodes(page.body, page.url)
        if nodes.table is None or not len(nodes.table):
            textless.append(page)
            continue
        pages.append(LabelledPage(page, nodes.table, label_nodes(nodes.table.texts, page.text)))
        if verbose and n % 250 == 0:
            print(f"  {n} pages featurised", file=sys.stderr)
    X = np.concatenate([lp.table.X for lp in pages]) if pages else np.zeros((0, len(FEATURE_NAMES)))
    y = np.concatenate([lp.y for lp in pages]) if pages else np.zeros(0)
    page_of_row = np.repeat(np.arange(len(pages)), [len(lp.y) for lp in pages])
    assert X.shape[1] == len(FEATURE_NAMES), FEATURE_VERSION
    return NodeDataset(pages, X, y, page_of_row, digest.hexdigest(), time.perf_counter() - t0,
                       textless)
