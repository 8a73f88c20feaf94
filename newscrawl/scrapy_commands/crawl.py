"""``scrapy crawl``, with the spider's ``-a`` arguments and newscrawl's settings checked
before the crawl starts.

Scrapy builds the spider and its components inside the running crawl, so an argument the
spider refuses (a missing sites file, an unknown site name) or a setting a component cannot
read (``-s NEWSCRAWL_SINCE=2025-13-01``) ends in an asyncio traceback of some twenty-five
lines. A spider with a ``check_arguments(**spargs)`` classmethod is asked first, and
``check_settings`` reads the project's settings as its components will; a ``ValueError``
becomes Scrapy's ``UsageError``: one line on stderr, exit status 2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scrapy.commands.crawl import Command as ScrapyCrawl
from scrapy.exceptions import UsageError

if TYPE_CHECKING:
    import argparse

    from scrapy.settings import BaseSettings

_READ_AS = {
    "getint": ("NEWSCRAWL_MIN_WORDS", "NEWSCRAWL_SITE_PAGES", "NEWSCRAWL_EXTRACTION_THREADS",
               "NEWSCRAWL_FRONTIER_LEASE", "NEWSCRAWL_FRONTIER_ATTEMPTS"),
    "getbool": ("NEWSCRAWL_EXTRACTION_ENABLED", "NEWSCRAWL_DEDUP_ENABLED"),
}
"""How the components read newscrawl's settings (``settings.py``), and so must be able to."""


def check_settings(settings: BaseSettings) -> None:
    """Raise ``ValueError`` naming the first newscrawl setting its component cannot read."""
    from newscrawl.frontier import lease_seconds
    from newscrawl.pipelines import since_day

    for method, names in _READ_AS.items():
        for name in names:
            try:
                getattr(settings, method)(name)
            except ValueError:
                kind = "a whole number" if method == "getint" else "1/0, true/false"
                raise ValueError(f"-s {name}={settings.get(name)!r}: give {kind}") from None
    since_day(settings)
    if settings.get("REDIS_URL"):
        lease_seconds(settings)


class Command(ScrapyCrawl):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if len(args) == 1 and self.crawler_process is not None:
            try:
                spidercls = self.crawler_process.spider_loader.load(args[0])
            except KeyError:
                spidercls = None  # Scrapy's own run says so
            check = getattr(spidercls, "check_arguments", None)
            try:
                if check is not None:
                    check(**opts.spargs)
                check_settings(self.settings)
            except ValueError as exc:
                raise UsageError(str(exc), print_help=False) from None
        super().run(args, opts)
