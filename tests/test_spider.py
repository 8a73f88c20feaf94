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
from newscrawl.spiders.sites import load_sites, site_from_url

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
    # without patterns of its own a site says nothing: the page classifier weighs the URL
    assert other.url_kind("https://news.other.example/a-long-story-slug-here") == "unknown"
    assert other.url_kind("https://news.other.example/tag/x/") == "unknown"


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
    from scrapy.exceptions import (
        CannotResolveHostError,
        DownloadCancelledError,
        DownloadConnectionRefusedError,
        DownloadTimeoutError,
    )
    from twisted.internet.error import DNSLookupError

    request = Request("https://n.example/x")
    response = Response("https://n.example/x", status=503, request=request)
    assert failure_reason(_failure(HttpError(response))) == "http_503"
    assert failure_reason(_failure(DownloadTimeoutError("took too long"))) == "timeout"
    assert failure_reason(_failure(DownloadCancelledError("too big"))) == "too_large"
    assert failure_reason(_failure(DownloadConnectionRefusedError("no"))) == "connection_refused"
    assert failure_reason(_failure(CannotResolveHostError("n.example"))) == "dns"
    assert failure_reason(_failure(DNSLookupError("n.example"))) == "dns"
    # the type says nothing more; the message is not read
    assert failure_reason(_failure(IgnoreRequest("Forbidden by robots.txt"))) == "ignored"


def test_ignored_requests_are_told_apart_by_the_middlewares_counters() -> None:
    crawler = get_crawler(NewsSpider, {"REDIRECT_MAX_TIMES": 3})
    crawler.stats.open_spider()
    spider = NewsSpider.from_crawler(crawler, url="http://n.example/")

    def ignored(request: Request) -> str:
        failure = _failure(IgnoreRequest("whatever the message says"))
        failure.request = request
        spider.on_error(failure)
        return next(k for k in crawler.stats.get_stats() if k.startswith("newscrawl/")
                    and crawler.stats.get_value(k) and k not in seen)

    seen: set[str] = set()
    page = {"newscrawl_page": True}
    crawler.stats.inc_value("robotstxt/forbidden")  # as RobotsTxtMiddleware does
    seen.add(ignored(Request("http://n.example/private/a", meta=page)))
    crawler.stats.inc_value("offsite/filtered")
    seen.add(ignored(Request("http://elsewhere.example/a", meta=page)))
    seen.add(ignored(Request("http://n.example/loop", meta={**page, "redirect_times": 3})))
    seen.add(ignored(Request("http://n.example/other", meta=page)))
    assert seen == {"newscrawl/dropped/robots_txt", "newscrawl/dropped/offsite",
                    "newscrawl/dropped/redirect_loop", "newscrawl/dropped/ignored"}


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
    assert page.body == body and page.url_kind == "unknown" and page.found_via == "start"
    assert [r.url for r in requests] == ["http://n.example/world/2024/05/12/a-story-about-boats.html"]
    assert requests[0].meta["hops"] == 1 and requests[0].errback is not None
    # at max_depth, the page is still yielded but its links are not followed
    deep = HtmlResponse("http://n.example/", body=body, request=request.replace(
        meta={**request.meta, "hops": 1, "found_via": "link"}))
    assert len(list(spider.parse_page(deep))) == 1


def _since_spider(since: str | None) -> NewsSpider:
    crawler = get_crawler(NewsSpider, {"NEWSCRAWL_SINCE": since})
    spider = NewsSpider.from_crawler(crawler, url="http://n.example/")
    crawler.stats.open_spider()
    crawler.spider = spider
    return spider


def _xml(url: str, body: str) -> Response:
    from scrapy.http import XmlResponse
    return XmlResponse(url, body=body.encode(), request=Request(url, meta={"site": "n.example"}))


SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>http://n.example/world/2024/05/31/old-story.html</loc><lastmod>2024-05-31</lastmod></url>
<url><loc>http://n.example/world/2024/06/02/new-story.html</loc>
     <lastmod>2024-06-02T08:00:00+02:00</lastmod></url>
<url><loc>http://n.example/world/undated-story</loc></url>
<url><loc>http://n.example/world/2024/05/30/story-dated-by-its-url.html</loc></url>
<url><loc>http://n.example/world/2024/05/29/story-with-a-bad-lastmod.html</loc>
     <lastmod>yesterday</lastmod></url>
</urlset>"""
INDEX = """<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>http://n.example/sitemaps/2024-05.xml</loc><lastmod>2024-05-31</lastmod></sitemap>
<sitemap><loc>http://n.example/sitemaps/2024-06.xml</loc><lastmod>2024-06-30</lastmod></sitemap>
<sitemap><loc>http://n.example/sitemaps/pages.xml</loc></sitemap>
</sitemapindex>"""
FEEDS = {
    "rss": """<rss version="2.0"><channel>
<item><link>http://n.example/world/2024/05/31/old-story.html</link>
      <pubDate>Fri, 31 May 2024 22:00:00 +0000</pubDate></item>
<item><link>http://n.example/world/2024/06/02/new-story.html</link>
      <pubDate>Sun, 02 Jun 2024 06:00:00 +0000</pubDate></item>
<item><link>http://n.example/world/undated-story</link></item>
</channel></rss>""",
    "atom": """<feed xmlns="http://www.w3.org/2005/Atom">
<entry><link rel="alternate" href="http://n.example/world/2024/05/31/old-story.html"/>
       <updated>2024-05-31T22:00:00Z</updated></entry>
<entry><link href="http://n.example/world/2024/06/02/new-story.html"/>
       <published>2024-06-02T06:00:00Z</published></entry>
<entry><link href="http://n.example/world/undated-story"/></entry>
</feed>""",
}


@pytest.mark.parametrize("since", [None, "2024-06-01"])
def test_sitemap_entries_dated_before_since_are_not_requested(since: str | None) -> None:
    spider = _since_spider(since)
    urls = [r.url for r in spider.parse_sitemap(_xml("http://n.example/sitemap.xml", SITEMAP))]
    children = [r.url for r in spider.parse_sitemap(_xml("http://n.example/index.xml", INDEX))]
    skipped = spider.crawler.stats.get_value("newscrawl/skipped/before_since")
    if since is None:
        assert len(urls) == 5 and len(children) == 3 and skipped is None
    else:
        assert urls == ["http://n.example/world/2024/06/02/new-story.html",
                        "http://n.example/world/undated-story"]
        assert children == ["http://n.example/sitemaps/2024-06.xml",
                            "http://n.example/sitemaps/pages.xml"]
        assert skipped == 4


def test_links_whose_url_is_dated_before_since_are_not_followed() -> None:
    spider = _since_spider("2024-06-01")
    body = (b"<html><body><a href='/world/2024/05/31/old-story.html'>old</a>"
            b"<a href='/world/2024/06/02/new-story.html'>new</a>"
            b"<a href='/world/'>section</a></body></html>")
    request = Request("http://n.example/", meta={"site": "n.example", "found_via": "start",
                                                 "hops": 0})
    _, *requests = spider.parse_page(HtmlResponse("http://n.example/", body=body,
                                                  request=request))
    assert [r.url for r in requests] == ["http://n.example/world/2024/06/02/new-story.html",
                                         "http://n.example/world/"]


@pytest.mark.parametrize("kind", ["rss", "atom"])
def test_feed_entries_dated_before_since_are_not_requested(kind: str) -> None:
    spider = _since_spider("2024-06-01")
    urls = [r.url for r in spider.parse_feed(_xml(f"http://n.example/{kind}.xml", FEEDS[kind]))]
    assert urls == ["http://n.example/world/2024/06/02/new-story.html",
                    "http://n.example/world/undated-story"]
    assert spider.crawler.stats.get_value("newscrawl/discovered/feed") == 3


def test_a_since_that_is_no_date_stops_the_crawl_before_it_starts() -> None:
    with pytest.raises(ValueError, match="NEWSCRAWL_SINCE"):
        _since_spider("last week")


def test_a_site_without_robots_txt_has_its_sitemap_xml_tried() -> None:
    """A 404 (or any error status) for robots.txt is a site without one, not a dead site:
    its /sitemap.xml is tried, as for a robots.txt that names no sitemap."""
    crawler = get_crawler(NewsSpider)
    crawler.stats.open_spider()
    spider = crawler.spider = NewsSpider.from_crawler(crawler, url="http://n.example/")
    robots = Request("http://n.example/robots.txt", callback=spider.parse_robots,
                     meta={"site": "n.example"})

    def errback(exc: Exception) -> list[str]:
        failure = _failure(exc)
        failure.request = robots
        return [r.url for r in spider.on_error(failure)]

    missing = HttpError(Response(robots.url, status=404, request=robots))
    assert errback(missing) == ["http://n.example/sitemap.xml"]
    assert crawler.stats.get_value("newscrawl/discovery_failed/http_404") == 1
    from scrapy.exceptions import DownloadConnectionRefusedError
    assert errback(DownloadConnectionRefusedError("no")) == []  # the site is down
    listed = NewsSpider.from_crawler(get_crawler(NewsSpider), url="http://n.example/")
    listed.sites["n.example"].sitemaps.append("http://n.example/news.xml")
    listed.crawler.stats.open_spider()
    failure = _failure(missing)
    failure.request = robots.replace(callback=listed.parse_robots)
    assert listed.on_error(failure) == []  # the site names its sitemap


def test_deny_patterns_hold_for_sitemaps_and_feeds_too(tmp_path: Path) -> None:
    path = tmp_path / "sites.toml"
    path.write_text('[[site]]\nname = "gazette"\nstart_urls = ["https://www.gazette.example/"]\n'
                    "deny = ['/search', '/sitemaps/old', 'rss-archive']\n")
    crawler = get_crawler(NewsSpider)
    crawler.stats.open_spider()
    spider = crawler.spider = NewsSpider.from_crawler(crawler, sites=str(path),
                                                      site="gazette")
    robots = Response("https://www.gazette.example/robots.txt", request=Request(
        "https://www.gazette.example/robots.txt", meta={"site": "gazette"}),
        body=b"Sitemap: https://www.gazette.example/sitemaps/old-1.xml\n"
             b"Sitemap: https://www.gazette.example/sitemaps/new.xml\n")
    assert [r.url for r in spider.parse_robots(robots)] == [
        "https://www.gazette.example/sitemaps/new.xml"]
    index = INDEX.replace("http://n.example/sitemaps/2024-05.xml",
                          "https://www.gazette.example/sitemaps/old-2.xml")
    response = _xml("https://www.gazette.example/index.xml", index).replace(
        request=Request("https://www.gazette.example/index.xml", meta={"site": "gazette"}))
    assert "https://www.gazette.example/sitemaps/old-2.xml" not in [
        r.url for r in spider.parse_sitemap(response)]
    start = Request("https://www.gazette.example/", meta={
        "site": "gazette", "found_via": "start", "hops": 0})
    page = HtmlResponse(start.url, request=start, body=(
        b'<html><head><link rel="alternate" type="application/rss+xml" href="/rss.xml">'
        b'<link rel="alternate" type="application/rss+xml" href="/rss-archive.xml">'
        b"</head><body><p>Front page</p></body></html>"))
    feeds = [r.url for r in spider.parse_page(page) if isinstance(r, Request)
             and r.callback == spider.parse_feed]
    assert feeds == ["https://www.gazette.example/rss.xml"]


def test_site_domains_are_compared_as_scrapy_writes_hosts() -> None:
    """Scrapy requests an IDN in punycode and hosts in lower case; the config may spell
    either way."""
    idn = site_from_url("https://www.bücher.example/")
    assert idn.allowed_domains == ["xn--bcher-kva.example"]
    assert idn.allows_domain("https://www.xn--bcher-kva.example/2024/01/01/x.html")
    assert not idn.allows_domain("https://evilbücher.example/".encode("idna").decode())
    (cased,) = _sites(['allowed_domains = ["LocalHost"]', 'start_urls = ["http://localhost/"]'])
    assert cased.allows_domain("http://localhost/2024/01/01/x.html")


def _sites(lines: list[str]) -> list:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "sites.toml"
        path.write_text("[[site]]\n" + "\n".join(lines) + "\n")
        return load_sites(path)


@pytest.mark.parametrize("lines, message", [
    (['start_urls = ["https://a.example/"]', 'max_items = "5"'], "max_items"),
    (['start_urls = ["https://a.example/"]', 'follow_links = "false"'], "follow_links"),
    (['start_urls = ["https://a.example/"]', 'max_depth = -1'], "max_depth"),
    (['start_urls = ["https://a.example/"]', 'deny = [1]'], "deny"),
    (['name = "s"', 'start_urls = ["https://a.example/"]\n[[site]]\nname = "s"',
      'start_urls = ["https://b.example/"]'], "repeated: s"),
])
def test_a_site_value_of_the_wrong_kind_is_an_error_not_a_quiet_crawl(
        lines: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        _sites(lines)


@pytest.mark.parametrize("text", ["site: [\n", "- name: a\n  start_urls: [https://a.example/]\n",
                                  "site:\n  - just a string\n"])
def test_a_broken_yaml_sites_file_is_one_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "sites.yaml"
    path.write_text(text)
    with pytest.raises(ValueError) as info:
        load_sites(path)
    assert "\n" not in str(info.value)
