"""Shared fixtures: the sample site served on 127.0.0.1 and a runner for real ``scrapy crawl``.

Crawls run as subprocesses exactly as a user runs them (``python -m scrapy crawl news``); they
only ever reach servers these fixtures start on 127.0.0.1.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from newscrawl.demo import crawl_command, crawl_env
from newscrawl.sample_site import SiteServer, build_site

TEST_SETTINGS = {"CLOSESPIDER_TIMEOUT": "120", "LOG_LEVEL": "INFO", "DOWNLOAD_TIMEOUT": "10"}


@dataclass
class CrawlResult:
    returncode: int
    items: list[dict[str, Any]]
    stats: dict[str, Any]
    log: str
    out: Path
    requested: list[str] = field(default_factory=list)

    def stat(self, key: str) -> int:
        return int(self.stats.get(key, 0))

    def dropped(self) -> dict[str, int]:
        return {k.removeprefix("newscrawl/dropped/"): v for k, v in self.stats.items()
                if k.startswith("newscrawl/dropped/")}


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def run_crawl(workdir: Path, base_url: str, settings: dict[str, str] | None = None,
              name: str = "crawl", timeout: float = 300) -> CrawlResult:
    """Run ``scrapy crawl news -a url=<base_url>/ -O <workdir>/<name>.jsonl`` and read back
    items, final stats and log."""
    workdir.mkdir(parents=True, exist_ok=True)
    out, stats, log = (workdir / f"{name}{ext}" for ext in (".jsonl", ".stats.json", ".log"))
    cmd = crawl_command(base_url, out, stats, log, {**TEST_SETTINGS, **(settings or {})})
    proc = subprocess.run(cmd, env=crawl_env(), cwd=workdir, timeout=timeout, check=False,
                          capture_output=True, text=True)
    log_text = (log.read_text("utf-8", errors="replace") if log.is_file() else "")
    log_text += proc.stderr
    return CrawlResult(proc.returncode, read_jsonl(out),
                       json.loads(stats.read_text("utf-8")) if stats.is_file() else {},
                       log_text, out)


@dataclass
class Site:
    base: str
    root: Path
    manifest: dict[str, Any]
    server: SiteServer


@pytest.fixture(scope="session")
def sample_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    dest = tmp_path_factory.mktemp("sample_site")
    build_site(dest)
    manifest = json.loads((dest / "manifest.json").read_text("utf-8"))
    server = SiteServer(dest / "site")
    with server as base:
        yield Site(base, dest / "site", manifest, server)


@pytest.fixture(scope="session")
def sample_crawl(sample_site: Site, tmp_path_factory: pytest.TempPathFactory) -> CrawlResult:
    """One real crawl of the sample site, shared by the end-to-end and schema tests."""
    start = len(sample_site.server.requested)
    result = run_crawl(tmp_path_factory.mktemp("sample_crawl"), sample_site.base)
    result.requested = sample_site.server.requested[start:]
    return result


@pytest.fixture
def crawl(tmp_path: Path) -> Callable[..., CrawlResult]:
    def _crawl(base_url: str, settings: dict[str, str] | None = None,
               name: str = "crawl") -> CrawlResult:
        return run_crawl(tmp_path, base_url, settings, name)
    return _crawl
