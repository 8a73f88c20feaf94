"""The one code path from bytes to an Article, shared by spiders, CLI, training and bench."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from .article import Article, PageSignals, plausible_canonical
from .assemble import assemble, keep_nodes
from .clean import clean, streams_segments
from .decode import NotText, decode_page
from .features import NodeTable, TooManyNodes, node_features
from .language import detect_language, load_model
from .metadata import Metadata, extract_metadata
from .model import NodeModel
from .pagekind import markup_counts, page_signals
from .parse import parse
from .payload import place_payload
from .shipped import shipped_file
from .site import SiteMemory, footer_links

DEFAULT_MODEL = shipped_file("nodes-v1.ubj")
MAX_BYTES = 20_000_000
MAX_NODES = 50_000
_cpu_clock = time.thread_time
"""What stage timings read: the calling thread's CPU time. A crawl extracts in a pool of
threads beside the reactor's, and a wall clock there counts the waits for the GIL as the
page's own time: a crawl of fundus-dev's mirror reported 48.3 ms a page with two extraction
threads against 11.7 in the reactor thread, for the same pages and the same crawl time
(14.5 against 11.6 of CPU; the rest of that gap is two threads sharing the caches)."""


@dataclass(frozen=True, slots=True)
class ExtractorOptions:
    """Tunables of extraction; the library's default settings."""

    max_bytes: int = MAX_BYTES
    """Bodies larger than this are refused (``reason="too_large"``) rather than parsed."""
    max_nodes: int = MAX_NODES
    """Pages with more text nodes than this are refused (``reason="too_many_nodes"``) before
    their features are computed. The largest of the 1,647 pages in the project's data sets
    has 2,640; a 10 MB page of 900,000 one-word paragraphs took 9.4 s and 1.9 GB of memory."""


@dataclass(slots=True)
class PageNodes:
    """A page up to the classifier: what training, evaluation and extraction share."""

    url: str | None
    encoding: str | None = None
    meta: Metadata = field(default_factory=Metadata)
    table: NodeTable | None = None
    markup: dict[str, float] = field(default_factory=dict)
    """``pagekind.markup_counts`` of the raw tree, for the page classifier."""
    footer_links: frozenset[str] = frozenset()
    """``site.footer_links`` of the raw tree: the site's pages its footer names."""
    reason: str | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)


def page_nodes(body: bytes | str, url: str | None = None, *, content_type: str | None = None,
               max_bytes: int = MAX_BYTES, max_nodes: int = MAX_NODES,
               respell: Callable[[etree._Element, Metadata], Metadata] | None = None
               ) -> PageNodes:
    """Decode, parse, read metadata, clean and compute node features; never raises on bad input.

    ``respell`` is training's way in (``training.respell``): it rewrites the parsed tree's
    text, and returns the metadata to match, before cleaning.
    """
    page = PageNodes(url=url)
    if len(body) > max_bytes:
        page.reason = "too_large"
        return page
    t0 = _cpu_clock()
    try:
        page.encoding, text, utf8 = decode_page(body, content_type, url)
    except NotText as exc:
        page.reason = str(exc)
        return page
    t1 = _cpu_clock()
    root = parse(text, utf8)
    raw = text if utf8 is None else utf8  # bytes scan faster than a non-ASCII str
    place_payload(root, text, raw)
    t2 = _cpu_clock()
    page.meta = extract_metadata(root, url)
    if respell is not None:
        page.meta = respell(root, page.meta)
    t3 = _cpu_clock()
    page.markup, footer = markup_counts(root, url)
    page.footer_links = footer_links(footer, url)
    t4 = _cpu_clock()
    links = clean(root, streams_segments(raw))
    t5 = _cpu_clock()
    page.timings_ms = {"decode": (t1 - t0) * 1e3, "parse": (t2 - t1) * 1e3,
                       "metadata": (t3 - t2) * 1e3, "markup": (t4 - t3) * 1e3,
                       "clean": (t5 - t4) * 1e3}
    try:
        page.table = node_features(root, links, page.meta, max_nodes, url)
    except TooManyNodes:
        page.reason = "too_many_nodes"
        return page
    page.timings_ms["features"] = (_cpu_clock() - t5) * 1e3
    if not len(page.table):
        page.reason = "no_text"
    return page


class Extractor:
    """Holds a loaded model and options; each call builds its own parser, tree and arrays,
    so one instance can serve concurrent callers.

    A missing model file or one trained on other features raises here, at construction:
    a crawl that silently exports nothing is worse than one that refuses to start.

    With ``sites``, each page is read against the earlier pages of its site that this
    extractor saw (their shared text is the site's template), so the result depends on what
    came before: a crawl wants that, a one-off call (``extract``) does not.
    """

    def __init__(self, model: str | Path | NodeModel | None = None,
                 options: ExtractorOptions | None = None, sites: SiteMemory | None = None):
        self.options = options or ExtractorOptions()
        self.sites = sites
        if not isinstance(model, NodeModel):
            model = NodeModel.load(model or DEFAULT_MODEL)
        self.model = model
        self.model_version = self.model.name
        load_model()

    def extract(self, body: bytes | str, url: str | None = None, *,
                content_type: str | None = None) -> Article:
        """Extract the article of one page; an unusable page gives an Article with a reason."""
        page = page_nodes(body, url, content_type=content_type, max_bytes=self.options.max_bytes,
                          max_nodes=self.options.max_nodes)
        table, meta = page.table, page.meta
        text, kept, language = "", 0, meta.language
        signals = PageSignals()
        timings = page.timings_ms
        footer_linked = (0, 0)
        if table is not None and len(table):
            if self.sites is not None:
                ts = _cpu_clock()
                footer_linked = self.sites.observe(table, url, page.footer_links)
                timings["site"] = (_cpu_clock() - ts) * 1e3
            t0 = _cpu_clock()
            proba = self.model.predict(table)
            t1 = _cpu_clock()
            keep = keep_nodes(table, proba)
            text = assemble(table, keep)
            kept = int(keep.sum())
            signals = page_signals(table, proba, keep, page.markup)
            t2 = _cpu_clock()
            language = detect_language(text, meta.language)
            t3 = _cpu_clock()
            timings["predict"] = (t1 - t0) * 1e3
            timings["assemble"] = (t2 - t1) * 1e3
            timings["language"] = (t3 - t2) * 1e3
        reason = page.reason or (None if text else "no_content")
        return Article(
            url=url, text=text, title=meta.title, authors=meta.authors,
            published=meta.published, modified=meta.modified, language=language,
            description=meta.description, site_name=meta.site_name, image=meta.image,
            tags=meta.tags, section=meta.section,
            canonical_url=plausible_canonical(meta.canonical_url, url),
            page_type=meta.page_type, encoding=page.encoding, reason=reason,
            nodes_total=len(table) if table is not None else 0, nodes_kept=kept,
            signals=signals, timings_ms=timings, footer_linked=footer_linked,
        )
