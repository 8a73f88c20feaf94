"""Pipelines without a crawl: built from settings, fed Page items, stats and drops checked."""

from __future__ import annotations

import contextlib
import time
from datetime import date, timedelta
from pathlib import Path

import pytest
from scrapy import Request
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from newscrawl.items import Article, Page
from newscrawl.middlewares import SkipExportedMiddleware
from newscrawl.pipelines import (
    DuplicatesPipeline,
    DuplicateText,
    DuplicateUrl,
    ExtractionPipeline,
    NotAnArticle,
    TooOld,
    TooShort,
    Unusable,
    canonical,
    text_hash,
    word_count,
)
from newscrawl.sample_site import build_site


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    dest = tmp_path_factory.mktemp("site")
    manifest = build_site(dest)
    return dest / "site", {"articles": manifest.articles}


def _crawler(**settings: object):
    crawler = get_crawler(settings_dict=settings)
    crawler.stats.open_spider()
    return crawler


def _page(root: Path, path: str, **kw: object) -> Page:
    file = root / path.lstrip("/")
    if path.endswith("/"):
        file = file / "index.html"
    body = file.read_bytes().replace(b"__BASE__", b"http://news.example")
    defaults = {"url": f"http://news.example{path}", "status": 200, "body": body,
                "content_type": "text/html", "site": "news.example", "url_kind": "unknown",
                "found_via": "sitemap", "crawled_at": "2024-06-01T00:00:00+00:00"}
    return Page(**{**defaults, **kw})


def test_extraction_disabled_is_not_configured() -> None:
    with pytest.raises(NotConfigured):
        build_from_crawler(ExtractionPipeline,
                           get_crawler(settings_dict={"NEWSCRAWL_EXTRACTION_ENABLED": False}))


def test_dedup_disabled_is_not_configured() -> None:
    with pytest.raises(NotConfigured):
        build_from_crawler(DuplicatesPipeline,
                           get_crawler(settings_dict={"NEWSCRAWL_DEDUP_ENABLED": False}))


def test_missing_model_refuses_to_start(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no-such-model"):
        build_from_crawler(ExtractionPipeline, get_crawler(
            settings_dict={"NEWSCRAWL_MODEL": str(tmp_path / "no-such-model.ubj")}))


def test_site_memory_follows_its_setting(site: tuple[Path, dict]) -> None:
    """Pages of a site are read against its earlier pages unless the setting turns it off."""
    root, manifest = site
    paths = [a["path"] for a in manifest["articles"][:3]]
    pipe = build_from_crawler(ExtractionPipeline, _crawler(NEWSCRAWL_SITE_PAGES=2))
    for path in paths:
        with contextlib.suppress(DropItem):  # kept or dropped, the page was read
            pipe.process_item(_page(root, path))
    memory = pipe.extractor.sites
    assert memory.max_pages == 2 and memory.pages("http://news.example/") == 2
    off = build_from_crawler(ExtractionPipeline, _crawler(NEWSCRAWL_SITE_PAGES=0))
    assert off.extractor.sites is None


def test_article_page_becomes_article_item(site: tuple[Path, dict]) -> None:
    root, manifest = site
    truth = next(a for a in manifest["articles"] if a["lang"] == "en" and a["declares_type"])
    crawler = _crawler()
    pipe = build_from_crawler(ExtractionPipeline, crawler)
    pipe.open_spider()
    item = pipe.process_item(_page(root, truth["path"], url_kind="article"))
    assert isinstance(item, Article)
    assert item.url == f"http://news.example{truth['path']}"
    assert item.title == truth["title"]
    assert item.model_version == pipe.extractor.model_version
    assert item.content_hash == text_hash(item.text)
    assert item.words > 100
    assert not hasattr(item, "body")
    stats = crawler.stats.get_stats()
    assert stats["newscrawl/extracted"] == 1
    assert stats["newscrawl/articles"] == 1
    assert stats["newscrawl/extract_ms"] > 0
    assert stats["newscrawl/model_version"] == pipe.extractor.model_version
    assert not any(k.startswith("newscrawl/dropped/") for k in stats)


def test_article_published_before_since_dropped_as_too_old(site: tuple[Path, dict]) -> None:
    root, manifest = site
    truth = next(a for a in manifest["articles"] if a["lang"] == "en" and a["declares_type"])
    page = _page(root, truth["path"], url_kind="article")
    published = build_from_crawler(ExtractionPipeline, _crawler()).process_item(page).published
    day = date.fromisoformat(published[:10])
    same_day = build_from_crawler(ExtractionPipeline, _crawler(NEWSCRAWL_SINCE=day.isoformat()))
    assert isinstance(same_day.process_item(page), Article)
    crawler = _crawler(NEWSCRAWL_SINCE=(day + timedelta(days=1)).isoformat())
    with pytest.raises(TooOld):
        build_from_crawler(ExtractionPipeline, crawler).process_item(page)
    assert crawler.stats.get_value("newscrawl/dropped/too_old") == 1


def test_listing_page_dropped_as_not_article(site: tuple[Path, dict],
                                             caplog: pytest.LogCaptureFixture) -> None:
    root, _ = site
    crawler = _crawler()
    pipe = build_from_crawler(ExtractionPipeline, crawler)
    with pytest.raises(NotAnArticle) as info:
        pipe.process_item(_page(root, "/world/", found_via="link"))
    assert info.value.log_level == "INFO"
    assert crawler.stats.get_value("newscrawl/dropped/not_article") == 1


@pytest.mark.parametrize(("body", "reason"), [
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n" * 50, "binary"),
    (b"   \n  ", "empty"),
])
def test_unusable_body_dropped_with_library_reason(body: bytes, reason: str) -> None:
    crawler = _crawler()
    pipe = build_from_crawler(ExtractionPipeline, crawler)
    page = Page(url="http://news.example/2024/01/01/a-long-article-slug-here.html", status=200,
                body=body, content_type="text/html")
    with pytest.raises(Unusable) as info:
        pipe.process_item(page)
    assert info.value.reason == reason
    assert crawler.stats.get_value(f"newscrawl/dropped/{reason}") == 1


def test_slow_page_is_logged_with_its_stages_and_counted(
        site: tuple[Path, dict], caplog: pytest.LogCaptureFixture) -> None:
    root, manifest = site
    path = manifest["articles"][0]["path"]
    crawler = _crawler()
    pipe = build_from_crawler(ExtractionPipeline, crawler)
    with caplog.at_level("WARNING", logger="newscrawl.pipelines"):
        pipe.process_item(_page(root, path))  # a few ms: under the threshold
        assert crawler.stats.get_value("newscrawl/slow_pages") is None and not caplog.records
        pipe.slow_page_ms = 0.0
        pipe.process_item(_page(root, path, url="http://news.example/again"))
    assert crawler.stats.get_value("newscrawl/slow_pages") == 1
    (record,) = caplog.records
    assert record.levelname == "WARNING" and "http://news.example/again" in record.getMessage()
    assert "features" in record.getMessage() and "predict" in record.getMessage()


def test_a_page_is_timed_by_its_threads_cpu_not_by_the_waits_around_it(
        site: tuple[Path, dict]) -> None:
    """In the crawl's extraction threads, a wall clock counted the waits for the GIL as the
    page's time (a mirrored fundus-dev crawl reported 48 ms a page where the reactor thread
    took 12) and called pages slow that were not. A sleep inside extraction stands in for
    such a wait: the thread is not running, so the page's time must not grow by it."""
    root, manifest = site
    crawler = _crawler()
    pipe = build_from_crawler(ExtractionPipeline, crawler)
    real_extract = pipe.extractor.extract

    def waiting_extract(*args: object, **kwargs: object) -> object:
        time.sleep(0.4)
        return real_extract(*args, **kwargs)

    pipe.extractor.extract = waiting_extract  # type: ignore[method-assign]
    pipe.slow_page_ms = 300.0
    with contextlib.suppress(DropItem):
        pipe.process_item(_page(root, manifest["articles"][0]["path"]))
    assert 0 < crawler.stats.get_value("newscrawl/extract_ms") < 300
    assert crawler.stats.get_value("newscrawl/slow_pages") is None


def test_short_article_dropped_as_too_short() -> None:
    crawler = _crawler(NEWSCRAWL_MIN_WORDS=80)
    pipe = build_from_crawler(ExtractionPipeline, crawler)
    body = (b"<html><head><meta property='og:type' content='article'><title>Brief</title></head>"
            b"<body><article><h1>Brief</h1><p>The council met on Tuesday and approved the new "
            b"budget for the harbour, which includes funds for dredging.</p></article></body>"
            b"</html>")
    page = Page(url="http://news.example/2024/01/01/council-approves-harbour-budget.html",
                status=200, body=body, content_type="text/html", url_kind="article",
                found_via="news_sitemap")
    with pytest.raises((TooShort, NotAnArticle, Unusable)) as info:
        pipe.process_item(page)
    assert crawler.stats.get_value(f"newscrawl/dropped/{info.value.reason}") == 1


def test_other_items_pass_through() -> None:
    pipe = build_from_crawler(ExtractionPipeline, _crawler())
    item = {"something": "else"}
    assert pipe.process_item(item) is item


def _article(url: str, text: str, canonical_url: str | None = None) -> Article:
    return Article(url=url, canonical_url=canonical_url or canonical(url), title="t", text=text,
                   language="en", crawled_at="2024-06-01T00:00:00+00:00",
                   content_hash=text_hash(text), model_version="nodes-v1")


def _export(pipe: DuplicatesPipeline, item: Article) -> Article:
    """The item through the pipeline and written by the feeds, as in a crawl."""
    assert pipe.process_item(item) is item
    pipe.item_exported(item)
    return item


def test_duplicates_by_url_and_by_text() -> None:
    crawler = _crawler()
    pipe = build_from_crawler(DuplicatesPipeline, crawler)
    first = _article("http://news.example/a-story-about-boats", "Boats sail.\n\nThey float.")
    assert pipe.process_item(first) is first
    with pytest.raises(DuplicateUrl):  # same page, tracking parameter and fragment
        pipe.process_item(_article("http://news.example/a-story-about-boats?utm_source=x#top",
                                   "Different text entirely."))
    with pytest.raises(DuplicateText):  # same text modulo case and spacing, other URL
        pipe.process_item(_article("http://news.example/amp/a-story-about-boats",
                                   "boats  SAIL.\nThey float."))
    stats = crawler.stats.get_stats()
    assert stats["newscrawl/dropped/duplicate_url"] == 1
    assert stats["newscrawl/dropped/duplicate_text"] == 1
    assert stats.get("newscrawl/dropped/not_article") is None


@pytest.mark.parametrize("setting", ["JOBDIR", "NEWSCRAWL_EXPORTED_FILE"])
def test_what_was_exported_is_remembered_by_the_next_crawl(tmp_path: Path,
                                                            setting: str) -> None:
    value = str(tmp_path / ("job" if setting == "JOBDIR" else "corpus/exported.json"))
    first = _article("http://news.example/a-story-about-boats", "Boats sail.")
    pipe = build_from_crawler(DuplicatesPipeline, _crawler(**{setting: value}))
    _export(pipe, first)
    pipe.feeds_closed()
    again = build_from_crawler(DuplicatesPipeline, _crawler(**{setting: value}))
    with pytest.raises(DropItem):
        again.process_item(_article(first.url, "Boats sail."))
    with pytest.raises(DuplicateText):  # the same story at another address
        again.process_item(_article("http://news.example/boats-again", "Boats sail."))
    fresh = build_from_crawler(DuplicatesPipeline, _crawler())
    assert fresh.process_item(first) is first


def test_crawls_sharing_one_record_of_exports_keep_each_others_articles(
        tmp_path: Path) -> None:
    """Two sites crawled at the same time into one corpus: the second to close must not
    write the first one's articles out of the file."""
    state = {"NEWSCRAWL_EXPORTED_FILE": str(tmp_path / "exported.json")}
    one = build_from_crawler(DuplicatesPipeline, _crawler(**state))
    other = build_from_crawler(DuplicatesPipeline, _crawler(**state))
    _export(one, _article("http://one.example/boats", "Boats sail."))
    _export(other, _article("http://other.example/trains", "Trains run."))
    one.feeds_closed()
    other.feeds_closed()
    later = build_from_crawler(DuplicatesPipeline, _crawler(**state))
    for url, text in (("http://one.example/boats", "Boats sail."),
                      ("http://other.example/trains", "Trains run.")):
        with pytest.raises(DuplicateUrl):
            later.process_item(_article(url, text))
    assert [p.name for p in tmp_path.iterdir()] == ["exported.json"]  # no temporary left


def test_a_record_of_exports_that_cannot_be_saved_is_logged_and_counted(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("", "utf-8")
    crawler = _crawler(NEWSCRAWL_EXPORTED_FILE=str(blocker / "exported.json"))
    pipe = build_from_crawler(DuplicatesPipeline, crawler)
    _export(pipe, _article("http://news.example/boats", "Boats sail."))
    pipe.feeds_closed()  # the crawl closes normally
    assert "not saved" in caplog.text
    assert crawler.stats.get_value("newscrawl/exported_file_error")


def test_an_unreadable_record_of_exports_stops_the_crawl_before_it_starts(
        tmp_path: Path) -> None:
    state = tmp_path / "exported.json"
    state.write_text('{"urls": ["http://news.example/a"', "utf-8")  # cut short
    with pytest.raises(ValueError, match="unreadable record of exported articles"):
        build_from_crawler(DuplicatesPipeline, _crawler(NEWSCRAWL_EXPORTED_FILE=str(state)))


def test_article_pages_exported_before_are_not_requested_again(tmp_path: Path) -> None:
    state = tmp_path / "exported.json"
    pipe = build_from_crawler(DuplicatesPipeline,
                              _crawler(NEWSCRAWL_EXPORTED_FILE=str(state)))
    _export(pipe, _article("http://news.example/2024/05/a-story-about-boats", "Boats."))
    pipe.feeds_closed()
    crawler = _crawler(NEWSCRAWL_EXPORTED_FILE=str(state))
    mw = build_from_crawler(SkipExportedMiddleware, crawler)
    page = {"newscrawl_page": True}
    requests = [
        Request("http://news.example/2024/05/a-story-about-boats?utm_source=feed", meta=page),
        Request("http://news.example/2024/05/a-new-story", meta=page),
        Request("http://news.example/", meta=page),
        Request("http://news.example/2024/05/a-story-about-boats"),  # not a page: a sitemap's
    ]
    kept = list(mw.process_spider_output(None, requests))
    assert [r.url for r in kept] == [r.url for r in requests[1:]]
    assert crawler.stats.get_value("newscrawl/skipped/exported_before") == 1


def test_only_what_the_feeds_wrote_and_stored_is_recorded_as_exported(tmp_path: Path) -> None:
    state = {"NEWSCRAWL_EXPORTED_FILE": str(tmp_path / "exported.json")}
    crawler = _crawler(**state)
    pipe = build_from_crawler(DuplicatesPipeline, crawler)
    written = _export(pipe, _article("http://news.example/boats", "Boats sail."))
    unwritten = _article("http://news.example/trains", "Trains run.")
    assert pipe.process_item(unwritten) is unwritten  # a feed raised on it: no item_exported
    with pytest.raises(DuplicateUrl):  # within the run it counts all the same
        pipe.process_item(_article(unwritten.url, "Trains run late."))
    pipe.feeds_closed()
    later = build_from_crawler(DuplicatesPipeline, _crawler(**state))
    with pytest.raises(DuplicateUrl):
        later.process_item(written)
    assert later.process_item(unwritten) is unwritten

    # a feed whose storage failed at the end (a remote upload, a full disk) kept nothing
    crawler = _crawler(**state)
    pipe = build_from_crawler(DuplicatesPipeline, crawler)
    lost = _export(pipe, _article("http://news.example/planes", "Planes fly."))
    crawler.stats.inc_value("feedexport/failed_count/FileFeedStorage")
    pipe.feeds_closed()
    assert "FileFeedStorage" in crawler.stats.get_value("newscrawl/exported_file_error")
    later = build_from_crawler(DuplicatesPipeline, _crawler(**state))
    assert later.process_item(lost) is lost


def test_this_runs_repeats_are_skipped_but_not_counted_as_exported_before() -> None:
    crawler = _crawler()
    pipe = build_from_crawler(DuplicatesPipeline, crawler)
    mw = build_from_crawler(SkipExportedMiddleware, crawler)
    _export(pipe, _article("http://news.example/2024/05/a-story-about-boats", "Boats."))
    copy = Request("http://news.example/2024/05/a-story-about-boats?utm_source=feed",
                   meta={"newscrawl_page": True})
    assert list(mw.process_spider_output(None, [copy])) == []
    assert crawler.stats.get_value("newscrawl/skipped/exported_before") is None
    assert crawler.stats.get_value("newscrawl/skipped/exported_this_run") == 1


def test_without_deduplication_nothing_is_skipped() -> None:
    with pytest.raises(NotConfigured):
        build_from_crawler(SkipExportedMiddleware, _crawler(NEWSCRAWL_DEDUP_ENABLED=False))


def test_site_patterns_overrule_the_page_classifier(site: tuple[Path, dict]) -> None:
    """An article URL the site's ``article_deny`` names is not exported; without such a
    pattern the same page is decided by the page classifier, and logged with its score."""
    root, manifest = site
    truth = next(a for a in manifest["articles"] if a["lang"] == "en")
    crawler = _crawler()
    pipe = build_from_crawler(ExtractionPipeline, crawler)
    with pytest.raises(NotAnArticle, match="URL patterns"):
        pipe.process_item(_page(root, truth["path"], url_kind="listing"))
    assert isinstance(pipe.process_item(_page(root, truth["path"])), Article)
    with pytest.raises(NotAnArticle, match=r"p\(article\) 0\.\d+ <"):
        pipe.process_item(_page(root, "/tag/economy/", found_via="link"))


def test_missing_page_model_refuses_to_start(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no-such-pages"):
        build_from_crawler(ExtractionPipeline, get_crawler(
            settings_dict={"NEWSCRAWL_PAGE_MODEL": str(tmp_path / "no-such-pages.ubj")}))


def test_canonical() -> None:
    url = "http://news.example/world/story-of-the-day?b=2&utm_medium=x&a=1#comments"
    assert canonical(url) == "http://news.example/world/story-of-the-day?a=1&b=2"
    # a declared canonical on the same site wins, one pointing at the front page or
    # another site is ignored
    assert canonical(url, "https://www.news.example/story") == "https://www.news.example/story"
    assert canonical(url, "http://news.example/").startswith("http://news.example/world/")
    assert canonical(url, "http://spam.example/x").startswith("http://news.example/world/")


def test_word_count_counts_cjk_as_half_words() -> None:
    assert word_count("three plain words") == 3
    assert word_count("海港市新建地铁") == 3.5
    assert word_count("") == 0


def test_the_library_and_the_feed_agree_on_which_declared_canonical_is_the_pages() -> None:
    from newscrawl.extraction.article import plausible_canonical

    url = "https://news.example/2024/05/07/harbour-wall"
    assert plausible_canonical("https://www.news.example/2024/harbour", url) == (
        "https://www.news.example/2024/harbour")
    assert plausible_canonical("https://news.example/", url) is None  # the front page
    assert plausible_canonical("https://staging.example/2024/harbour", url) is None
    assert plausible_canonical("ftp://news.example/2024/harbour", None) is None
    # a page without a web address keeps what it declares
    assert plausible_canonical("https://news.example/2024/harbour", "file:///tmp/a.html") == (
        "https://news.example/2024/harbour")
    assert canonical(url, "https://staging.example/2024/harbour") == url


def test_a_page_the_sites_footer_links_page_after_page_is_not_an_article() -> None:
    """Method 3 read for links: linked from the footer of a fifth of the site's earlier
    pages, at least two of them, a page is a fixed page before the classifier is asked."""
    from dataclasses import replace

    from newscrawl.extraction import Extractor
    from newscrawl.extraction.pagekind import PageModel
    from newscrawl.pipelines import article_decision

    pages = PageModel.load()
    body = ("<html><body><h1>Privacy and cookies</h1>"
            + "<p>We collect the personal data you give us when you register. " * 8
            + "</p></body></html>").encode()
    page = Extractor().extract(body, "https://example.org/privacy")
    fixed = article_decision(replace(page, footer_linked=(2, 10)), "unknown", None, pages)
    assert fixed == (False, "a fixed page of the site: its footer links it on 2 of 10 pages")
    for linked in ((1, 10), (1, 1), (0, 0)):
        _, why = article_decision(replace(page, footer_linked=linked), "unknown", None, pages)
        assert why.startswith("p(article)")
