"""Item pipelines: a raw ``Page`` becomes an ``Article`` (300), then repeats are removed (400)
(``newscrawl.warc`` archives the responses themselves, ``newscrawl.limits`` caps a site).

Every drop is one ``DropItem`` subclass logged at INFO and counted twice: by Scrapy's CoreStats
(``item_dropped_reasons_count/<Class>``) and under ``newscrawl/dropped/<reason>``, the key the
spider uses for failed downloads too, so one prefix accounts for every page that was not
exported.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import tempfile
import time
import unicodedata
import weakref
from dataclasses import fields
from datetime import date
from pathlib import Path
from typing import Any, Self
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.settings import BaseSettings
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred
from twisted.internet.threads import deferToThreadPool
from twisted.python.threadpool import ThreadPool
from w3lib.url import canonicalize_url

from newscrawl import feeds
from newscrawl.extraction import Article as Extracted
from newscrawl.extraction import Extractor, SiteMemory
from newscrawl.extraction.article import plausible_canonical
from newscrawl.extraction.pagekind import PageModel, word_count
from newscrawl.items import Article, Page

logger = logging.getLogger(__name__)

_SPACE = re.compile(r"\s+")
_TRACKING = re.compile(r"^(utm_\w+|fbclid|gclid|mc_cid|mc_eid|ocid|cmpid|ref|share)$", re.I)


class NewscrawlDrop(DropItem):
    """Base of the pipeline's drops; ``reason`` is the stats key suffix."""

    reason = "dropped"

    def __init__(self, message: str):
        super().__init__(message, log_level="INFO")


class Unusable(NewscrawlDrop):
    """The library returned no text; the reason is its own (binary, empty, too_large ...)."""

    def __init__(self, reason: str, message: str):
        self.reason = reason
        super().__init__(message)


class ExtractionError(NewscrawlDrop):
    """The library raised: a bug to report, logged at ERROR with the exception."""

    reason = "extraction_error"


class NotAnArticle(NewscrawlDrop):
    reason = "not_article"


class TooShort(NewscrawlDrop):
    reason = "too_short"


class TooOld(NewscrawlDrop):
    reason = "too_old"


class DuplicateUrl(NewscrawlDrop):
    reason = "duplicate_url"


class DuplicateText(NewscrawlDrop):
    reason = "duplicate_text"


def text_hash(text: str) -> str:
    """sha1 of the text after NFKC, lower-casing and collapsing whitespace."""
    norm = _SPACE.sub(" ", unicodedata.normalize("NFKC", text).lower()).strip()
    return hashlib.sha1(norm.encode("utf-8")).hexdigest()


def since_day(settings: BaseSettings) -> str | None:
    """``NEWSCRAWL_SINCE`` as ``YYYY-MM-DD``, or None when unset; a value that is no date
    stops the crawl before it starts rather than filter by something else."""
    value = settings.get("NEWSCRAWL_SINCE")
    if not value:
        return None
    try:
        return date.fromisoformat(str(value).strip()).isoformat()
    except ValueError:
        raise ValueError(f"-s NEWSCRAWL_SINCE={value!r}: give a day as YYYY-MM-DD") from None


def canonical(url: str, declared: str | None = None) -> str:
    """The URL a repeat is recognised by: the page's declared canonical when it is plausible
    (same site, not its front page), minus fragment and tracking parameters, query sorted."""
    parts = urlsplit(plausible_canonical(declared, url) or url)
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                       if not _TRACKING.match(k)])
    return canonicalize_url(urlunsplit((parts.scheme, parts.netloc, parts.path, query, "")))


FIXED_PAGE_SHARE = 0.2
FIXED_PAGE_MIN_PAGES = 2
"""A footer seen on one page could be that page's own; two pages make it the template's."""


def article_decision(art: Extracted, url_kind: str, found_via: str | None,
                     pages: PageModel) -> tuple[bool, str]:
    """Whether an extracted page is an article, and why. The one decision the crawl's
    pipeline and ``newscrawl extract`` on a crawl's WARC make, so that both export the same
    pages: the site's own URL patterns (``article_allow``/``article_deny``) when they rule
    a page out; a page the site's footer links from a fifth or more of its pages seen
    before (method 3's share, read for links: ``extraction.site``); else the page classifier
    (``extraction.pagekind``)."""
    if url_kind == "listing":
        return False, "the site's URL patterns"
    linked, seen = art.footer_linked
    if seen >= FIXED_PAGE_MIN_PAGES and linked >= FIXED_PAGE_SHARE * seen:
        return False, f"a fixed page of the site: its footer links it on {linked} of {seen} pages"
    kind = pages.decide(art, found_via)
    return kind.is_article, str(kind)


_COPIED = [f.name for f in fields(Article)]


def article_item(art: Extracted, url: str, *, crawled_at: str, model_version: str,
                 site: str | None = None, words: float | None = None) -> Article:
    """The exported item for a usable extraction result.

    One function so that the crawl's feed and ``newscrawl extract --format json`` write the
    same fields computed the same way (canonical URL, text hash, word count). ``words`` saves
    counting again when the caller already has it.
    """
    values = {name: getattr(art, name) for name in _COPIED if hasattr(art, name)}
    values.update(
        url=url,
        canonical_url=canonical(url, art.canonical_url),
        crawled_at=crawled_at,
        content_hash=text_hash(art.text),
        model_version=model_version,
        words=round(word_count(art.text) if words is None else words),
        site=site,
        authors=list(art.authors),
        tags=list(art.tags),
    )
    return Article(**values)


class ExtractionPipeline:
    """Runs the extraction library on the body Scrapy already downloaded (no second fetch).

    With ``NEWSCRAWL_EXTRACTION_THREADS`` (-1: one per core this process may use; 0: none)
    the library runs in a thread pool, not in the reactor thread: downloads go on while a page
    is read, and pages of different sites are read at once (lxml's parser and XGBoost's
    predictor release the GIL). A site's pages keep their order (``SiteMemory``). Stats and the
    article decision stay in the reactor thread.
    """

    slow_page_ms = 1000.0
    """A page this slow (a hundred times the median) holds an extraction thread while it is
    read: it is logged at WARNING with its size and stages, and counted, so that whoever runs
    the crawl can find it."""

    def __init__(self, crawler: Crawler, extractor: Extractor, pages: PageModel,
                 min_words: int, since: str | None = None, threads: int = 1):
        self.crawler = crawler
        self.stats = crawler.stats
        self.extractor = extractor
        self.pages = pages
        self.min_words = min_words
        self.since = since
        self.pool = (ThreadPool(minthreads=0, maxthreads=threads, name="extraction")
                     if threads > 0 else None)
        self._site_tail: dict[str, Deferred[None]] = {}
        """Per site, the last page sent to a thread: the next one waits for it."""

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        settings = crawler.settings
        if not settings.getbool("NEWSCRAWL_EXTRACTION_ENABLED", True):
            raise NotConfigured("NEWSCRAWL_EXTRACTION_ENABLED is off: pages are not extracted")
        model = settings.get("NEWSCRAWL_MODEL") or None
        if model and not Path(model).is_file():
            raise ValueError(f"NEWSCRAWL_MODEL={model!r}: no such model file; a crawl "
                             "without its model would export nothing useful")
        site_pages = settings.getint("NEWSCRAWL_SITE_PAGES", 50)
        sites = SiteMemory(max_pages=site_pages) if site_pages > 0 else None
        page_model = settings.get("NEWSCRAWL_PAGE_MODEL") or None
        if page_model and not Path(page_model).is_file():
            raise ValueError(f"NEWSCRAWL_PAGE_MODEL={page_model!r}: no such model file")
        # the library raises on a missing or mismatched model
        extractor = Extractor(model, sites=sites)
        pages = PageModel.load(page_model)
        threads = settings.getint("NEWSCRAWL_EXTRACTION_THREADS", 0)
        if threads < 0:
            threads = len(os.sched_getaffinity(0))
        return cls(crawler, extractor, pages, settings.getint("NEWSCRAWL_MIN_WORDS", 80),
                   since_day(settings), threads)

    def open_spider(self) -> None:
        self.stats.set_value("newscrawl/model_version", self.extractor.model_version)
        self.stats.set_value("newscrawl/page_model", self.pages.name)
        if self.pool is not None:
            self.pool.start()

    def close_spider(self) -> None:
        if self.pool is not None:
            self.pool.stop()

    def process_item(self, item: Any) -> Any:
        """The ``Article`` for a ``Page``; with extraction threads, a coroutine giving it."""
        if not isinstance(item, Page):
            return item
        page = ItemAdapter(item)
        if self.pool is None:
            return self._article(page, *self._extract(page))
        return self._article_from_thread(page)

    async def _article_from_thread(self, page: ItemAdapter) -> Article:
        """Pages of one site are extracted one after another, in the order they came: the
        site's ``SiteMemory`` window then holds what it would in the reactor thread, and
        re-extracting the crawl's WARC file gives the same texts. Sites run in parallel."""
        from twisted.internet import reactor

        site = page["site"] or ""
        previous = self._site_tail.get(site)
        done: Deferred[None] = Deferred()
        self._site_tail[site] = done
        try:
            if previous is not None:
                await maybe_deferred_to_future(previous)
            outcome = await maybe_deferred_to_future(
                deferToThreadPool(reactor, self.pool, self._extract, page))
        finally:
            if self._site_tail.get(site) is done:
                del self._site_tail[site]
            done.callback(None)
        return self._article(page, *outcome)

    def _extract(self, page: ItemAdapter) -> tuple[Extracted | Exception, float]:
        """The library's result (or what it raised) and its CPU time in ms, as the library
        times its stages: in a pool thread, the wall clock would count the waits for the GIL
        held by the reactor and the other pool threads. Thread-safe: touches no stats, which
        belong to the reactor thread."""
        t0 = time.thread_time()
        try:
            art = self.extractor.extract(page["body"], page["url"],
                                         content_type=page["content_type"])
        except Exception as exc:  # a library bug must cost one page, not the crawl
            return exc, (time.thread_time() - t0) * 1e3
        return art, (time.thread_time() - t0) * 1e3

    def _article(self, page: ItemAdapter, art: Extracted | Exception, elapsed: float
                 ) -> Article:
        stats = self.stats
        if isinstance(art, Exception):
            logger.error("Extraction failed on %s: %s: %s", page["url"], type(art).__name__,
                         art)
            logger.debug("Extraction traceback for %s", page["url"], exc_info=art)
            raise self._drop(ExtractionError(f"{page['url']}: extraction failed"))
        stats.inc_value("newscrawl/extracted")
        stats.inc_value("newscrawl/extract_ms", round(elapsed, 3))
        stats.max_value("newscrawl/extract_ms_max", round(elapsed, 3))
        for stage, ms in art.timings_ms.items():
            stats.inc_value(f"newscrawl/extract_ms/{stage}", round(ms, 3))
        stats.inc_value("newscrawl/nodes_total", art.nodes_total)
        stats.inc_value("newscrawl/nodes_kept", art.nodes_kept)
        url = page["url"]
        if elapsed >= self.slow_page_ms:
            stats.inc_value("newscrawl/slow_pages")
            logger.warning("Slow page %s: %.0f ms to extract %d bytes (%s)", url, elapsed,
                           len(page["body"]), ", ".join(
                               f"{stage} {ms:.0f} ms" for stage, ms in art.timings_ms.items()))
        if not art.ok:
            raise self._drop(Unusable(art.reason or "no_text",
                                      f"{url}: no text ({art.reason or 'no_text'})"))
        is_article, why = article_decision(art, page["url_kind"], page["found_via"], self.pages)
        if not is_article:
            raise self._drop(NotAnArticle(f"{url}: not an article ({why})"))
        words = word_count(art.text)
        if words < self.min_words:
            raise self._drop(TooShort(f"{url}: {words:.0f} words < {self.min_words}"))
        if self.since and art.published and art.published[:10] < self.since:  # ISO dates
            raise self._drop(TooOld(f"{url}: published {art.published}, before {self.since}"))
        stats.inc_value("newscrawl/articles")
        return article_item(art, url, crawled_at=page["crawled_at"],
                            model_version=self.extractor.model_version, site=page["site"],
                            words=words)

    def _drop(self, drop: NewscrawlDrop) -> NewscrawlDrop:
        self.stats.inc_value(f"newscrawl/dropped/{drop.reason}")
        return drop


class ExportedArticles:
    """What a corpus already holds: the canonical URLs and text hashes of its articles.

    One per crawler, shared by ``DuplicatesPipeline``, which drops repeats and records what the
    feeds wrote, and ``SkipExportedMiddleware``, which does not request an article page
    again. It lives in a JSON file when there is one to keep it in: ``NEWSCRAWL_EXPORTED_FILE``
    for a crawl run on a schedule (each run exports only what is new), else
    ``JOBDIR/newscrawl-seen.json`` so that a resumed job does not export again what its first
    run wrote. The file is read when the crawler is built; what this run exported is added
    once the feeds are stored (a SIGTERM stores them too), so an article a feed failed to
    write is not recorded and the next run exports it. A file that exists but cannot be read
    stops the crawl before it starts: carrying on without it would export the whole corpus
    again.
    """

    _of_crawler: weakref.WeakKeyDictionary[Crawler, ExportedArticles] = (
        weakref.WeakKeyDictionary())

    def __init__(self, state_file: Path | None = None):
        self.state_file = state_file
        self.urls: set[str] = set()
        """Exported by earlier runs (read from the file)."""
        self.hashes: set[str] = set()
        self.new_urls: set[str] = set()
        """Written by this run's feeds; added to the file when they are stored."""
        self.new_hashes: set[str] = set()
        if state_file and state_file.is_file():
            self.urls, self.hashes = self._read(state_file)
            logger.info("%s: %d article URLs and %d text hashes already exported",
                        state_file, len(self.urls), len(self.hashes))

    @staticmethod
    def _read(path: Path) -> tuple[set[str], set[str]]:
        try:
            state = json.loads(path.read_text("utf-8"))
            return set(state["urls"]), set(state["hashes"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}: unreadable record of exported articles ({exc}); "
                             "move it away to start the corpus afresh") from exc

    @classmethod
    def of(cls, crawler: Crawler) -> ExportedArticles:
        """The crawler's record, read from its file on first use; with ``REDIS_URL``, the
        record every worker of the shared crawl writes (``newscrawl.frontier``)."""
        if (exported := cls._of_crawler.get(crawler)) is None:
            settings = crawler.settings
            if settings.get("REDIS_URL"):
                from newscrawl.frontier import RedisExportedArticles

                exported = cls._of_crawler[crawler] = RedisExportedArticles(crawler)  # type: ignore[assignment]
                return exported
            path = settings.get("NEWSCRAWL_EXPORTED_FILE") or (
                Path(settings["JOBDIR"]) / "newscrawl-seen.json" if settings.get("JOBDIR")
                else None)
            exported = cls._of_crawler[crawler] = cls(Path(path) if path else None)
        return exported

    def exported_before(self, url: str) -> bool:
        """Exported by an earlier run."""
        return canonical(url) in self.urls

    def exported_now(self, url: str) -> bool:
        """Written by this run's feeds."""
        return canonical(url) in self.new_urls

    def claim(self, urls: set[str], content_hash: str, url: str) -> str | None:
        """``"url"`` or ``"text"`` when an earlier run exported the article, else None. The
        file's record takes this run's articles only once the feeds wrote them (``add``); the
        Redis record (``newscrawl.frontier``) checks and records in this one call."""
        if urls & self.urls:
            return "url"
        if content_hash in self.hashes:
            return "text"
        return None

    def add(self, urls: set[str], content_hash: str, url: str) -> None:
        """An article the feeds wrote; saved with the others by ``save``."""
        self.new_urls |= urls
        self.new_hashes.add(content_hash)

    def save(self) -> None:
        """Merge into the file what it holds now (crawls of other sites run at the same time
        may share it) and this run's articles, then replace it whole, so a reader never sees
        half a file."""
        if not self.state_file or not (self.new_urls or self.new_hashes):
            return
        path = self.state_file
        urls, hashes = self.urls | self.new_urls, self.hashes | self.new_hashes
        if path.is_file():
            with contextlib.suppress(ValueError):  # unreadable now: ours replaces it
                on_disk_urls, on_disk_hashes = self._read(path)
                urls |= on_disk_urls
                hashes |= on_disk_hashes
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent,
                                         prefix=path.name, suffix=".tmp", delete=False) as tmp:
            try:
                json.dump({"urls": sorted(urls), "hashes": sorted(hashes)}, tmp)
            except BaseException:
                Path(tmp.name).unlink(missing_ok=True)
                raise
        Path(tmp.name).replace(path)


class DuplicatesPipeline:
    """Drops an article already exported, by canonical URL or by normalised-text hash,
    in this crawl or (with a state file, see ``ExportedArticles``) in an earlier one.

    Within the run an article counts from the moment it passes here, so two copies in flight
    are not both exported; the record kept for later runs takes only what the feeds wrote
    (``newscrawl.feeds.item_exported``), and only once they are stored
    (``feed_exporter_closed``): an output that could not be written loses nothing for the
    next run.
    """

    def __init__(self, crawler: Crawler, exported: ExportedArticles):
        self.crawler = crawler
        self.stats = crawler.stats
        self.exported = exported
        self.urls: set[str] = set()
        """Let through in this run."""
        self.hashes: set[str] = set()
        crawler.signals.connect(self.item_exported, signal=feeds.item_exported)
        crawler.signals.connect(self.feeds_closed, signal=signals.feed_exporter_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if not crawler.settings.getbool("NEWSCRAWL_DEDUP_ENABLED", True):
            raise NotConfigured("NEWSCRAWL_DEDUP_ENABLED is off")
        return cls(crawler, ExportedArticles.of(crawler))

    def item_exported(self, item: Any) -> None:
        if isinstance(item, Article):
            adapter = ItemAdapter(item)
            self.exported.add({adapter["canonical_url"], canonical(adapter["url"])},
                              adapter["content_hash"], adapter["url"])

    def feeds_closed(self) -> None:
        """Every feed is stored (or failed): record what reached the output."""
        if failed := feeds.feeds_failed(self.stats.get_stats()):
            self.stats.set_value("newscrawl/exported_file_error",
                                 f"feed storage failed: {', '.join(failed)}")
            logger.error("A feed could not be stored (%s): this run's %d articles are not "
                         "recorded as exported, and the next run exports them again",
                         ", ".join(failed), len(self.exported.new_hashes))
            return
        try:
            self.exported.save()
        except OSError as exc:  # the feed is written: say what the next run will repeat
            self.stats.set_value("newscrawl/exported_file_error", str(exc))
            logger.error("%s: the record of exported articles was not saved (%s); the next "
                         "run will export this run's articles again", self.exported.state_file,
                         exc)

    def process_item(self, item: Any) -> Any:
        if not isinstance(item, Article):
            return item
        adapter = ItemAdapter(item)
        site_full = getattr(self.crawler.spider, "site_full", None)
        if site_full is not None and site_full(adapter.get("site")):
            # newscrawl.limits drops it next: recorded here, its text would block its copies
            # on other sites, which are then exported nowhere
            return item
        urls = {adapter["canonical_url"], canonical(adapter["url"])}
        content_hash = adapter["content_hash"]
        repeat = ("url" if urls & self.urls else "text" if content_hash in self.hashes
                  else self.exported.claim(urls, content_hash, adapter["url"]))
        if repeat == "url":
            raise self._drop(DuplicateUrl(f"{adapter['url']}: URL already exported"))
        if repeat == "text":
            raise self._drop(DuplicateText(f"{adapter['url']}: same text already exported"))
        self.urls |= urls
        self.hashes.add(content_hash)
        return item

    def _drop(self, drop: NewscrawlDrop) -> NewscrawlDrop:
        self.stats.inc_value(f"newscrawl/dropped/{drop.reason}")
        return drop
