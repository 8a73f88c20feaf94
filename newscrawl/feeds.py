"""How articles reach the output, and what the crawl may call exported.

* ``DefaultFeed`` (an add-on): ``FEEDS`` is the default output only when the command line named
  none. Scrapy merges ``-o``/``-O`` feeds into ``FEEDS`` (``feed_process_params_from_cli``), so
  a default kept in ``FEEDS`` would be written beside every named output; it lives in
  ``NEWSCRAWL_DEFAULT_FEEDS`` instead and is copied into an empty ``FEEDS``.
* The same add-on turns ``-O`` into ``-o`` when ``JOBDIR`` holds a job being resumed: the
  command that started the job, run again, appends the rest of the articles to what its first
  part wrote instead of overwriting them.
* ``FeedExporter`` (Scrapy's, replaced in ``EXTENSIONS``) sends ``item_exported`` for an item
  every feed that accepts it has written, and written through to the operating system (a
  process killed later does not take the line with it). Scrapy's ``item_scraped`` signal is
  sent even when a feed's exporter or storage raised on the item (signal handlers' errors are
  only logged), so it cannot tell the record of exported articles what really reached the
  output.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from scrapy.extensions.feedexport import FeedExporter as ScrapyFeedExporter
from scrapy.settings import BaseSettings

logger = logging.getLogger(__name__)

item_exported = object()
"""Signal (argument ``item``): every feed that accepts the item wrote it to its file."""


def resuming_job(settings: BaseSettings) -> bool:
    """``JOBDIR`` names a directory a previous run of the job left state in."""
    jobdir = settings.get("JOBDIR")
    return bool(jobdir) and Path(jobdir).is_dir() and any(Path(jobdir).iterdir())


class DefaultFeed:
    """Scrapy add-on: ``NEWSCRAWL_DEFAULT_FEEDS`` when no feed is named; append, never
    overwrite, the output of a resumed job."""

    def update_settings(self, settings: BaseSettings) -> None:
        feeds = settings.getdict("FEEDS")
        if not feeds and not settings.get("FEED_URI"):
            settings.set("FEEDS", settings.getdict("NEWSCRAWL_DEFAULT_FEEDS"), priority="addon")
            return
        overwritten = [uri for uri, options in feeds.items() if options.get("overwrite")]
        if overwritten and resuming_job(settings):
            for uri in overwritten:
                feeds[uri] = {**feeds[uri], "overwrite": False}
            settings.set("FEEDS", feeds, priority=settings.getpriority("FEEDS") or "addon")
            logger.warning("Resuming the job in %s: appending to %s instead of overwriting "
                           "what its first part exported", settings["JOBDIR"],
                           ", ".join(overwritten))


class FeedExporter(ScrapyFeedExporter):
    """Scrapy's feed exporter, which also says which items it wrote (``item_exported``)."""

    def item_scraped(self, item: Any, spider: Any) -> None:
        super().item_scraped(item, spider)  # raises when a feed could not write the item
        for slot in self.slots:
            if slot.file is not None and not slot.file.closed:
                slot.file.flush()
        self.crawler.signals.send_catch_log(item_exported, item=item)


def feeds_failed(stats: dict[str, Any]) -> list[str]:
    """The storages Scrapy counted a failed store for (``feedexport/failed_count/<storage>``):
    what their feeds held never reached the output."""
    prefix = "feedexport/failed_count/"
    return sorted(key.removeprefix(prefix) for key, n in stats.items()
                  if key.startswith(prefix) and n)
