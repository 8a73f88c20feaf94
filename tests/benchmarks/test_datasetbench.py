"""The dataset benchmark on a small scale (run with -m benchmark).

It asserts what the benchmark measures: near copies of Jaccard >= 0.85 found (recall >= 0.98),
no unrelated article of the same topic merged, and a build that removes the generated copies.
"""

from __future__ import annotations

import pytest

from newscrawl.evaluation.datasetbench import detection, end_to_end

pytestmark = pytest.mark.benchmark


def test_datasetbench_small() -> None:
    found = detection(400)["rensa"]
    assert found["pairs_at_0.85"] >= 50
    assert found["recall_at_0.85"] >= 0.98
    assert found["false_merges"] <= 0.001
    e = end_to_end(3000)
    assert e["duplicates"]["duplicate_text"] > 0 and e["duplicates"]["near_duplicate"] > 0
    assert 0.8 * 3000 < e["articles_kept"] < 0.95 * 3000
