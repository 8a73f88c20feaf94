"""A crawl with JOBDIR stopped by SIGTERM midway, then resumed: every article exactly once
across the two outputs."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from crawlutil import TEST_SETTINGS, read_jsonl

from newscrawl.demo import crawl_command, crawl_env
from newscrawl.sample_site import SiteServer, build_site


def test_sigterm_and_resume(tmp_path: Path) -> None:
    build_site(tmp_path, n_articles=120)
    manifest = json.loads((tmp_path / "manifest.json").read_text("utf-8"))
    truth = {a["path"] for a in manifest["articles"]}
    settings = {**TEST_SETTINGS, "JOBDIR": str(tmp_path / "job"),
                "CONCURRENT_REQUESTS": "2", "DOWNLOAD_DELAY": "0.03"}
    outs = [tmp_path / "run1.jsonl", tmp_path / "run2.jsonl"]
    with SiteServer(tmp_path / "site") as base:
        cmd = crawl_command(base, outs[0], tmp_path / "s1.json", tmp_path / "run1.log",
                            settings)
        proc = subprocess.Popen(cmd, env=crawl_env(), cwd=tmp_path)
        deadline = time.monotonic() + 120
        while len(read_jsonl(outs[0])) < 15 and time.monotonic() < deadline:
            assert proc.poll() is None, "crawl ended before it could be interrupted"
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 0
        first = read_jsonl(outs[0])
        assert 15 <= len(first) < len(truth)  # really stopped midway
        stats1 = json.loads((tmp_path / "s1.json").read_text("utf-8"))
        assert stats1["finish_reason"] == "shutdown"
        cmd = crawl_command(base, outs[1], tmp_path / "s2.json", tmp_path / "run2.log",
                            settings)
        assert subprocess.run(cmd, env=crawl_env(), cwd=tmp_path, timeout=300).returncode == 0
    second = read_jsonl(outs[1])
    assert second  # the resumed run did the rest
    paths = Counter(urlsplit(i["url"]).path for i in first + second)
    assert set(paths) == truth
    assert max(paths.values()) == 1


def test_ctrl_c_then_the_same_command_again_keeps_what_the_first_part_exported(
        tmp_path: Path) -> None:
    """``-s JOBDIR=job -O out.jsonl``, Ctrl-C, the same command again: the resumed job appends
    to the output instead of overwriting what its first part wrote."""
    build_site(tmp_path, n_articles=80)
    manifest = json.loads((tmp_path / "manifest.json").read_text("utf-8"))
    truth = {a["path"] for a in manifest["articles"]}
    settings = {**TEST_SETTINGS, "JOBDIR": str(tmp_path / "job"),
                "CONCURRENT_REQUESTS": "2", "DOWNLOAD_DELAY": "0.03"}
    out = tmp_path / "out.jsonl"
    with SiteServer(tmp_path / "site") as base:
        cmd = crawl_command(base, out, tmp_path / "stats.json", tmp_path / "crawl.log",
                            settings)
        proc = subprocess.Popen(cmd, env=crawl_env(), cwd=tmp_path)
        deadline = time.monotonic() + 120
        while len(read_jsonl(out)) < 10 and time.monotonic() < deadline:
            assert proc.poll() is None, "crawl ended before it could be interrupted"
            time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0
        first = read_jsonl(out)
        assert 10 <= len(first) < len(truth)  # really stopped midway
        assert subprocess.run(cmd, env=crawl_env(), cwd=tmp_path, timeout=300).returncode == 0
    both = read_jsonl(out)
    assert both[:len(first)] == first  # the first part's articles are still there
    paths = Counter(urlsplit(i["url"]).path for i in both)
    assert set(paths) == truth
    assert max(paths.values()) == 1
    assert "appending to" in (tmp_path / "crawl.log").read_text("utf-8")
