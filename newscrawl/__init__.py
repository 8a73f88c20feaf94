"""newscrawl: turn news sites into clean text corpora (a Scrapy project over a library)."""

from .extraction import Article, Extractor, extract

__all__ = ["Article", "Extractor", "extract"]
__version__ = "0.1.0"
