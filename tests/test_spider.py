"""The news spider's configuration and failure accounting, without a crawl."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, Request, Response
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.test import get_crawler
from twisted.python.failure import Failure

from newscrawl.spiders.news import NewsSpider, failure_reason
from newscrawl.spiders.sites import load_sites, site_from_url, url_shape

SITES = """
[[site]]
name = "gazette"
start_urls = ["https://www.gazette.example/"]
feeds = "https://www.gazette.example/rss.xml"
article_allow = ['/\\d{4}/\\d{2}/\\d{2}/']
article_deny = ['/live/']
deny = ['/search', '\\?share=']
max_items = 50
max_depth = 2

[[site]]
name = "other"
sitemaps = ["https://news.other.example/sitemap.xml"]
"""


@pytest.mark.parametrize(("url", "shape"), [
    ("https://n.example/", "listing"),
    ("https://n.example/world/", "listing"),
    ("https://n.example/tag/climate/", "listing"),
    ("https://n.example/world/page/3/", "listing"),
    ("https://n.example/world/?page=2", "listing"),
    ("https://n.example/calendar/2024/05/", "listing"),
    ("https://n.example/about-us", "listing"),
    ("https://n.example/world/2024/05/12/floods-hit-the-north.html", "article"),
    ("https://n.example/news/world-europe-68912345", "article"),
    ("https://n.example/business/shipping-costs-climb-as-port-struggles", "article"),
    ("https://n.example/zh/2024/06/01/a100041.html", "article"),
    ("https://n.example/p/xyz", "unknown"),
])
def test_url_shape(url: str, shape: str) -> None:
    assert url_shape(url) == shape


def test_sites_file(tmp_path: Path) -> None:
    path = tmp_path / "sites.toml"
    path.write_text(SITES)
    gazette, other = load_sites(path)
    assert gazette.allowed_domains == ["gazette.example"]
    assert gazette.feeds == ["https://www.gazette.example/rss.xml"]
    assert other.allowed_domains == ["news.other.example"]
    assert gazette.may_request("https://sub.gazette.example/2024/01/01/x.html")
    assert not gazette.may_request("https://gazette.example/search?q=x")
    assert not gazette.may_request("https://evil.example/2024/01/01/x.html")
    assert gazette.url_kind("https://gazette.example/2024/01/01/x") == "article"
    assert gazette.url_kind("https://gazette.example/live/2024/01/01/x") == "listing"
    assert gazette.url_kind("https://gazette.example/a-long-story-slug-here") == "listing"
    assert other.url_kind("https://news.other.example/a-long-story-slug-here") == "article"


def test_sites_file_rejects_unknown_keys_and_bad_patterns(tmp_path: Path) -> None:
    path = tmp_path / "sites.toml"
    path.write_text('[[site]]\nstart_urls = ["https://a.example/"]\nmax_item = 5\n')
    with pytest.raises(ValueError, match="max_item"):
        load_sites(path)
    path.write_text('[[site]]\nstart_urls = ["https://a.example/"]\ndeny = ["(unclosed"]\n')
    with pytest.raises(ValueError, match="bad pattern"):
        load_sites(path)
    path.write_text('[[site]]\nname = "empty"\n')
    with pytest.raises(ValueError, match="start_urls"):
        load_sites(path)


def test_spider_arguments(tmp_path: Path) -> None:
    path = tmp_path / "sites.toml"
    path.write_text(SITES)
    crawler = get_crawler(NewsSpider)
    spider = NewsSpider.from_crawler(crawler, sites=str(path), site="gazette", max_items="7")
    assert list(spider.sites) == ["gazette"]
    assert spider.sites["gazette"].max_items == 7
    assert spider.allowed_domains == ["gazette.example"]
    with pytest.raises(ValueError):
        NewsSpider.from_crawler(get_crawler(NewsSpider))
    with pytest.raises(ValueError):
        site_from_url("ftp://files.example/")


def _failure(exc: Exception) -> Failure:
    try:
        raise exc
    except Exception:
        return Failure()


def test_failure_reasons() -> None:
    request = Request("https://n.example/x")
    response = Response("https://n.example/x", status=503, request=request)
    assert failure_reason(_failure(HttpError(response))) == "http_503"
    assert failure_reason(_failure(IgnoreRequest("Forbidden by robots.txt"))) == "robots_txt"
    assert failure_reason(_failure(IgnoreRequest("max redirections reached"))) == "redirect_loop"
    from scrapy.exceptions import DownloadCancelledError, DownloadTimeoutError
    assert failure_reason(_failure(DownloadTimeoutError("took too long"))) == "timeout"
    assert failure_reason(_failure(DownloadCancelledError("too big"))) == "too_large"


def test_page_callback_yields_raw_page_and_follows_links() -> None:
    crawler = get_crawler(NewsSpider)
    spider = NewsSpider.from_crawler(crawler, url="http://n.example/", max_depth="1")
    crawler.stats.open_spider()
    crawler.spider = spider
    body = (b"<html><body><a href='/world/2024/05/12/a-story-about-boats.html'>x</a>"
            b"<a href='http://elsewhere.example/2024/01/01/y.html'>y</a>"
            b"<a href='/photo.jpg'>z</a></body></html>")
    request = Request("http://n.example/", meta={"site": "n.example", "found_via": "start",
                                                 "hops": 0})
    response = HtmlResponse("http://n.example/", body=body, request=request)
    out = list(spider.parse_page(response))
    page, *requests = out
    assert page.body == body and page.url_kind == "listing" and page.found_via == "start"
    assert [r.url for r in requests] == ["http://n.example/world/2024/05/12/a-story-about-boats.html"]
    assert requests[0].meta["hops"] == 1 and requests[0].errback is not None
    # at max_depth, the page is still yielded but its links are not followed
    deep = HtmlResponse("http://n.example/", body=body, request=request.replace(
        meta={**request.meta, "hops": 1, "found_via": "link"}))
    assert len(list(spider.parse_page(deep))) == 1
