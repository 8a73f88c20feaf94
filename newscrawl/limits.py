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


class SiteRequestsMiddleware:
    """Downloader middleware: the requests of a site that must not be downloaded, refused
    (``IgnoreRequest``) for the spider's errback to count.

    - URLs its ``deny`` patterns name, a redirect's target too (``/story`` answering 302 to
      ``/login?next=/story`` was fetched with ``deny = ['/login']``: the spider checks only
      the URLs it schedules itself): ``denied``.
    - Once the site has its ``max_items``, its page requests: the spider stops discovering a
      full site's pages, but those it queued before are still in the scheduler: ``site_full``.
    """

    def __init__(self, crawler: Crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    def process_request(self, request: Request) -> None:
        spider = self.crawler.spider
        name = request.meta.get("site")
        site = (getattr(spider, "sites", None) or {}).get(name)
        if site is not None and site.denies(request.url):
            raise IgnoreRequest(f"{request.url}: denied by site {site.name}'s deny patterns")
        site_full = getattr(spider, "site_full", None)
        if request.meta.get("newscrawl_page") and site_full is not None and site_full(name):
            raise IgnoreRequest(f"site {name} has its max_items articles")
