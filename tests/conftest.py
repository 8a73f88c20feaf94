"""Shared fixtures: the sample site served on 127.0.0.1 and a runner for real ``scrapy crawl``.

Crawls run as subprocesses exactly as a user runs them (``python -m scrapy crawl news``); they
only ever reach servers these fixtures start on 127.0.0.1.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from crawlutil import CrawlResult, Site, run_crawl

from newscrawl.sample_site import SiteServer, build_site


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
    """One real crawl of the sample site, shared by the end-to-end and schema tests; it also
    archives its pages in a WARC file, as a user asks with ``NEWSCRAWL_WARC_DIR``."""
    start = len(sample_site.server.requested)
    workdir = tmp_path_factory.mktemp("sample_crawl")
    result = run_crawl(workdir, sample_site.base,
                       {"NEWSCRAWL_WARC_DIR": str(workdir / "warc")})
    result.requested = sample_site.server.requested[start:]
    return result


@pytest.fixture
def crawl(tmp_path: Path) -> Callable[..., CrawlResult]:
    def _crawl(base_url: str, settings: dict[str, str] | None = None,
               name: str = "crawl") -> CrawlResult:
        return run_crawl(tmp_path, base_url, settings, name)
    return _crawl
