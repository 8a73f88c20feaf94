"""``scrapy crawl``, with the spider's ``-a`` arguments checked before the crawl starts.

Scrapy builds the spider inside the running crawl, so an argument the spider refuses (a
missing sites file, an unknown site name) ends in an asyncio traceback of some twenty-five
lines. A spider with a ``check_arguments(**spargs)`` classmethod is asked first; its
``ValueError`` becomes Scrapy's ``UsageError``: one line on stderr, exit status 2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.commands.crawl import Command as ScrapyCrawl
from scrapy.exceptions import UsageError

if TYPE_CHECKING:
    import argparse


class Command(ScrapyCrawl):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) == 1 and self.crawler_process is not None:
            try:
                spidercls = self.crawler_process.spider_loader.load(args[0])
            except KeyError:
                spidercls = None  # Scrapy's own run says so
            check = getattr(spidercls, "check_arguments", None)
            if check is not None:
                try:
                    check(**opts.spargs)
                except ValueError as exc:
                    raise UsageError(str(exc), print_help=False) from None
        super().run(args, opts)
