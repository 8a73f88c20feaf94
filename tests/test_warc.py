"""The WARC archive, without a crawl: a downloader middleware fed responses as the download
handler delivers them, read back with warcio."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Response
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler
from warcio.archiveiterator import ArchiveIterator

from newscrawl.warc import CAPTURED_AT, WarcArchiveMiddleware

PAGE = b"<html><head><title>Boats</title></head><body><p>Boats sail.</p></body></html>"


def _archive(tmp_path: Path) -> tuple[WarcArchiveMiddleware, object]:
    crawler = get_crawler(settings_dict={"NEWSCRAWL_WARC_DIR": str(tmp_path)})
    crawler.stats.open_spider()
    archive = build_from_crawler(WarcArchiveMiddleware, crawler)
    archive.spider_opened()
    return archive, crawler


def _records(path: str) -> list:
    with open(path, "rb") as f:
        return [(r.rec_type, r.rec_headers, r.http_headers,
                 r.content_stream().read() if r.http_headers else b"")
                for r in ArchiveIterator(f)]


def test_the_archive_is_off_unless_a_directory_is_set() -> None:
    with pytest.raises(NotConfigured):
        build_from_crawler(WarcArchiveMiddleware, get_crawler(settings_dict={}))


def test_every_response_is_archived_as_it_came_with_its_request(tmp_path: Path) -> None:
    archive, crawler = _archive(tmp_path)
    page = Request("http://news.example/2024/05/boats?x=1",
                   headers={"User-Agent": "newscrawl-test", "Accept-Encoding": "gzip"},
                   meta={"newscrawl_page": True, "site": "news.example", "found_via": "feed"})
    compressed = gzip.compress(PAGE)
    response = HtmlResponse(page.url, status=200, body=compressed, request=page, headers={
        "Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip",
        "Transfer-Encoding": "chunked", "Set-Cookie": ["a=1", "b=2"], "X-Served-By": "cache"})
    assert archive.process_response(page, response) is response
    assert page.meta[CAPTURED_AT].endswith("+00:00")
    moved = Request("http://news.example/old")
    archive.process_response(moved, Response(moved.url, status=301, request=moved,
                                             headers={"Location": "/2024/05/boats"}))
    archive.spider_closed()
    path = crawler.stats.get_value("newscrawl/warc/file")
    records = _records(path)
    assert [r[0] for r in records] == ["warcinfo", "response", "request", "response", "request"]
    _, fields, http, payload = records[1]
    assert fields.get_header("WARC-Target-URI") == page.url
    assert fields.get_header("WARC-Date") == page.meta[CAPTURED_AT].replace("+00:00", "Z")
    assert fields.get_header("Newscrawl-Site") == "news.example"
    assert fields.get_header("Newscrawl-Found-Via") == "feed"
    assert http.get_statuscode() == "200"
    assert http.get_header("Content-Encoding") == "gzip"  # the header as the server sent it
    assert http.get_header("X-Crawler-Transfer-Encoding") == "chunked"
    assert http.get_header("Transfer-Encoding") is None
    assert [v for k, v in http.headers if k.lower() == "set-cookie"] == ["a=1", "b=2"]
    assert http.get_header("X-Served-By") == "cache"
    assert payload == PAGE  # warcio decodes the Content-Encoding the record keeps
    with open(path, "rb") as f:  # the record holds the raw, still compressed, bytes
        raw = [r.raw_stream.read() for r in ArchiveIterator(f) if r.rec_type == "response"]
    assert raw[0] == compressed
    _, request_fields, request_http, _ = records[2]
    assert request_http.protocol == "GET"
    assert request_http.get_header("Host") == "news.example"
    assert request_http.get_header("User-Agent") == "newscrawl-test"
    assert request_fields.get_header("WARC-Concurrent-To") == fields.get_header(
        "WARC-Record-ID")
    assert records[3][2].get_statuscode() == "301"  # redirects are archived too
    assert records[3][2].get_header("Location") == "/2024/05/boats"
    assert records[3][1].get_header("Newscrawl-Site") is None  # not a page request
    assert crawler.stats.get_value("newscrawl/warc/records") == 2


def test_header_bytes_and_request_targets_are_archived_as_they_were_sent(tmp_path: Path,
                                                                        ) -> None:
    """warcio percent-encodes a header with non-ASCII characters, and the request line
    lost a path's ``;params``: each record must say what went over the wire."""
    archive, crawler = _archive(tmp_path)
    page = Request("http://news.example/2024/06/03/story.html;jsessionid=ABC123?p=2")
    location = "/2024/06/04/żółw.html".encode()  # UTF-8 bytes, as a server sends them
    archive.process_response(page, Response(page.url, status=302, request=page, headers={
        b"Location": location, b"Set-Cookie": "who=Zoë; Path=/".encode("latin-1")}))
    archive.spider_closed()
    with open(crawler.stats.get_value("newscrawl/warc/file"), "rb") as f:
        data = gzip.decompress(f.read())
    assert b"\r\nLocation: " + location + b"\r\n" in data
    assert "Set-Cookie: who=Zoë; Path=/\r\n".encode("latin-1") in data
    assert b"GET /2024/06/03/story.html;jsessionid=ABC123?p=2 HTTP/1.1\r\n" in data


def test_a_write_failure_is_counted_and_the_crawl_goes_on(tmp_path: Path) -> None:
    archive, crawler = _archive(tmp_path)
    request = Request("http://news.example/")
    first = HtmlResponse(request.url, body=PAGE, request=request)
    assert archive.process_response(request, first) is first

    class FullDisk:
        def write(self, data: bytes) -> int:
            raise OSError(28, "No space left on device")

        def flush(self) -> None: ...

    archive._writer.out = FullDisk()
    second = HtmlResponse(request.url, body=PAGE, request=request)
    assert archive.process_response(request, second) is second  # passed on all the same
    assert archive.process_response(request, second) is second
    archive.spider_closed()
    stats = crawler.stats.get_stats()
    assert (stats["newscrawl/warc/records"], stats["newscrawl/warc/write_failed"]) == (1, 1)
    # what was written before the failure is a readable archive
    assert [r[0] for r in _records(stats["newscrawl/warc/file"])] == [
        "warcinfo", "response", "request"]
