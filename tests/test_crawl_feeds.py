"""Where a crawl's articles go (real ``scrapy crawl`` runs against the sample site): the named
output only, and an output that could not be written loses nothing for the next run."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from crawlutil import TEST_SETTINGS, Site, read_jsonl, run_crawl

from newscrawl.demo import OFFLINE_SETTINGS, crawl_env


def _paths(items: list[dict]) -> list[str]:
    return [urlsplit(i["url"]).path for i in items]


def test_a_named_output_replaces_the_default_feed(sample_site: Site, tmp_path: Path) -> None:
    result = run_crawl(tmp_path, sample_site.base, {"CLOSESPIDER_ITEMCOUNT": "5"})
    assert result.returncode == 0, result.log[-2000:]
    assert len(result.items) >= 5
    # no out/news-<time>.jsonl beside the output the command line named
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "crawl.jsonl", "crawl.log", "crawl.stats.json"]


def _default_feed(sample_site: Site, tmp_path: Path, **settings: str) -> list[dict]:
    """``scrapy crawl news`` with no output named, in ``tmp_path``: the default feed's lines."""
    settings = {**OFFLINE_SETTINGS, **TEST_SETTINGS, **settings,
                "LOG_FILE": str(tmp_path / "crawl.log")}
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"url={sample_site.base}/"]
    for name, value in settings.items():
        cmd += ["-s", f"{name}={value}"]
    proc = subprocess.run(cmd, env=crawl_env(), cwd=tmp_path, timeout=300, check=False)
    assert proc.returncode == 0
    (feed,) = (tmp_path / "out").glob("news-*.jsonl")
    return read_jsonl(feed)


def test_without_a_named_output_the_default_feed_is_written(sample_site: Site,
                                                            tmp_path: Path) -> None:
    assert len(_default_feed(sample_site, tmp_path, CLOSESPIDER_ITEMCOUNT="3")) >= 3


def test_with_extraction_off_the_default_feed_holds_the_raw_pages_as_their_text(
        sample_site: Site, tmp_path: Path) -> None:
    raw = _default_feed(sample_site, tmp_path, NEWSCRAWL_EXTRACTION_ENABLED="0")
    pages = {urlsplit(p["url"]).path: p for p in raw}
    truth = {a["path"]: a for a in sample_site.manifest["articles"]}
    assert set(truth) <= set(pages)  # every article's page, raw, and the listings beside them
    chinese = [path for path, a in truth.items() if a["lang"] == "zh"]
    assert chinese
    for path in chinese:  # served as GBK or UTF-8, exported as the text a reader sees
        body = pages[path]["body"]
        assert "\ufffd" not in body
        assert truth[path]["text"].split("\n")[0][:10] in body


def test_a_feed_that_cannot_be_written_loses_no_article_for_the_next_run(
        sample_site: Site, tmp_path: Path) -> None:
    truth = {a["path"] for a in sample_site.manifest["articles"]}
    state = {"NEWSCRAWL_EXPORTED_FILE": str(tmp_path / "corpus" / "exported.json")}
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the output's directory should be", "utf-8")
    failed = run_crawl(tmp_path, sample_site.base, state, name="run1",
                       out=blocker / "run1.jsonl")
    assert failed.items == []
    assert failed.stat("item_scraped_count") == len(truth)  # Scrapy calls them scraped
    assert not (tmp_path / "corpus" / "exported.json").exists()  # but none is recorded

    again = run_crawl(tmp_path, sample_site.base, state, name="run2")
    assert again.returncode == 0, again.log[-2000:]
    paths = Counter(_paths(again.items))
    assert set(paths) == truth
    assert max(paths.values()) == 1
    assert again.stat("newscrawl/skipped/exported_before") == 0
    # and the run that did write them recorded them
    third = run_crawl(tmp_path, sample_site.base, state, name="run3")
    assert third.items == []
    assert third.stat("newscrawl/skipped/exported_before") >= len(truth)
