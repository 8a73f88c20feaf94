"""A real crawl of a hostile site: bad encodings, huge and binary bodies, HTTP errors, a stalled
response, redirect loops and an endless calendar, all served from 127.0.0.1.

The crawl must finish within its limits, write every valid article exactly once, give every
dropped page a counted reason and log no traceback.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

from newscrawl.evaluation.scoring import bag_prf
from newscrawl.sample_site.content import SECTIONS_EN, SENTENCES_ZH, SLOTS_EN, SLOTS_ZH
from newscrawl.sample_site.generate import _paragraphs

if TYPE_CHECKING:
    from crawlutil import CrawlResult

_rng = random.Random(3)
EN = [_paragraphs(_rng, SECTIONS_EN[s]["sentences"], SLOTS_EN, 5, " ")
      for s in ("world", "business", "science", "culture", "technology", "world")]
ZH = [_paragraphs(_rng, SENTENCES_ZH, SLOTS_ZH, 5, "") for _ in range(2)]

GOOD = {f"/2024/01/0{n}/good-article-number-{n}.html": EN[n - 1] for n in (1, 2, 3)}
INVALID_UTF8 = "/2024/01/10/invalid-utf8-bytes-in-the-body.html"
WRONG_CHARSET = "/2024/01/11/page-declaring-the-wrong-charset.html"
GBK_UNDECLARED = "/2024/01/12/undeclared-gbk-chinese-article.html"
GBK_AS_UTF8 = "/2024/01/13/gbk-page-declared-as-utf8.html"
VALID = {**GOOD, INVALID_UTF8: EN[3], WRONG_CHARSET: EN[4], GBK_UNDECLARED: ZH[0],
         GBK_AS_UTF8: ZH[1]}
HUGE = "/2024/01/20/a-twenty-megabyte-page.html"
HUGE_STREAMED = "/2024/01/21/a-huge-page-without-length.html"
PDF = "/2024/01/22/a-pdf-labelled-as-html.html"
CROWDED = "/2024/01/28/sixty-thousand-one-word-paragraphs.html"
STATUS = {"/2024/01/23/a-missing-article-page.html": 404,
          "/2024/01/24/a-server-error-article-page.html": 500,
          "/2024/01/25/an-unavailable-article-page.html": 503}
STALLED = "/2024/01/26/a-stalled-response-article.html"
SECRET = "/private/2024/01/27/a-secret-article-not-to-crawl.html"
CALENDAR = "/calendar/{y}/{m:02d}/"


def _article(title: str, paragraphs: list[str], meta_charset: str | None = "utf-8") -> str:
    head = f'<meta charset="{meta_charset}">' if meta_charset else ""
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (f"<!DOCTYPE html><html><head>{head}<title>{title}</title>"
            '<meta property="og:type" content="article"></head><body>'
            '<nav><a href="/">Home</a> <a href="/calendar/2024/01/">Archive</a></nav>'
            f"<article><h1>{title}</h1>{body}</article>"
            "<footer><p>(c) Hostile Times. All rights reserved.</p></footer></body></html>")


class _Handler(BaseHTTPRequestHandler):
    requested: list[str]
    stop: threading.Event

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass

    def _send(self, body: bytes, content_type: str = "text/html", status: int = 200,
              length: bool = True) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802
        self.requested.append(self.path)
        # the crawler hangs up on purpose (too large, timed out)
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self._route(urlsplit(self.path).path)

    def _route(self, path: str) -> None:
        if path == "/robots.txt":
            return self._send(b"User-agent: *\nDisallow: /private/\n", "text/plain")
        if path == "/":
            links = [*VALID, HUGE, HUGE_STREAMED, PDF, CROWDED, *STATUS, STALLED, SECRET,
                     "/loop/a",
                     "/redirect/1", CALENDAR.format(y=2024, m=1)]
            html = "".join(f'<li><a href="{u}">{u}</a></li>' for u in links)
            return self._send(f"<html><body><h1>Hostile Times</h1><ul>{html}</ul></body></html>"
                              .encode())
        if path in GOOD or path == SECRET:
            return self._send(_article("A good article", GOOD.get(path, EN[5])).encode())
        if path == INVALID_UTF8:
            body = _article("Invalid bytes", EN[3]).encode()
            body = body.replace(b"</h1>", b"</h1><p>\xff\xfe\xc3\x28 broken \xe2\x82 bytes</p>")
            return self._send(body, "text/html; charset=utf-8")
        if path == WRONG_CHARSET:
            paras = [p + " Caf\u00e9 owners were na\u00efve." for p in EN[4]]
            return self._send(_article("Wrong charset", paras, "iso-8859-1").encode(),
                              "text/html; charset=iso-8859-1")
        if path == GBK_UNDECLARED:
            return self._send(_article("中文", ZH[0], None).encode("gbk"), "text/html")
        if path == GBK_AS_UTF8:
            return self._send(_article("中文", ZH[1], "utf-8").encode("gbk"),
                              "text/html; charset=utf-8")
        if path == HUGE:
            return self._send(b"<html><body>" + b"<p>filler text</p>" * 1_200_000)
        if path == HUGE_STREAMED:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            for _ in range(200):
                self.wfile.write(b"<p>" + b"x" * 100_000 + b"</p>")
            return None
        if path == CROWDED:  # 0.5 MB, but more text nodes than the extractor takes
            return self._send(b"<html><body>" + b"<p>word</p>" * 60_000 + b"</body></html>")
        if path == PDF:
            return self._send(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n" + bytes(range(256)) * 400)
        if path in STATUS:
            return self._send(b"<html><body>error</body></html>", status=STATUS[path])
        if path == STALLED:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "50000")
            self.end_headers()
            self.wfile.write(b"<html><body><p>The beginning of a story that never")
            self.wfile.flush()
            self.stop.wait(60)
            return None
        if path.startswith("/loop/"):
            return self._redirect("/loop/b" if path == "/loop/a" else "/loop/a")
        if path.startswith("/redirect/"):
            return self._redirect(f"/redirect/{int(path.rsplit('/', 1)[1]) + 1}")
        if path.startswith("/calendar/"):
            y, m = (int(x) for x in path.strip("/").split("/")[1:3])
            nxt = CALENDAR.format(y=y + m // 12, m=m % 12 + 1)
            prev = CALENDAR.format(y=y - (m == 1), m=(m - 2) % 12 + 1)
            days = "".join(f'<a href="{path}?day={d}">{d}</a> ' for d in range(1, 29))
            return self._send(f'<html><body><a href="{prev}">prev</a> <a href="{nxt}">next</a>'
                              f"{days}</body></html>".encode())
        return self._send(b"<html><body>not found</body></html>", status=404)

    def _redirect(self, location: str) -> None:
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()


@pytest.fixture(scope="module")
def hostile_site() -> Iterator[tuple[str, list[str]]]:
    requested: list[str] = []
    stop = threading.Event()
    handler = type("Handler", (_Handler,), {"requested": requested, "stop": stop})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", requested
    stop.set()
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def hostile_crawl(hostile_site: tuple[str, list[str]],
                  tmp_path_factory: pytest.TempPathFactory) -> CrawlResult:
    from crawlutil import run_crawl

    base, requested = hostile_site
    t0 = time.monotonic()
    result = run_crawl(tmp_path_factory.mktemp("hostile"), base, {
        "DOWNLOAD_TIMEOUT": "3", "RETRY_TIMES": "1", "REDIRECT_MAX_TIMES": "5",
        "CLOSESPIDER_TIMEOUT": "90",
        # A 2 MB cap: the streamed page, which declares no length, must reach the cap well
        # inside the 3 s timeout even when the test shares a loaded machine.
        "DOWNLOAD_MAXSIZE": str(2 * 1024 * 1024), "DOWNLOAD_WARNSIZE": str(1024 * 1024)})
    result.stats["_wall"] = time.monotonic() - t0
    result.requested = list(requested)
    return result


def _paths(result: CrawlResult) -> Counter[str]:
    return Counter(urlsplit(i["url"]).path for i in result.items)


def test_crawl_finishes_within_limits(hostile_crawl: CrawlResult) -> None:
    assert hostile_crawl.returncode == 0, hostile_crawl.log[-3000:]
    assert hostile_crawl.stats["finish_reason"] == "finished"
    assert hostile_crawl.stats["_wall"] < 80


def test_every_valid_article_written_exactly_once(hostile_crawl: CrawlResult) -> None:
    assert _paths(hostile_crawl) == Counter(dict.fromkeys(VALID, 1))


def test_encodings_repaired(hostile_crawl: CrawlResult) -> None:
    by_path = {urlsplit(i["url"]).path: i for i in hostile_crawl.items}
    for path in (GBK_UNDECLARED, GBK_AS_UTF8):
        assert bag_prf(by_path[path]["text"], "\n\n".join(VALID[path]), "chars")[2] >= 0.9, path
    assert "Café owners were naïve." in by_path[WRONG_CHARSET]["text"]
    assert bag_prf(by_path[INVALID_UTF8]["text"], "\n\n".join(EN[3]))[1] >= 0.9


def test_every_drop_has_a_counted_reason(hostile_crawl: CrawlResult) -> None:
    dropped = hostile_crawl.dropped()
    assert dropped.get("too_large", 0) >= 2, sorted(dropped.items())
    assert dropped.get("binary") == 1, dropped
    assert dropped.get("too_many_nodes") == 1, dropped
    for code in (404, 500, 503):
        assert dropped.get(f"http_{code}", 0) >= 1, dropped
    assert dropped.get("timeout") == 1, dropped
    assert dropped.get("redirect_loop") == 1, dropped
    assert dropped.get("robots_txt") == 1, dropped
    # the front page and the calendar pages: not articles, or nothing worth keeping
    assert dropped.get("not_article", 0) + dropped.get("no_content", 0) >= 4, dropped
    pipeline = {"not_article", "too_short", "duplicate_url", "duplicate_text", "binary",
                "empty", "no_text", "no_content", "too_many_nodes", "extraction_error"}
    downloaded_pages = hostile_crawl.stat("newscrawl/pages")
    assert downloaded_pages == len(hostile_crawl.items) + sum(
        v for k, v in dropped.items() if k in pipeline)


def test_robots_and_traps_respected(hostile_crawl: CrawlResult) -> None:
    requested = hostile_crawl.requested
    assert not any(p.startswith("/private/") for p in requested)
    calendar = {urlsplit(p).path for p in requested if p.startswith("/calendar/")}
    assert 2 <= len(calendar) <= 8, sorted(calendar)  # max_depth bounds the endless archive
    assert sum(p.startswith("/redirect/") for p in requested) <= 7


def test_no_traceback_in_log(hostile_crawl: CrawlResult) -> None:
    assert "Traceback" not in hostile_crawl.log
    assert "Dropped page" in hostile_crawl.log  # reasons are logged, one line each
    assert "too_large" in hostile_crawl.log


