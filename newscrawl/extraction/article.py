"""The result of extraction: what a corpus line is made of."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlsplit


def plausible_canonical(declared: str | None, url: str | None) -> str | None:
    """``declared`` when it can be the page's canonical URL, else None: an http(s) URL of the
    page's own site (``www.`` aside) and not that site's front page. Templates declare their
    home page, or a staging host, on every page; taken as said, they would merge a site's
    stories into one. A page without a web address (``url`` None or a ``file:`` URI) has no
    site to check against."""
    if not declared:
        return None
    d = urlsplit(declared)
    if d.scheme not in ("http", "https") or not d.path.strip("/"):
        return None
    u = urlsplit(url or "")
    if u.scheme in ("http", "https") and (d.hostname or "").removeprefix("www.") != (
            u.hostname or "").removeprefix("www."):
        return None
    return declared


@dataclass(frozen=True, slots=True)
class PageSignals:
    """What the node model saw on a page, summed up for the page classifier: the page's
    shape as the kept nodes draw it (one block of prose, or a grid of short linked teasers)."""

    nodes: int = 0
    kept_nodes: int = 0
    kept_char_share: float = 0.0
    """Share of the page's characters in the kept nodes."""
    kept_containers: int = 0
    """Distinct block containers the kept nodes sit in: one or two for an article's body,
    one per card for a grid of teasers."""
    kept_heading_share: float = 0.0
    kept_link_density: float = 0.0
    """Share of the kept characters inside links, weighted by node length."""
    page_link_density: float = 0.0
    best_block_share: float = 0.0
    kept_proba: float = 0.0
    """Mean probability of the kept nodes, weighted by length."""
    page_doubt: float = 0.0
    """Expected share of characters on the wrong side of 0.5 (``model.page_doubt``)."""
    headline_kept: bool = False
    headline_on_page: bool = False
    kept_list_share: float = 0.0
    """Shares of the kept characters in list items, table cells and ``<pre>`` blocks: the
    shapes of product specifications, documentation and code."""
    kept_table_share: float = 0.0
    kept_pre_share: float = 0.0
    kept_comment_share: float = 0.0
    """Shares of the kept characters under an element whose class or id names comments
    (``anc_comment``: forum posts, replies), reviews, or an article / post / story."""
    kept_review_share: float = 0.0
    kept_article_share: float = 0.0
    markup: tuple[float, ...] = ()
    """What the markup holds, in ``pagekind.MARKUP_FEATURES`` order: forms, code, navigation,
    declared posts and products, repeated blocks ... (empty: unknown)."""
    page_text: str = ""
    """All of the page's text nodes, kept or not, one a line: the words of a forum ("reply",
    "joined"), a shop ("cart") or a manual set it apart in any layout (``pagekind.PageWords``
    reads them when the page is decided, so extraction alone does not pay for it)."""


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
    """The URL the page declares as its own (``<link rel=canonical>``, og:url) when plausible
    (``plausible_canonical``), else None."""
    page_type: str | None = None
    """What the page says it is (JSON-LD @type or og:type, lower-cased), e.g. ``newsarticle``."""
    encoding: str | None = None
    reason: str | None = None
    """Why ``text`` is empty; None for a usable page."""
    nodes_total: int = 0
    nodes_kept: int = 0
    signals: PageSignals = field(default_factory=PageSignals)
    """What the node model saw, for the page classifier (``pagekind``)."""
    timings_ms: dict[str, float] = field(default_factory=dict)
    """CPU milliseconds of the extracting thread per stage (decode, parse, metadata, markup,
    clean, features, site, predict, assemble, language)."""
    footer_linked: tuple[int, int] = (0, 0)
    """(k, n): k of the n earlier pages of its site in the extractor's ``SiteMemory`` link
    this page from their footers by a short name (``site.footer_links``); (0, 0) read alone."""

    @property
    def ok(self) -> bool:
        return self.reason is None and bool(self.text)

    @property
    def paragraphs(self) -> list[str]:
        return [p for p in self.text.split("\n\n") if p]
