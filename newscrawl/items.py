"""What flows through the crawl: a raw ``Page`` from the spider, an ``Article`` to the feed.

Both are dataclasses handled through itemadapter. Spiders only ever yield ``Page``; the
extraction pipeline turns it into an ``Article`` or drops it, so raw pages reach a feed only
when extraction is switched off (``NEWSCRAWL_EXTRACTION_ENABLED``), to build training data.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def _body_as_text(body: bytes | str) -> str:
    """A raw page's body in a JSON feed: its text, decoded as the extractor decodes it (BOM,
    ``<meta>`` charset, detection), so a GBK or Shift_JIS page keeps its characters; a binary
    or empty body is exported empty (its ``content_type`` says what it was)."""
    # Imported here: the spider imports this module, and needs no extraction library.
    from .extraction.decode import NotText, decode_page

    if isinstance(body, str):
        return body
    try:
        return decode_page(body)[1]
    except NotText:
        return ""


@dataclass(slots=True)
class Page:
    """A downloaded page, as the spider received it."""

    url: str
    status: int
    body: bytes = field(repr=False, metadata={"serializer": _body_as_text})
    """Left out of repr: Scrapy logs a dropped item's repr, and bodies run to megabytes."""
    content_type: str | None = None
    site: str | None = None
    """Name of the site config that requested the page."""
    url_kind: str = "unknown"
    """What the site's own patterns say (``article_allow``/``article_deny``): ``article``,
    ``listing`` (never exported) or ``unknown``."""
    found_via: str = "link"
    """``start``, ``sitemap``, ``news_sitemap``, ``feed`` or ``link``."""
    crawled_at: str = ""
    """UTC, ISO 8601, when the response arrived."""


@dataclass(slots=True)
class Article:
    """One line of the output corpus; the fields are documented in article.schema.json."""

    url: str
    canonical_url: str
    title: str | None
    text: str
    language: str | None
    crawled_at: str
    content_hash: str
    """sha1 of the normalised text (NFKC, lower-cased, whitespace collapsed)."""
    model_version: str
    words: int = 0
    site: str | None = None
    authors: list[str] = field(default_factory=list)
    published: str | None = None
    modified: str | None = None
    description: str | None = None
    site_name: str | None = None
    section: str | None = None
    tags: list[str] = field(default_factory=list)
    image: str | None = None
    page_type: str | None = None
    encoding: str | None = None
