"""newscrawl's extraction library: bytes and a URL in, an :class:`Article` out.

Nothing here imports Scrapy; spiders, pipelines, the CLI and training are layers over it.
"""

from __future__ import annotations

from .article import Article
from .extractor import Extractor, ExtractorOptions
from .site import SiteMemory

__all__ = ["Article", "Extractor", "ExtractorOptions", "SiteMemory", "extract"]

_default: Extractor | None = None


def extract(
    html: bytes | str, url: str | None = None, *, content_type: str | None = None
) -> Article:
    """Extract with the shipped model (loaded once, on first use)."""
    global _default
    if _default is None:
        _default = Extractor()
    return _default.extract(html, url, content_type=content_type)
