"""``NEWSCRAWL_WARC_DIR``: every response the crawl downloads, archived as it came.

A corpus is extracted again when the model improves, and a recrawl would not find the same
pages: ``newscrawl extract FILE.warc.gz`` reads this archive back through the same library,
and so do warcio and Common Crawl's tools. It is a downloader middleware placed next to the
download handler (``DOWNLOADER_MIDDLEWARES`` 950, after every middleware that adds a request
header, before ``HttpCompressionMiddleware`` decodes a body or ``RedirectMiddleware`` follows a
redirect), so it sees every response: pages, robots.txt, sitemaps, feeds, redirects, errors.

What a record holds, and why:

* ``request``: the request line and the headers Scrapy sent (``Host`` added as the download
  handler adds it).
* ``response``: the status line, every header the server sent, and the body as the download
  handler delivered it: still content-encoded (gzip, br: warcio and Common Crawl's readers
  decode ``Content-Encoding`` themselves), but with the transfer encoding (chunked) already
  removed, which is what Common Crawl stores too; a ``Transfer-Encoding`` header is therefore
  kept as ``X-Crawler-Transfer-Encoding``, as Common Crawl does, so no reader de-chunks the
  body a second time.
* ``WARC-Date`` is when the response arrived; the spider exports that same time as the
  article's ``crawled_at`` (``request.meta["newscrawl_captured_at"]``).
* Pages the spider requested carry how the crawl found them, as WARC extension fields
  (``Newscrawl-Site``, ``Newscrawl-Found-Via``), so that ``newscrawl extract`` makes the
  crawl's article decision on the same evidence (the URL's shape it reads from the URL; a
  sites file's ``article_allow``/``article_deny`` patterns are not in the archive).

Responses served from Scrapy's HTTP cache (flag ``cached``) were archived when they were
downloaded and are not written again. A write that fails (a full disk) is logged and counted,
and the crawl goes on without archiving.
"""

from __future__ import annotations

import functools
import io
import logging
import os
import time
from datetime import UTC, datetime
from http import HTTPStatus
from pathlib import Path
from typing import Any, Self

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.utils.httpobj import urlparse_cached

logger = logging.getLogger(__name__)

CAPTURED_AT = "newscrawl_captured_at"
"""``request.meta`` key: when the response arrived (UTC, ISO 8601, whole seconds)."""
CRAWL_FIELDS = {"site": "Newscrawl-Site", "found_via": "Newscrawl-Found-Via"}
"""``request.meta`` keys written as WARC fields of a page's response record."""


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Unknown"


def _header_lines(headers: Any) -> list[tuple[str, str]]:
    """Scrapy ``Headers`` as (name, value) pairs, one per value, in the order received."""
    return [(name.decode("latin-1"), value.decode("latin-1"))
            for name, values in headers.items() for value in values]


@functools.cache
def _raw_headers_class() -> type:
    """warcio's ``StatusAndHeaders``, writing header lines back as the bytes they came as
    (``_header_lines`` read them as latin-1). warcio percent-encodes a header holding any
    non-ASCII character, so a ``Location`` sent as UTF-8 bytes was archived as another URL
    and ``Set-Cookie: who=Zoë`` as ``who*=UTF-8''Zo%C3%AB``."""
    from warcio.statusandheaders import StatusAndHeaders

    class RawStatusAndHeaders(StatusAndHeaders):
        def compute_headers_buffer(self, header_filter: Any = None) -> None:
            self.headers_buff = self.to_bytes(header_filter, "latin-1")

    return RawStatusAndHeaders


class WarcArchiveMiddleware:
    """Downloader middleware: each response, and the request that fetched it, into a
    ``.warc.gz`` in ``NEWSCRAWL_WARC_DIR`` (see the module's docstring)."""

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
            raise NotConfigured  # no message: Scrapy would warn of it on every crawl
        archive = cls(crawler, Path(directory))
        crawler.signals.connect(archive.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(archive.spider_closed, signal=signals.spider_closed)
        return archive

    def spider_opened(self) -> None:
        from warcio.warcwriter import WARCWriter

        name = getattr(self.crawler.spider, "name", "crawl")
        started = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        self.directory.mkdir(parents=True, exist_ok=True)
        self.path = self.directory / f"{name}-{started}-{os.getpid()}.warc.gz"
        self._file = self.path.open("xb")
        self._writer = WARCWriter(self._file, gzip=True)
        self._writer.write_record(self._writer.create_warcinfo_record(
            self.path.name, {"software": "newscrawl", "format": "WARC File Format 1.0"}))
        self.stats.set_value("newscrawl/warc/file", str(self.path))
        logger.info("Archiving every response in %s", self.path)

    def spider_closed(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = self._writer = None

    def process_response(self, request: Request, response: Response) -> Response:
        captured = datetime.now(UTC).replace(microsecond=0)
        request.meta[CAPTURED_AT] = captured.isoformat()
        if self._writer is None or "cached" in response.flags:
            return response
        try:
            self._write(request, response, captured.strftime("%Y-%m-%dT%H:%M:%SZ"))
        except OSError as exc:
            logger.error("Archiving stopped: %s: %s", self.path, exc)
            self.stats.inc_value("newscrawl/warc/write_failed")
            self.spider_closed()
            return response
        self.stats.inc_value("newscrawl/warc/records")
        return response

    def _write(self, request: Request, response: Response, warc_date: str) -> None:
        StatusAndHeaders = _raw_headers_class()  # noqa: N806 - a class
        writer = self._writer
        protocol = response.protocol or "HTTP/1.1"
        if protocol.upper().startswith("HTTP/2"):
            protocol = "HTTP/1.1"  # HTTP/2 has no status line; WARC readers expect HTTP/1.x
        headers = [("X-Crawler-Transfer-Encoding" if name.lower() == "transfer-encoding"
                    else name, value) for name, value in _header_lines(response.headers)]
        http = StatusAndHeaders(f"{response.status} {_reason(response.status)}", headers,
                                protocol=protocol)
        fields = {"WARC-Date": warc_date}
        for key, name in CRAWL_FIELDS.items():
            if request.meta.get("newscrawl_page") and request.meta.get(key):
                fields[name] = str(request.meta[key])
        record = writer.create_warc_record(response.url, "response",
                                           payload=io.BytesIO(response.body),
                                           http_headers=http, warc_headers_dict=fields)

        parts = urlparse_cached(request)
        target = ((parts.path or "/") + (f";{parts.params}" if parts.params else "")
                  + (f"?{parts.query}" if parts.query else ""))  # as Twisted sent it
        sent = _header_lines(request.headers)
        if not any(name.lower() == "host" for name, _ in sent):
            sent.insert(0, ("Host", parts.netloc))
        # Scrapy's HTTP/1.x client sends HTTP/1.1 whatever the server answers with
        request_http = StatusAndHeaders(f"{request.method} {target} HTTP/1.1", sent,
                                        is_http_request=True)
        request_record = writer.create_warc_record(
            request.url, "request", payload=io.BytesIO(request.body or b""),
            http_headers=request_http,
            warc_headers_dict={"WARC-Date": warc_date,
                               "WARC-Concurrent-To": record.rec_headers.get_header(
                                   "WARC-Record-ID")})
        writer.write_record(record)
        writer.write_record(request_record)
        self._file.flush()
