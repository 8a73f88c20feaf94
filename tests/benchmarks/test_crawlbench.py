"""The crawl benchmark end to end on a small generated site (run with -m benchmark).

It asserts what the benchmark measures: a complete crawl in both modes and an extraction rate
of at least 100 pages per second of pipeline time (one core), so the pipeline is not what
limits a polite crawl; and a second run on a schedule that downloads no article again.
"""

from __future__ import annotations

import pytest

from newscrawl.evaluation.crawlbench import bench, render

pytestmark = pytest.mark.benchmark


def test_crawlbench_small_site() -> None:
    result = bench(n_articles=300, repeats=1)
    e, n = result["median"]["extract"], result["median"]["no_extract"]
    print(render(result))
    assert e["pages"] >= result["site_articles"]
    assert abs(n["pages"] - e["pages"]) <= 0.05 * e["pages"]  # same site, same discovery
    assert e["articles"] >= result["site_articles"] * 0.95
    assert 0 < e["extract_share"] < 1
    assert e["extract_pages_per_s"] >= 100
    first, again = result["scheduled"]
    assert first["articles"] == e["articles"]
    assert again["articles"] == 0
    assert again["responses"] < first["responses"] - result["site_articles"] * 0.9
