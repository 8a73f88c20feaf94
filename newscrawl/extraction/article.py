"""The result of extraction: what a corpus line is made of."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Article:
    """One page's main content and metadata.

    An unusable page still gives an ``Article``: empty ``text`` and a ``reason`` that says why
    (``"binary"``, ``"empty"``, ``"unparsable"`` ...), so callers count drops instead of catching
    exceptions. ``text`` holds paragraphs separated by a blank line; headings stand on their own.
    """

    url: str | None = None
    text: str = ""
    title: str | None = None
    authors: tuple[str, ...] = ()
    published: str | None = None
    modified: str | None = None
    language: str | None = None
    description: str | None = None
    site_name: str | None = None
    image: str | None = None
    tags: tuple[str, ...] = ()
    section: str | None = None
    canonical_url: str | None = None
    page_type: str | None = None
    """What the page says it is (JSON-LD @type or og:type, lower-cased), e.g. ``newsarticle``."""
    encoding: str | None = None
    reason: str | None = None
    """Why ``text`` is empty; None for a usable page."""
    nodes_total: int = 0
    nodes_kept: int = 0
    timings_ms: dict[str, float] = field(default_factory=dict)
    """Milliseconds per stage (decode, parse, metadata, clean, features, predict, assemble,
    language)."""

    @property
    def ok(self) -> bool:
        return self.reason is None and bool(self.text)

    @property
    def paragraphs(self) -> list[str]:
        return [p for p in self.text.split("\n\n") if p]
