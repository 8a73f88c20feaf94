"""What other pages of the same site show: text a site repeats on page after page is its
template (method 3 of the design: a block on 20 % or more of a site's pages is boilerplate).

The model is not told to drop recurring text: a recurring node is content on WCXB 7.5 % of the
time (the site's standard shipping terms in a product's description, a docs page's shared
preamble). The share of the site's other pages that hold a node's text, and how many pages
that share was taken over, are two feature columns (``site_recurrence``, ``site_pages``) that
both stages read and learn how far to trust; a page with no other page of its site seen
keeps them NaN, as every page read alone does.

A node's key is its text up to case and whitespace (``NodeTable.text_keys``, from the
normalised text the features already make). Two ways to fill the column, so a crawl and
training see the same thing:
``SiteMemory`` for a crawl (the pages of each site seen before, a bounded window), and
``site_recurrence`` for a labelled set (every other page of the same domain).

The same method read for links tells a site's fixed pages (privacy, terms, imprint, contact,
about) from its stories: the site's footer links them by a short name from page after page
(``footer_links``, ``SiteMemory`` counts them), a story is linked from listings. Prose under a
short title, a privacy notice reads as a short story to every learnt measure the page itself
offers, and no labelled set holds one as a non-article (``models/pages-audit.md``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Iterable, Sequence
from urllib.parse import unquote, urljoin, urlsplit

import numpy as np
from lxml import etree

from .features import FEATURE_NAMES, NodeTable
from .text import word_count

_SHARE = FEATURE_NAMES.index("site_recurrence")
_PAGES = FEATURE_NAMES.index("site_pages")


def site_of(url: str | None) -> str | None:
    """The host a page's template belongs to (``www.`` folded), or None without one."""
    try:
        host = urlsplit(url or "").hostname
    except ValueError:
        return None
    return host.removeprefix("www.") if host else None


def page_key(url: str | None) -> str | None:
    """A URL as the same page however a link writes it: no scheme, fragment or ``www.``,
    the host lower-cased, the path decoded and without a trailing slash."""
    try:
        parts = urlsplit(url or "")
        host = parts.hostname
    except ValueError:
        return None
    return _key(host, parts.path, parts.query) if host else None


def _key(host: str, path: str, query: str) -> str:
    return f"{host.removeprefix('www.')}{unquote(path).rstrip('/')}{'?' + query if query else ''}"


FOOTER_NAME_WORDS = 4
"""At most this many words (``text.word_count``: a CJK character is half a word) in a footer
link's text for it to name a fixed page: a footer that lists the newest stories links them
by their headlines."""


def footer_links(links: Iterable[etree._Element], url: str | None) -> frozenset[str]:
    """``page_key`` of the other pages of its own site that a page's footer links (``links``:
    ``pagekind.markup_counts`` finds them) name by a short name."""
    own = page_key(url)
    host = site_of(url)
    if own is None or host is None:
        return frozenset()
    keys: set[str] = set()
    for link in links:
        if not 0 < word_count("".join(link.itertext())) <= FOOTER_NAME_WORDS:
            continue
        href = link.get("href", "").strip()
        if href.startswith("/") and not href.startswith("//"):  # most footers: no urljoin
            path, _, query = href.partition("#")[0].partition("?")
            key = _key(host, path, query)
        else:
            # An absolute http(s) link is its own target: urljoin would only split and
            # rejoin it (~20 us a link, two thirds of this function on WCXB dev).
            try:
                parts = urlsplit(href if href[:8].lower().startswith(("http://", "https://"))
                                 else urljoin(url, href))
                target_host = parts.hostname
            except ValueError:
                continue
            if not target_host or target_host.removeprefix("www.") != host:
                continue
            key = _key(target_host, parts.path, parts.query)
        if key != own:
            keys.add(key)
    return frozenset(keys)


def recurrence(keys: np.ndarray, others: Sequence[np.ndarray]) -> np.ndarray:
    """Per key, the share of ``others`` (each an array of unique keys of one page) holding it."""
    if not others:
        return np.full(len(keys), np.nan, dtype=np.float32)
    seen, counts = np.unique(np.concatenate(others), return_counts=True)
    at = np.minimum(np.searchsorted(seen, keys), len(seen) - 1)
    found = np.where(seen[at] == keys, counts[at], 0)
    return (found / len(others)).astype(np.float32)


def _fill(table: NodeTable, keys: np.ndarray, others: Sequence[np.ndarray]) -> None:
    if others:
        table.X[:, _SHARE] = recurrence(keys, others)
        table.X[:, _PAGES] = np.log1p(len(others))


def sample_size(table: NodeTable) -> int:
    """How many other pages of its site a page was read against (0: read alone)."""
    pages = table.X[:1, _PAGES]
    return int(round(float(np.expm1(pages[0])))) if len(pages) and np.isfinite(pages[0]) else 0


def site_recurrence(tables: Sequence[NodeTable], sites: Sequence[str | None]) -> None:
    """Fill each table's site columns from every other table of its site (a labelled set,
    where each page's site sample is the rest of the set)."""
    keys = [t.text_keys for t in tables]
    unique = [np.unique(k) for k in keys]
    members: dict[str | None, list[int]] = {}
    for i, site in enumerate(sites):
        members.setdefault(site, []).append(i)
    for i, (table, site) in enumerate(zip(tables, sites, strict=True)):
        _fill(table, keys[i], [unique[j] for j in members[site] if j != i] if site else [])


class SiteMemory:
    """Text keys of the last pages of each site a crawl extracted, for ``recurrence``.

    Bounded both ways: ``max_pages`` per site (the window the shares are taken over) and
    ``max_sites`` sites, the least recently seen forgotten first; a page costs its unique keys
    (8 bytes a node). A URL already in the window is not counted again, so a re-fetched page
    does not make its own article look like template. Thread-safe: one ``Extractor`` may
    serve concurrent callers.
    """

    def __init__(self, max_pages: int = 50, max_sites: int = 2000):
        if max_pages < 1 or max_sites < 1:
            raise ValueError("SiteMemory needs max_pages >= 1 and max_sites >= 1")
        self.max_pages = max_pages
        self.max_sites = max_sites
        self._sites: OrderedDict[str, deque[tuple[str, np.ndarray, frozenset[str]]]] = (
            OrderedDict())
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._sites)

    def pages(self, url: str | None) -> int:
        """Pages of ``url``'s site in the window."""
        site = site_of(url)
        with self._lock:
            return len(self._sites.get(site, ())) if site else 0

    def observe(self, table: NodeTable, url: str | None,
                footer: frozenset[str] = frozenset()) -> tuple[int, int]:
        """Fill ``table``'s site columns from the site's earlier pages, then remember this one
        and the pages its footer links (``footer_links``). Returns how many of those earlier
        pages link this one from their footers, and how many there are."""
        site = site_of(url)
        keys = table.text_keys
        own = page_key(url)
        with self._lock:
            window = self._sites.get(site) if site else None
            others = [(k, f) for u, k, f in window if u != url] if window else []
            _fill(table, keys, [k for k, _ in others])
            linked = sum(own in f for _, f in others) if own else 0
            if site is None:
                return linked, len(others)
            if window is None:
                window = self._sites[site] = deque(maxlen=self.max_pages)
                while len(self._sites) > self.max_sites:
                    self._sites.popitem(last=False)
            else:
                self._sites.move_to_end(site)
                if len(others) < len(window):  # seen before: this fetch replaces it
                    window = self._sites[site] = deque(
                        ((u, k, f) for u, k, f in window if u != url), maxlen=self.max_pages)
            window.append((url, np.unique(keys), footer))
            return linked, len(others)
