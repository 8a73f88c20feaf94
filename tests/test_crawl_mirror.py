"""A real ``scrapy crawl news -a url=... -O`` of a local mirror of real news pages: fundus-dev's
133 articles from 94 publishers, served at their original paths on 127.0.0.1 by
``../shared/tools/mirror.py`` with a front page, two section pages, a sitemap, a robots.txt
that disallows ``/private/`` (linked from the front page) and ten articles linked a second
time with ``?utm_source=feed``.

The crawl writes nothing besides its named output, requests no private page, exports each
article once and no listing page. The mirror and the data live beside the clone and are
never copied into the project: without them this test skips on a developer's machine and
fails under CI=true.
"""

from __future__ import annotations

import importlib.util
import os
from collections import Counter
from pathlib import Path
from types import ModuleType
from urllib.parse import urlsplit

import pytest
from crawlutil import run_crawl

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
FUNDUS = SHARED / "data" / "fundus-dev"
MIRROR = SHARED / "tools" / "mirror.py"
ARTICLES = 133
EXPORTED_FLOOR = 130
"""Measured 132 of 133 with the page classifier ``models/pages-v1`` (the one left gives no
text), 129 with the hand-weighted rules it replaced; less a margin for the crawl order.
fundus-dev is among the classifier's training data, so this checks the crawl's wiring of
the decision, not its accuracy on new sites (models/pages-v1.md has the out-of-fold
figures)."""
PIPELINE_DROPS = {"not_article", "too_short", "duplicate_url", "duplicate_text", "binary",
                  "empty", "no_text", "no_content", "too_many_nodes", "too_large",
                  "extraction_error"}


def _mirror_module() -> ModuleType:
    for path in (FUNDUS, MIRROR):
        if not path.exists():
            if os.environ.get("CI") == "true":
                pytest.fail(f"{path} is missing: CI must have the shared data and tools "
                            "beside the clone")
            pytest.skip(f"{path} not present")
    spec = importlib.util.spec_from_file_location("newscrawl_test_mirror", MIRROR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _page(url: str) -> str:
    """The mirror's path of an exported URL, ``?utm_source=feed`` removed."""
    parts = urlsplit(url)
    query = "&".join(q for q in parts.query.split("&") if q and q != "utm_source=feed")
    return parts.path + (f"?{query}" if query else "")


def test_a_crawl_of_real_news_pages_exports_each_article_once_and_nothing_else(
        tmp_path: Path) -> None:
    mirror = _mirror_module().Mirror([FUNDUS]).start()
    try:
        result = run_crawl(tmp_path, mirror.base, {"CLOSESPIDER_TIMEOUT": "900"},
                           timeout=1200)
    finally:
        mirror.stop()
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats["finish_reason"] == "finished"
    truth = {path for path, page in mirror.pages.items() if page["page_type"] == "article"}
    assert len(truth) == ARTICLES

    # nothing besides the named output (and the test's own log and stats)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "crawl.jsonl", "crawl.log", "crawl.stats.json"]
    assert mirror.private_hits == 0  # robots.txt obeyed
    assert result.stat("newscrawl/dropped/robots_txt") >= 1

    exported = Counter(_page(item["url"]) for item in result.items)
    assert max(exported.values()) == 1  # the ?utm_source=feed copies collapse
    assert set(exported) <= truth  # no front or section page, nothing unknown
    assert len(exported) >= EXPORTED_FLOOR
    # every page the spider handed over is exported or dropped for a counted reason
    dropped = result.dropped()
    assert result.stat("newscrawl/pages") == len(result.items) + sum(
        n for reason, n in dropped.items() if reason in PIPELINE_DROPS)
    assert dropped.get("not_article", 0) >= 3  # the front page and the two sections
