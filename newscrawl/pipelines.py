"""Item pipelines: a raw ``Page`` is archived in a WARC file when asked (200), becomes an
``Article`` (300), then repeats are removed (400).

Every drop is one ``DropItem`` subclass logged at INFO and counted twice: by Scrapy's CoreStats
(``item_dropped_reasons_count/<Class>``) and under ``newscrawl/dropped/<reason>``, the key the
spider uses for failed downloads too, so one prefix accounts for every page that was not
exported.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
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
from http import HTTPStatus
from pathlib import Path
from typing import Any, Self
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from itemadapter import ItemAdapter
from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem, NotConfigured
from scrapy.settings import BaseSettings
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred
from twisted.internet.threads import deferToThreadPool
from twisted.python.threadpool import ThreadPool
from w3lib.url import canonicalize_url

from newscrawl.extraction import Article as Extracted
from newscrawl.extraction import Extractor, SiteMemory
from newscrawl.items import Article, Page

logger = logging.getLogger(__name__)

ARTICLE_TYPES = frozenset({
    "article", "newsarticle", "reportagenewsarticle", "analysisnewsarticle",
    "opinionnewsarticle", "reviewnewsarticle", "backgroundnewsarticle", "blogposting",
    "liveblogposting", "report", "scholarlyarticle", "techarticle", "satiricalarticle",
})
"""JSON-LD @type / og:type values (lower-cased) that declare an article."""
LISTING_TYPES = frozenset({
    "collectionpage", "itemlist", "searchresultspage", "aboutpage", "contactpage",
    "profilepage", "person", "organization", "newsmediaorganization", "faqpage", "profile",
    "video.other", "video.movie", "music.song", "product", "place", "event",
})
"""Types that declare something else; ``website``/``webpage`` are weaker (many CMSs put them
on every page)."""
LONG_PARAGRAPH = 30
"""Word-equivalents from which a paragraph counts as running prose rather than a teaser."""

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_WORD = re.compile(r"\w+")
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


def word_count(text: str) -> float:
    """Words, with a CJK character as half a word (Chinese words average ~1.7 characters)."""
    cjk = len(_CJK.findall(text))
    return len(_WORD.findall(_CJK.sub(" ", text))) + cjk / 2


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
        raise ValueError(f"NEWSCRAWL_SINCE={value!r}: give a day as YYYY-MM-DD") from None


def canonical(url: str, declared: str | None = None) -> str:
    """The URL a repeat is recognised by: the page's declared canonical when it is plausible
    (same site, not its front page), minus fragment and tracking parameters, query sorted."""
    chosen = url
    if declared:
        d, u = urlsplit(declared), urlsplit(url)
        same_site = (d.hostname or "").removeprefix("www.") == (u.hostname or "").removeprefix(
            "www.")
        if d.scheme in ("http", "https") and same_site and d.path.strip("/"):
            chosen = declared
    parts = urlsplit(chosen)
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True)
                       if not _TRACKING.match(k)])
    return canonicalize_url(urlunsplit((parts.scheme, parts.netloc, parts.path, query, "")))


def page_kind(url_kind: str, page_type: str | None, found_via: str, words: float,
              prose_words: float, min_words: float) -> tuple[bool, str]:
    """Decide article vs. anything else from three kinds of evidence; return (is_article, why).

    URL shape (dated paths and long slugs vs. ``/tag/``, ``/page/2``), what the page declares
    (JSON-LD/og:type), how it was found (a Google News sitemap or a feed lists articles), and
    the extracted text: an article is mostly running prose, a listing mostly short teasers.
    No one signal decides alone, because each is wrong on some real sites.
    """
    score = 0
    why = []
    shape = {"article": 1, "listing": -2}.get(url_kind, 0)
    if shape:
        score += shape
        why.append(f"url {url_kind}")
    if page_type:
        declared = 2 if page_type in ARTICLE_TYPES or page_type.endswith("article") else (
            -2 if page_type in LISTING_TYPES else -1 if page_type in ("website", "webpage")
            else 0)
        if declared:
            score += declared
            why.append(f"type {page_type}")
    if found_via in ("news_sitemap", "feed"):
        score += 1
        why.append(found_via)
    if prose_words >= min_words:
        score += 1
        why.append(f"{prose_words:.0f} words of prose")
    else:
        score -= 1
        why.append(f"only {prose_words:.0f} words of prose")
    share = prose_words / words if words else 0.0
    if share >= 0.5:
        score += 1
        why.append(f"prose share {share:.2f}")
    elif share < 0.2:
        score -= 1
        why.append(f"prose share {share:.2f}")
    return score >= 1, f"score {score:+d}: " + ", ".join(why)


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


class WarcArchivePipeline:
    """Every downloaded page into a WARC file (``NEWSCRAWL_WARC_DIR``), before extraction.

    A corpus is extracted again when the model improves, and a recrawl would not find the same
    pages: ``newscrawl extract FILE.warc.gz`` reads this archive back through the same library.
    Each page is a ``response`` record: the status line, the ``Content-Type`` the server sent
    (its charset decides the decoding) and the body as Scrapy delivered it, after transfer and
    content decoding, with the capture time as ``WARC-Date``. A write that fails (a full disk)
    is logged and counted, and the crawl goes on without archiving.
    """

    def __init__(self, crawler: Crawler, directory: Path):
        self.crawler = crawler
        self.stats = crawler.stats
        self.directory = directory
        self.path: Path | None = None
        self._file: Any = None
        self._writer: Any = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        directory = crawler.settings.get("NEWSCRAWL_WARC_DIR")
        if not directory:
            raise NotConfigured("NEWSCRAWL_WARC_DIR is not set: pages are not archived")
        return cls(crawler, Path(directory))

    def open_spider(self) -> None:
        from warcio.warcwriter import WARCWriter

        name = getattr(self.crawler.spider, "name", "crawl")
        started = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        self.directory.mkdir(parents=True, exist_ok=True)
        self.path = self.directory / f"{name}-{started}-{os.getpid()}.warc.gz"
        self._file = self.path.open("xb")
        self._writer = WARCWriter(self._file, gzip=True)
        self._writer.write_record(self._writer.create_warcinfo_record(
            self.path.name, {"software": "newscrawl", "format": "WARC File Format 1.1"}))
        self.stats.set_value("newscrawl/warc/file", str(self.path))
        logger.info("Archiving downloaded pages in %s", self.path)

    def close_spider(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = self._writer = None

    def process_item(self, item: Any) -> Any:
        if not isinstance(item, Page) or self._writer is None:
            return item
        from warcio.statusandheaders import StatusAndHeaders

        page = ItemAdapter(item)
        headers = [("Content-Type", page["content_type"])] if page["content_type"] else []
        http = StatusAndHeaders(f"{page['status']} {_reason(page['status'])}", headers,
                                protocol="HTTP/1.1")
        warc_headers = {"WARC-Date": _warc_date(page["crawled_at"])} if page["crawled_at"] else {}
        try:
            record = self._writer.create_warc_record(
                page["url"], "response", payload=io.BytesIO(page["body"]), http_headers=http,
                warc_headers_dict=warc_headers)
            self._writer.write_record(record)
            self._file.flush()
        except OSError as exc:
            logger.error("Archiving stopped: %s: %s", self.path, exc)
            self.stats.inc_value("newscrawl/warc/write_failed")
            self.close_spider()
            return item
        self.stats.inc_value("newscrawl/warc/records")
        return item


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


def _warc_date(crawled_at: str) -> str:
    """``2025-03-05T08:00:00+00:00`` as WARC writes times (``2025-03-05T08:00:00Z``)."""
    return crawled_at.replace("+00:00", "Z")


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

    def __init__(self, crawler: Crawler, extractor: Extractor, min_words: int,
                 since: str | None = None, threads: int = 1):
        self.crawler = crawler
        self.stats = crawler.stats
        self.extractor = extractor
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
        # the library raises on a missing or mismatched model
        extractor = Extractor(model, sites=sites)
        threads = settings.getint("NEWSCRAWL_EXTRACTION_THREADS", 0)
        if threads < 0:
            threads = len(os.sched_getaffinity(0))
        return cls(crawler, extractor, settings.getint("NEWSCRAWL_MIN_WORDS", 80),
                   since_day(settings), threads)

    def open_spider(self) -> None:
        self.stats.set_value("newscrawl/model_version", self.extractor.model_version)
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
        """The library's result (or what it raised) and its time in ms. Thread-safe: touches
        no stats, which belong to the reactor thread."""
        t0 = time.perf_counter()
        try:
            art = self.extractor.extract(page["body"], page["url"],
                                         content_type=page["content_type"])
        except Exception as exc:  # a library bug must cost one page, not the crawl
            return exc, (time.perf_counter() - t0) * 1e3
        return art, (time.perf_counter() - t0) * 1e3

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
        paragraphs = art.paragraphs
        words = word_count(art.text)
        prose = sum(n for n in map(word_count, paragraphs) if n >= LONG_PARAGRAPH)
        is_article, why = page_kind(page["url_kind"], art.page_type, page["found_via"], words,
                                    prose, self.min_words)
        if not is_article:
            raise self._drop(NotAnArticle(f"{url}: not an article ({why})"))
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

    One per crawler, shared by ``DuplicatesPipeline``, which drops repeats and records what it
    lets through, and ``SkipExportedMiddleware``, which does not request an article page
    again. It lives in a JSON file when there is one to keep it in: ``NEWSCRAWL_EXPORTED_FILE``
    for a crawl run on a schedule (each run exports only what is new), else
    ``JOBDIR/newscrawl-seen.json`` so that a resumed job does not export again what its first
    run wrote. The file is read when the crawler is built and replaced, whole, when the spider
    closes (a SIGTERM closes it too). A file that exists but cannot be read stops the crawl
    before it starts: carrying on without it would export the whole corpus again.
    """

    _of_crawler: weakref.WeakKeyDictionary[Crawler, ExportedArticles] = (
        weakref.WeakKeyDictionary())

    def __init__(self, state_file: Path | None = None):
        self.state_file = state_file
        self.urls: set[str] = set()
        self.hashes: set[str] = set()
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

    def holds_url(self, url: str) -> bool:
        return canonical(url) in self.urls

    def claim(self, urls: set[str], content_hash: str, url: str) -> str | None:
        """Record an article unless it is a repeat; return ``"url"`` or ``"text"`` for one.
        One call, so that the Redis record can check and record in one step."""
        if urls & self.urls:
            return "url"
        if content_hash in self.hashes:
            return "text"
        self.urls |= urls
        self.hashes.add(content_hash)
        return None

    def save(self) -> None:
        """Merge into the file what it holds now (crawls of other sites run at the same time
        may share it), then replace it whole, so a reader never sees half a file."""
        if not self.state_file:
            return
        path = self.state_file
        if path.is_file():
            with contextlib.suppress(ValueError):  # unreadable now: ours replaces it
                urls, hashes = self._read(path)
                self.urls |= urls
                self.hashes |= hashes
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent,
                                         prefix=path.name, suffix=".tmp", delete=False) as tmp:
            try:
                json.dump({"urls": sorted(self.urls), "hashes": sorted(self.hashes)}, tmp)
            except BaseException:
                Path(tmp.name).unlink(missing_ok=True)
                raise
        Path(tmp.name).replace(path)


class DuplicatesPipeline:
    """Drops an article already exported, by canonical URL or by normalised-text hash,
    in this crawl or (with a state file, see ``ExportedArticles``) in an earlier one."""

    def __init__(self, crawler: Crawler, exported: ExportedArticles):
        self.stats = crawler.stats
        self.exported = exported

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        if not crawler.settings.getbool("NEWSCRAWL_DEDUP_ENABLED", True):
            raise NotConfigured("NEWSCRAWL_DEDUP_ENABLED is off")
        return cls(crawler, ExportedArticles.of(crawler))

    def close_spider(self) -> None:
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
        urls = {adapter["canonical_url"], canonical(adapter["url"])}
        repeat = self.exported.claim(urls, adapter["content_hash"], adapter["url"])
        if repeat == "url":
            raise self._drop(DuplicateUrl(f"{adapter['url']}: URL already exported"))
        if repeat == "text":
            raise self._drop(DuplicateText(f"{adapter['url']}: same text already exported"))
        return item

    def _drop(self, drop: NewscrawlDrop) -> NewscrawlDrop:
        self.stats.inc_value(f"newscrawl/dropped/{drop.reason}")
        return drop
