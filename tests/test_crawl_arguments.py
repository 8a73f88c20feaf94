"""A spider argument or a setting ``scrapy crawl news`` cannot run with is one line on stderr
and exit status 2, before anything is requested, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from newscrawl.demo import crawl_env

SITES = """\
[[site]]
name = "alpha"
start_urls = ["http://127.0.0.1:9/"]

[[site]]
name = "beta"
start_urls = ["http://127.0.0.1:9/beta/"]
"""


@pytest.mark.parametrize(("arguments", "message"), [
    (["sites=missing.toml"], "-a sites=missing.toml: No such file or directory"),
    (["sites=sites.toml", "site=gamma"],
     "-a site=gamma: no such site in sites.toml; its sites: alpha, beta"),
    (["url=http://127.0.0.1:9/", "-s", "NEWSCRAWL_SINCE=2025-13-01"],
     "-s NEWSCRAWL_SINCE='2025-13-01': give a day as YYYY-MM-DD"),
    (["url=http://127.0.0.1:9/", "-s", "NEWSCRAWL_MIN_WORDS=lots"],
     "-s NEWSCRAWL_MIN_WORDS='lots': give a whole number"),
    (["url=http://127.0.0.1:9/", "-s", "REDIS_URL=redis://127.0.0.1:9/0", "-s",
      "NEWSCRAWL_FRONTIER_LEASE=1"], "-s NEWSCRAWL_FRONTIER_LEASE=1: a lease needs 3 s or more"),
])
def test_a_bad_spider_argument_is_one_line_and_exit_status_2(
        tmp_path: Path, arguments: list[str], message: str) -> None:
    (tmp_path / "sites.toml").write_text(SITES, "utf-8")
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-s", "LOG_LEVEL=WARNING"]
    options = iter(arguments)
    for argument in options:
        cmd += [argument, next(options)] if argument == "-s" else ["-a", argument]
    proc = subprocess.run(cmd, env=crawl_env(), cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1].endswith(f"error: {message}")
    assert "Traceback" not in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sites.toml"]  # no output started
