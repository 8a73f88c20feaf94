"""A site's ``max_items``, exact: the last pipeline counts each article it lets through, and
the page requests still queued for a full site are dropped before they are downloaded."""

from __future__ import annotations

from typing import Any, Self

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest

from newscrawl.items import Article
from newscrawl.pipelines import NewscrawlDrop


class SiteFull(NewscrawlDrop):
    reason = "site_full"


class MaxItemsPipeline:
    """Drops an article of a site that already has its ``max_items`` (``site_full``).

    The spider stops requesting a site's pages once it is full, but the pages already on their
    way still arrive; counted after extraction and deduplication, in the order items reach
    the feeds, an article either takes one of the site's places or is dropped, so a site with
    ``max_items = 10`` exports ten. The count lives on the spider (``take_article``), which
    uses it to stop requesting; a spider without it is not limited.
    """

    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        if not isinstance(item, Article):
            return item
        take = getattr(self.crawler.spider, "take_article", None)
        if take is None or take(item.site):
            return item
        self.stats.inc_value(f"newscrawl/dropped/{SiteFull.reason}")
        raise SiteFull(f"{item.url}: site {item.site} has its max_items articles")


class SiteFullMiddleware:
    """Downloader middleware: a page request of a site that has its ``max_items`` is not
    downloaded. The spider stops discovering a full site's pages, but those it queued before
    are still in the scheduler; each is refused here (``IgnoreRequest``) and the spider's
    errback counts it as ``newscrawl/dropped/site_full``."""

    def __init__(self, crawler: Crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        site_full = getattr(self.crawler.spider, "site_full", None)
        if (request.meta.get("newscrawl_page") and site_full is not None
                and site_full(request.meta.get("site"))):
            raise IgnoreRequest(f"site {request.meta.get('site')} has its max_items articles")


class DenyMiddleware:
    """Downloader middleware: a site's ``deny`` patterns hold for every request of the site,
    a redirect's target too (``/story`` answering 302 to ``/login?next=/story`` was fetched
    with ``deny = ['/login']``: the spider checks only the URLs it schedules itself). The
    spider's errback counts the refusal as ``denied``."""

    def __init__(self, crawler: Crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        sites = getattr(self.crawler.spider, "sites", None) or {}
        site = sites.get(request.meta.get("site"))
        if site is not None and site.denies(request.url):
            raise IgnoreRequest(f"{request.url}: denied by site {site.name}'s deny patterns")
