"""A corpus built on a schedule: each run of the same crawl exports only what is new, and does
not download again the articles earlier runs exported (real ``scrapy crawl`` runs against the
sample site on 127.0.0.1)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from crawlutil import CrawlResult, Site, run_crawl

from newscrawl.extraction.dates import url_date


def _run(site: Site, workdir: Path, name: str, **settings: str) -> CrawlResult:
    start = len(site.server.requested)
    result = run_crawl(workdir, site.base, settings, name)
    result.requested = site.server.requested[start:]
    assert result.returncode == 0, result.log[-2000:]
    return result


def _paths(result: CrawlResult) -> list[str]:
    return [urlsplit(item["url"]).path for item in result.items]


def test_each_scheduled_run_exports_and_downloads_only_new_articles(sample_site: Site,
                                                                    tmp_path: Path) -> None:
    truth = {a["path"] for a in sample_site.manifest["articles"]}
    state = {"NEWSCRAWL_EXPORTED_FILE": str(tmp_path / "corpus" / "exported.json")}
    # The first run stops early, as a run cut short or a site that has since grown would.
    # Extraction in the reactor thread holds downloads while a page is read: with extraction
    # threads, a local site is downloaded whole before the 12th item closes the spider.
    first = _run(sample_site, tmp_path, "run1", CLOSESPIDER_ITEMCOUNT="12",
                 NEWSCRAWL_EXTRACTION_THREADS="0", **state)
    second = _run(sample_site, tmp_path, "run2", **state)
    third = _run(sample_site, tmp_path, "run3", **state)

    assert 12 <= len(first.items) < len(truth)
    paths = Counter(_paths(first) + _paths(second))
    assert set(paths) == truth
    assert max(paths.values()) == 1
    assert not set(_paths(first)) & set(second.requested)  # not downloaded again
    assert second.stat("newscrawl/skipped/exported_before") >= len(first.items)
    assert second.stat("newscrawl/dropped/duplicate_url") == 0

    assert third.items == []
    assert not truth & set(third.requested)
    assert third.stat("newscrawl/skipped/exported_before") >= len(truth)
    assert "/" in third.requested  # the front page is read afresh each run



def test_since_exports_only_articles_published_from_that_day(sample_site: Site,
                                                             tmp_path: Path) -> None:
    since = "2024-06-01"
    articles = sample_site.manifest["articles"]
    newer = {a["path"] for a in articles if a["published"] >= since}
    older = {a["path"] for a in articles if a["published"] < since}
    assert newer and older
    result = _run(sample_site, tmp_path, "since", NEWSCRAWL_SINCE=since)
    assert set(_paths(result)) == newer
    assert all(item["published"][:10] >= since for item in result.items)
    # Pages dated before it are not requested: by the sitemap's or feed's date, or the day the
    # URL spells. An older article reached by a link with no date in its URL is downloaded,
    # then dropped with its reason.
    in_sitemaps = {a["path"] for a in articles if a["published"] < since and a["listed"]}
    assert result.stat("newscrawl/skipped/before_since") >= len(in_sitemaps)
    dated_urls = {path for path in older if url_date(path)}
    assert dated_urls and not dated_urls & set(result.requested)
    assert result.stat("newscrawl/dropped/too_old") == len(older & set(result.requested))
