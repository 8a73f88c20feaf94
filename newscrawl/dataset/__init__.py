"""``newscrawl dataset``: crawl feeds into deduplicated Parquet splits with a dataset card.

The library part (records, minhash, build, card) imports neither Scrapy nor the crawler;
:mod:`newscrawl.dataset.cli` is the command.
"""

from newscrawl.dataset.build import Options, build
from newscrawl.dataset.card import card

__all__ = ["Options", "build", "card"]
