"""Extensions of the newscrawl project."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Self

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured


class StatsFile:
    """Writes the final crawl stats as JSON to ``NEWSCRAWL_STATS_FILE``, so a script that ran
    ``scrapy crawl`` (the demo, the benchmark, the tests) reads figures instead of logs."""

    def __init__(self, crawler: Crawler, path: Path):
        self.crawler = crawler
        self.path = path
        self.reason: str | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        path = crawler.settings.get("NEWSCRAWL_STATS_FILE")
        if not path:
            raise NotConfigured  # no message: Scrapy would warn of it on every crawl
        ext = cls(crawler, Path(path))
        crawler.signals.connect(ext.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(ext.engine_stopped, signal=signals.engine_stopped)
        return ext

    def spider_closed(self, spider: object, reason: str) -> None:
        self.reason = reason

    def engine_stopped(self) -> None:
        """Written once the engine has stopped, not on ``spider_closed``: the feeds are still
        being stored then (``FeedExporter`` closes them in a handler of that signal), and what
        their storage sets (``feedexport/*``, ``newscrawl/exported_file_error``) comes later."""
        stats = dict(self.crawler.stats.get_stats())
        stats["finish_reason"] = self.reason or stats.get("finish_reason")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(stats, default=str, indent=1, sort_keys=True), "utf-8")
