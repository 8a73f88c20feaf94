"""End to end: a real ``scrapy crawl news`` over the shipped sample site on 127.0.0.1."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

from newscrawl.cli import main
from newscrawl.demo import score

if TYPE_CHECKING:
    from crawlutil import CrawlResult, Site

F1_TARGET = 0.97


def _paths(result: CrawlResult) -> list[str]:
    return [urlsplit(i["url"]).path for i in result.items]


def test_crawl_finishes_cleanly(sample_crawl: CrawlResult) -> None:
    assert sample_crawl.returncode == 0, sample_crawl.log[-3000:]
    assert sample_crawl.stats["finish_reason"] == "finished"
    assert "Traceback" not in sample_crawl.log
    assert sample_crawl.stat("log_count/ERROR") == 0


def test_every_article_found_once_and_nothing_else(sample_crawl: CrawlResult,
                                                   sample_site: Site) -> None:
    result = score(sample_crawl.items, sample_site.manifest)
    assert result["missing"] == []
    assert result["not_articles_exported"] == []
    assert result["repeats"] == 0
    assert len(sample_crawl.items) == len(sample_site.manifest["articles"]) >= 40


def test_articles_found_only_by_links_are_found(sample_crawl: CrawlResult,
                                                sample_site: Site) -> None:
    unlisted = {a["path"] for a in sample_site.manifest["articles"] if not a["listed"]}
    assert unlisted  # the site keeps some articles out of sitemaps and the feed
    assert unlisted <= set(_paths(sample_crawl))


def test_discovery_used_sitemaps_and_feed(sample_crawl: CrawlResult) -> None:
    assert sample_crawl.stat("newscrawl/discovered/sitemap") > 40
    assert sample_crawl.stat("newscrawl/discovered/feed") >= 10
    requested = {urlsplit(p).path for p in sample_crawl.requested}
    assert {"/robots.txt", "/sitemap_index.xml", "/sitemaps/news.xml", "/rss.xml"} <= requested


def test_robots_txt_disallowed_page_never_fetched(sample_crawl: CrawlResult,
                                                  sample_site: Site) -> None:
    (disallowed,) = sample_site.manifest["disallowed"]
    assert not any(p.startswith("/private/") for p in sample_crawl.requested)
    assert disallowed not in _paths(sample_crawl)
    assert sample_crawl.stat("newscrawl/dropped/robots_txt") >= 1


def test_non_articles_dropped_with_counted_reason(sample_crawl: CrawlResult,
                                                  sample_site: Site) -> None:
    drops = sample_crawl.dropped()
    assert drops.get("not_article", 0) >= len(sample_site.manifest["non_articles"])
    # every page the spider yielded was either exported or dropped with a reason
    pipeline_drops = sum(v for k, v in drops.items()
                         if k in {"not_article", "too_short", "duplicate_url",
                                  "duplicate_text", "binary", "empty", "no_text",
                                  "no_content", "too_large", "extraction_error"})
    assert sample_crawl.stat("newscrawl/pages") == len(sample_crawl.items) + pipeline_drops


def test_text_f1_against_known_bodies(sample_crawl: CrawlResult, sample_site: Site) -> None:
    result = score(sample_crawl.items, sample_site.manifest)
    worst = sorted(result["f1"].items(), key=lambda kv: kv[1])[:3]
    assert result["f1_mean"] >= F1_TARGET, f"mean {result['f1_mean']:.3f}; worst {worst}"


def test_chinese_and_gbk_articles_decoded(sample_crawl: CrawlResult, sample_site: Site) -> None:
    result = score(sample_crawl.items, sample_site.manifest)
    gbk = [a["path"] for a in sample_site.manifest["articles"] if a["encoding"] == "gbk"]
    assert gbk
    for path in gbk:
        assert result["f1"][path] >= 0.9, path
    raw = sample_crawl.out.read_text("utf-8")
    assert "\\u" not in raw  # FEED_EXPORT_ENCODING utf-8: Chinese is written, not escaped
    zh = [i for i in sample_crawl.items if urlsplit(i["url"]).path.startswith("/zh/")]
    assert zh and all(any("\u4e00" <= c <= "\u9fff" for c in i["text"]) for i in zh)


def test_items_carry_provenance(sample_crawl: CrawlResult) -> None:
    for item in sample_crawl.items:
        assert item["url"].startswith("http://127.0.0.1:")
        assert item["canonical_url"] == item["url"]  # the site declares itself canonical
        assert item["model_version"] == sample_crawl.stats["newscrawl/model_version"]
        assert len(item["content_hash"]) == 40
    assert len({i["content_hash"] for i in sample_crawl.items}) == len(sample_crawl.items)
    assert Counter(i["site"] for i in sample_crawl.items) == {"127.0.0.1": len(
        sample_crawl.items)}


def test_warc_archive_extracts_again_to_the_same_articles(
        sample_crawl: CrawlResult, capsys: pytest.CaptureFixture[str]) -> None:
    """The crawl's WARC file holds every response it downloaded (robots.txt, sitemaps, feed,
    pages), and ``newscrawl extract`` on it gives the articles the crawl exported, no other
    page, with the same text, site and capture time: a corpus can be rebuilt without a
    recrawl."""
    from warcio.archiveiterator import ArchiveIterator

    warc = Path(sample_crawl.stats["newscrawl/warc/file"])
    assert warc.is_file() and warc.name.endswith(".warc.gz")
    with warc.open("rb") as f:
        kinds = Counter(r.rec_type for r in ArchiveIterator(f))
    assert kinds["response"] == kinds["request"] == sample_crawl.stat(
        "response_received_count") == sample_crawl.stat("newscrawl/warc/records")
    assert main(["extract", "--format", "json", str(warc)]) == 0
    again = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    fields = ("url", "text", "crawled_at", "site", "canonical_url", "content_hash")
    assert sorted(tuple(r[f] for f in fields) for r in again) == sorted(
        tuple(i[f] for f in fields) for i in sample_crawl.items)


def test_nothing_is_written_besides_the_named_output(sample_crawl: CrawlResult) -> None:
    assert sorted(p.name for p in sample_crawl.out.parent.iterdir()) == [
        "crawl.jsonl", "crawl.log", "crawl.stats.json", "warc"]
