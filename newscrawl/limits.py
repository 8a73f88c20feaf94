"""A site's ``max_items``, exact: the last pipeline counts each article it lets through."""

from __future__ import annotations

from typing import Any, Self

from scrapy.crawler import Crawler

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
