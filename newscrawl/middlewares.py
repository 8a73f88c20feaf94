"""Spider middleware: a crawl does not download again an article its corpus already holds."""

from __future__ import annotations

from typing import Self

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from newscrawl.pipelines import ExportedArticles


class SkipExportedMiddleware(BaseSpiderMiddleware):
    """Drops requests for pages exported as articles: by an earlier run (counted under
    ``newscrawl/skipped/exported_before``) or already by this one (another URL of the page,
    such as a ``?utm_source=`` copy of a link: ``newscrawl/skipped/exported_this_run``).

    A crawl run on a schedule finds most of a site's articles again in its sitemaps, feeds and
    section pages; with ``NEWSCRAWL_EXPORTED_FILE`` it fetches only the new ones, while front
    pages, sections, sitemaps and feeds, which are never exported, are read afresh each run.
    Scrapy's ``JOBDIR`` cannot do that: its duplicate filter remembers every request, hubs
    included, so a second run of a finished job requests nothing at all. Off with
    ``NEWSCRAWL_DEDUP_ENABLED``, which also decides whether repeats are exported.
    """

    def __init__(self, crawler: Crawler, exported: ExportedArticles):
        super().__init__(crawler)
        self.exported = exported
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if not crawler.settings.getbool("NEWSCRAWL_DEDUP_ENABLED", True):
            raise NotConfigured("NEWSCRAWL_DEDUP_ENABLED is off")
        return cls(crawler, ExportedArticles.of(crawler))

    def get_processed_request(self, request: Request, response: Response | None
                              ) -> Request | None:
        if not request.meta.get("newscrawl_page"):
            return request
        if self.exported.exported_before(request.url):
            self.stats.inc_value("newscrawl/skipped/exported_before")
            return None
        if self.exported.exported_now(request.url):
            self.stats.inc_value("newscrawl/skipped/exported_this_run")
            return None
        return request
