"""Serve a directory on 127.0.0.1 the way a small news site would, from a background thread.

Files may hold ``__BASE__`` where an absolute URL belongs (sitemaps, feeds, canonical links);
it becomes ``http://127.0.0.1:<port>`` per response, so the site works on any free port.
"""

from __future__ import annotations

import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

_TYPES = {".xml": "application/xml", ".txt": "text/plain; charset=utf-8",
          ".css": "text/css", ".html": "text/html", "": "text/html"}


class _Handler(SimpleHTTPRequestHandler):
    base = ""
    requested: list[str]

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        pass  # a crawl makes thousands of requests; the crawler logs what matters

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        self.requested.append(self.path)
        path = Path(self.translate_path(urlsplit(self.path).path))
        if path.is_dir():
            if not self.path.split("?")[0].endswith("/"):
                self.send_response(301)
                self.send_header("Location", self.path.split("?")[0] + "/")
                self.end_headers()
                return
            path = path / "index.html"
        if not path.is_file():
            self.send_error(404, "Not Found")
            return
        body = path.read_bytes().replace(b"__BASE__", self.base.encode("ascii"))
        suffix = path.suffix if path.suffix in _TYPES else ""
        self.send_response(200)
        self.send_header("Content-Type", _TYPES[suffix])
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class SiteServer:
    """``with SiteServer(root) as base_url: ...`` serves ``root`` on a free local port."""

    def __init__(self, root: str | Path, host: str = "127.0.0.1", port: int = 0):
        self.root = Path(root)
        self.requested: list[str] = []
        """Every path asked for, in order (list.append is atomic across handler threads)."""
        handler = type("Handler", (_Handler,), {"requested": self.requested})
        self.httpd = ThreadingHTTPServer((host, port), partial(handler, directory=str(root)))
        self.httpd.daemon_threads = True
        self.base_url = f"http://{host}:{self.httpd.server_address[1]}"
        handler.base = self.base_url
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> str:
        self._thread.start()
        return self.base_url

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
