"""``newscrawl demo``: serve the bundled sample site on 127.0.0.1 and crawl it with a real
``scrapy crawl news``, offline, then print a one-screen summary.

The summary checks the crawl against the site's manifest (every article found, no listing
exported, text F1 against the known bodies), so the demo doubles as a smoke test of the whole
project on a fresh machine.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import mean
from typing import Any
from urllib.parse import urlsplit

from newscrawl.sample_site import SiteServer, build_site
from newscrawl.sample_site.generate import DEFAULT_ARTICLES

# Local crawling needs no politeness delays; everything else comes from newscrawl.settings.
OFFLINE_SETTINGS = {"AUTOTHROTTLE_ENABLED": "0", "DOWNLOAD_DELAY": "0",
                    "CONCURRENT_REQUESTS_PER_DOMAIN": "16", "DOWNLOAD_TIMEOUT": "20",
                    "CLOSESPIDER_TIMEOUT": "600"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", default="out/articles.jsonl", help="JSONL to write (overwritten)")
    parser.add_argument("--articles", type=int, default=DEFAULT_ARTICLES,
                        help="articles in the generated site (default %(default)s)")
    parser.add_argument("--port", type=int, default=0, help="port to serve on (default: free)")
    parser.add_argument("-s", "--set", action="append", default=[], metavar="NAME=VALUE",
                        help="extra Scrapy setting for the crawl (repeatable)")


def crawl_command(base_url: str, out: Path, stats_file: Path, log_file: Path,
                  extra: dict[str, str] | None = None) -> list[str]:
    """The ``scrapy crawl`` command line the demo, the tests and the benchmark run."""
    settings = {**OFFLINE_SETTINGS, "NEWSCRAWL_STATS_FILE": str(stats_file),
                "LOG_FILE": str(log_file), **(extra or {})}
    cmd = [sys.executable, "-m", "scrapy", "crawl", "news", "-a", f"url={base_url}/",
           "-O", f"{out}:jsonlines"]
    for name, value in settings.items():
        cmd += ["-s", f"{name}={value}"]
    return cmd


def crawl_env() -> dict[str, str]:
    """Finds the project's settings from any working directory."""
    return {**os.environ, "SCRAPY_SETTINGS_MODULE": "newscrawl.settings"}


def score(items: list[dict[str, Any]], manifest: dict[str, Any]) -> dict[str, Any]:
    """Compare exported items with the site's truth: found, missing, extra, repeats, F1."""
    from newscrawl.evaluation.scoring import bag_prf

    truth = {a["path"]: a for a in manifest["articles"]}
    paths = [urlsplit(i["url"]).path for i in items]
    f1 = {}
    for path, item in zip(paths, items, strict=True):
        if path in truth:
            script = "chars" if truth[path]["lang"] == "zh" else "words"
            f1[path] = bag_prf(item["text"], truth[path]["text"], script)[2]
    return {
        "articles": len(truth),
        "found": len(set(paths) & set(truth)),
        "missing": sorted(set(truth) - set(paths)),
        "not_articles_exported": sorted(set(paths) - set(truth)),
        "repeats": len(paths) - len(set(paths)),
        "f1": f1,
        "f1_mean": mean(f1.values()) if f1 else 0.0,
        "f1_min": min(f1.values()) if f1 else 0.0,
    }


def summary(stats: dict[str, Any], result: dict[str, Any], out: Path, log: Path,
            base: str, wall: float) -> str:
    elapsed = float(stats.get("elapsed_time_seconds") or wall)
    pages = int(stats.get("response_received_count", 0))
    extract_s = float(stats.get("newscrawl/extract_ms", 0.0)) / 1e3
    drops = {k.split("/", 2)[2]: v for k, v in stats.items()
             if k.startswith("newscrawl/dropped/")}
    drop_text = " · ".join(f"{k} {v}" for k, v in sorted(drops.items(), key=lambda kv: -kv[1]))
    lines = [
        f"newscrawl demo: sample site {base} ({result['articles']} articles)",
        f"  articles written   {stats.get('item_scraped_count', 0)} -> {out}",
        f"  found / missing    {result['found']} / {len(result['missing'])}"
        + (f"  {result['missing'][:3]}" if result["missing"] else ""),
        f"  non-articles out   {len(result['not_articles_exported'])}"
        f"   repeats {result['repeats']}",
        f"  text F1            mean {result['f1_mean']:.3f}  min {result['f1_min']:.3f}"
        "  (word bags; character bags for Chinese)",
        f"  drops by reason    {drop_text or 'none'}",
        f"  speed              {pages} pages in {elapsed:.1f} s = {pages / elapsed:.1f} pages/s;"
        f" extraction {extract_s:.2f} s ({100 * extract_s / elapsed:.0f}% of crawl time)",
        f"  model              {stats.get('newscrawl/model_version', '?')}"
        f"   finish reason {stats.get('finish_reason', '?')}",
        f"  log                {log}",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    log = out.with_suffix(".log")
    stats_file = out.with_suffix(".stats.json")
    extra = dict(s.split("=", 1) for s in args.set)
    with tempfile.TemporaryDirectory(prefix="newscrawl-site-") as tmp:
        manifest = json.loads(json.dumps(build_site(tmp, n_articles=args.articles).__dict__))
        with SiteServer(Path(tmp) / "site", port=args.port) as base:
            print(f"serving the sample site on {base}; crawling (log: {log}) ...", flush=True)
            t0 = time.perf_counter()
            proc = subprocess.run(crawl_command(base, out, stats_file, log, extra),
                                  env=crawl_env(), check=False)
            wall = time.perf_counter() - t0
    if proc.returncode != 0 or not stats_file.is_file():
        print(f"crawl failed (exit {proc.returncode}); see {log}", file=sys.stderr)
        return proc.returncode or 1
    stats = json.loads(stats_file.read_text("utf-8"))
    items = [json.loads(line) for line in out.read_text("utf-8").splitlines() if line.strip()]
    print(summary(stats, score(items, manifest), out, log, base, wall))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.demo", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
