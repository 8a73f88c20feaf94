"""Helpers for crawl tests: run a real ``scrapy crawl news`` and read back what it wrote.

A module of its own (not conftest) so test files can import it unambiguously: tests/benchmarks
has a conftest.py too.
"""

from __future__ import annotations

import json
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from newscrawl.demo import crawl_command, crawl_env
from newscrawl.sample_site import SiteServer

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
    # "\n" only: str.splitlines() also splits at U+2028 and U+0085, which a JSON string may
    # hold unescaped (a real page's text does: the WCXB mirror crawl's feed has them).
    return [json.loads(line) for line in path.read_text("utf-8").split("\n") if line.strip()]


def run_crawl(workdir: Path, base_url: str, settings: dict[str, str] | None = None,
              name: str = "crawl", timeout: float = 300, out: Path | None = None
              ) -> CrawlResult:
    """Run ``scrapy crawl news -a url=<base_url>/ -O <workdir>/<name>.jsonl`` (or ``out``)
    and read back items, final stats and log."""
    workdir.mkdir(parents=True, exist_ok=True)
    default_out, stats, log = (workdir / f"{name}{ext}"
                               for ext in (".jsonl", ".stats.json", ".log"))
    out = out or default_out
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
