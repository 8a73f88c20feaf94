"""`python -m newscrawl.evaluation.hostile` on two shapes at small sizes: the figures' shape and
the reasons, never a speed."""

from __future__ import annotations

import json

import pytest

from newscrawl.evaluation import hostile

pytestmark = pytest.mark.benchmark


def test_hostile_shapes_print_both_sizes_and_a_ratio(capsys: pytest.CaptureFixture[str]) -> None:
    assert hostile.main(["--mb", "0.8", "--shape", "br_in_block", "--shape", "paragraphs",
                         "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert set(rows) == {"br_in_block", "paragraphs"}
    for row in rows.values():
        assert 0.15e6 < row["small"]["bytes"] < row["big"]["bytes"] < 0.9e6
        assert row["time_ratio"] > 0 and row["big"]["rss_mb"] > 0
    assert rows["br_in_block"]["big"]["reason"] is None
    # 0.8 MB of one-word paragraphs is 72,000 text nodes: over the extractor's cap
    assert (rows["paragraphs"]["small"]["reason"], rows["paragraphs"]["big"]["reason"]) == (
        None, "too_many_nodes")
