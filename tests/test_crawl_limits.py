"""A site's ``max_items`` is exact: a real crawl of the sample site with ``-a max_items=10``
exports ten articles, the pages already on their way dropped as ``site_full``."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from crawlutil import TEST_SETTINGS, Site, read_jsonl
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from newscrawl.demo import crawl_command, crawl_env
from newscrawl.items import Article
from newscrawl.limits import MaxItemsPipeline, SiteFull, SiteRequestsMiddleware
from newscrawl.spiders.news import NewsSpider
from newscrawl.spiders.sites import site_from_url


def _article(url: str, site: str) -> Article:
    return Article(url=url, canonical_url=url, title="t", text="x", language="en",
                   crawled_at="2024-06-01T00:00:00+00:00", content_hash=url,
                   model_version="nodes-v1", site=site)


def test_each_article_takes_a_place_until_the_site_is_full() -> None:
    crawler = get_crawler(NewsSpider)
    crawler.stats.open_spider()
    crawler.spider = NewsSpider.from_crawler(crawler, url="http://n.example/", max_items="2")
    pipe = build_from_crawler(MaxItemsPipeline, crawler)
    for n in (1, 2):
        item = _article(f"http://n.example/{n}", "n.example")
        assert pipe.process_item(item) is item
    try:
        pipe.process_item(_article("http://n.example/3", "n.example"))
    except SiteFull:
        pass
    else:
        raise AssertionError("a third article passed max_items = 2")
    other = _article("http://other.example/1", "other.example")  # no such site: no limit
    assert pipe.process_item(other) is other
    assert crawler.stats.get_value("newscrawl/dropped/site_full") == 1


def test_a_full_sites_queued_pages_are_not_downloaded() -> None:
    from scrapy import Request
    from scrapy.exceptions import IgnoreRequest
    from twisted.python.failure import Failure

    crawler = get_crawler(NewsSpider)
    crawler.stats.open_spider()
    spider = crawler.spider = NewsSpider.from_crawler(crawler, url="http://n.example/",
                                                      max_items="1")
    mw = build_from_crawler(SiteRequestsMiddleware, crawler)
    page = Request("http://n.example/2024/05/a-queued-story",
                   meta={"newscrawl_page": True, "site": "n.example"})
    assert mw.process_request(page) is None  # not full yet
    assert spider.take_article("n.example")
    sitemap = Request("http://n.example/sitemap.xml", meta={"site": "n.example"})
    assert mw.process_request(sitemap) is None  # only pages are refused
    try:
        mw.process_request(page)
    except IgnoreRequest:
        failure = Failure()
    else:
        raise AssertionError("a full site's page was let through")
    failure.request = page
    spider.on_error(failure)
    assert crawler.stats.get_value("newscrawl/dropped/site_full") == 1


def test_a_page_that_arrives_for_a_full_site_is_counted_not_lost() -> None:
    """Pages already downloading when the site's last place is taken reach the spider too."""
    from scrapy.http import HtmlResponse, Request

    crawler = get_crawler(NewsSpider)
    crawler.stats.open_spider()
    spider = crawler.spider = NewsSpider.from_crawler(crawler, url="http://n.example/",
                                                      max_items="1")
    spider.sites["other.example"] = site_from_url("http://other.example/")  # not full
    assert spider.take_article("n.example")
    request = Request("http://n.example/2024/05/late-story", meta={"site": "n.example"})
    late = HtmlResponse(request.url, body=b"<html><body><p>Story</p></body></html>",
                        request=request)
    assert list(spider.parse_page(late)) == []
    assert crawler.stats.get_value("newscrawl/dropped/site_full") == 1
    assert crawler.stats.get_value("newscrawl/pages") is None


def test_an_article_dropped_for_its_full_site_leaves_its_copy_elsewhere_to_export() -> None:
    from newscrawl.pipelines import DuplicatesPipeline, DuplicateText

    crawler = get_crawler(NewsSpider)
    crawler.stats.open_spider()
    spider = crawler.spider = NewsSpider.from_crawler(crawler, url="http://a.example/",
                                                      max_items="1")
    spider.sites["b.example"] = site_from_url("http://b.example/")
    dedup = build_from_crawler(DuplicatesPipeline, crawler)
    limit = build_from_crawler(MaxItemsPipeline, crawler)

    def export(url: str, site: str, text: str) -> bool:
        item = _article(url, site)
        item.content_hash = text
        try:
            limit.process_item(dedup.process_item(item))
        except (SiteFull, DuplicateText):
            return False
        return True

    assert export("http://a.example/1", "a.example", "own story")
    assert not export("http://a.example/2", "a.example", "agency story")  # a is full
    assert export("http://b.example/9", "b.example", "agency story")  # exported once
    assert not export("http://b.example/10", "b.example", "agency story")  # and only once
    assert crawler.stats.get_value("newscrawl/dropped/site_full") == 1


def test_max_items_exports_exactly_that_many(sample_site: Site, tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    cmd = crawl_command(sample_site.base, out, tmp_path / "stats.json", tmp_path / "crawl.log",
                        TEST_SETTINGS)
    cmd[cmd.index("-O"):cmd.index("-O")] = ["-a", "max_items=10"]
    proc = subprocess.run(cmd, env=crawl_env(), cwd=tmp_path, timeout=300, check=False)
    assert proc.returncode == 0
    stats = json.loads((tmp_path / "stats.json").read_text("utf-8"))
    assert len(read_jsonl(out)) == 10
    assert stats["item_scraped_count"] == 10
    # the stats file is written after the feeds are stored, so it holds their outcome
    assert stats["feedexport/success_count/FileFeedStorage"] == 1


def test_a_redirect_to_a_denied_url_is_not_downloaded_and_counted_as_denied(
        tmp_path: Path) -> None:
    from scrapy import Request
    from scrapy.exceptions import IgnoreRequest
    from twisted.python.failure import Failure

    sites = tmp_path / "sites.toml"
    sites.write_text('[[site]]\nname = "n"\nstart_urls = ["http://n.example/"]\n'
                     "deny = ['/login']\n")
    crawler = get_crawler(NewsSpider)
    crawler.stats.open_spider()
    spider = crawler.spider = NewsSpider.from_crawler(crawler, sites=str(sites))
    mw = build_from_crawler(SiteRequestsMiddleware, crawler)
    story = Request("http://n.example/story", meta={"newscrawl_page": True, "site": "n"})
    assert mw.process_request(story) is None
    redirected = story.replace(url="http://n.example/login?next=/story")  # as RedirectMiddleware
    try:
        mw.process_request(redirected)
    except IgnoreRequest:
        failure = Failure()
    else:
        raise AssertionError("a redirect to a denied URL was let through")
    failure.request = redirected
    spider.on_error(failure)
    assert crawler.stats.get_value("newscrawl/dropped/denied") == 1
