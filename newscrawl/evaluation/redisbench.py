"""Shared-crawl benchmark: a generated localhost site crawled through one Redis frontier by one
worker, then by two, then, as the peer for the extraction threads, by one worker without
Redis pinned to 1 core and to 2 cores (``taskset``), extraction threads on and off.

Prints pages/s, each worker's peak RSS (Scrapy's ``memusage/max``), Redis's memory per 1,000
requests seen (``INFO memory``, peak over the crawl, less the empty server's) projected to 10
million, and what stays in Redis once the crawl is done (fingerprints, exported URLs and text
hashes).

    python -m newscrawl.evaluation.redisbench --articles 16000 [--workers 1,2]
        [--parts shared,cores] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import redis

from newscrawl.demo import crawl_command, crawl_env
from newscrawl.evaluation.crawlbench import BENCH_SETTINGS
from newscrawl.evaluation.redisserver import RedisServer
from newscrawl.sample_site import SiteServer, build_site

RUN_SETTINGS = {"CLOSESPIDER_TIMEOUT": "3600", "MEMUSAGE_ENABLED": "1",
                "MEMUSAGE_CHECK_INTERVAL_SECONDS": "2"}
SHARED_SETTINGS = {"MAX_IDLE_TIME_BEFORE_CLOSE": "2"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--articles", type=int, default=16000,
                        help="articles of the generated site (its pages are ~1.25 times as "
                             "many; default %(default)s, ~20,000 pages)")
    parser.add_argument("--workers", default="1,2",
                        help="shared runs: how many workers each (default %(default)s)")
    parser.add_argument("--parts", default="shared,cores",
                        help="shared (1 and 2 workers on Redis), cores (1 worker without "
                             "Redis on 1 and 2 cores); default %(default)s")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _start(base: str, work: Path, tag: str, settings: dict[str, str],
           cpus: str | None = None) -> subprocess.Popen[bytes]:
    out, stats_file, log = (work / f"{tag}{ext}" for ext in (".jsonl", ".stats.json", ".log"))
    cmd = crawl_command(base, out, stats_file, log, {**BENCH_SETTINGS, **RUN_SETTINGS, **settings})
    if cpus is not None:
        cmd = ["taskset", "-c", cpus, *cmd]
    return subprocess.Popen(cmd, env=crawl_env(), stdout=subprocess.DEVNULL)


def _result(work: Path, tag: str) -> dict[str, Any]:
    stats = json.loads((work / f"{tag}.stats.json").read_text("utf-8"))
    pages = int(stats.get("newscrawl/pages", 0))
    return {"pages": pages, "articles": int(stats.get("item_scraped_count", 0)),
            "elapsed_s": float(stats["elapsed_time_seconds"]),
            "peak_rss_mb": int(stats.get("memusage/max", 0)) / 2**20,
            "startup_rss_mb": int(stats.get("memusage/startup", 0)) / 2**20,
            "reclaimed": int(stats.get("frontier/reclaimed", 0))}


def _rss_mb(pid: int) -> float | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None


def _crawl(base: str, work: Path, tags: list[str], settings: dict[str, str],
           cpus: str | None = None) -> dict[str, Any]:
    """Run one worker per tag at once; pages/s is all their pages over the wall time. Each
    worker's RSS is sampled every 2 s, to show whether it grows with the crawl."""
    t0 = time.monotonic()
    procs = [_start(base, work, tag, settings, cpus) for tag in tags]
    samples: list[list[float]] = [[] for _ in procs]
    while any(p.poll() is None for p in procs):
        for proc, series in zip(procs, samples, strict=True):
            if proc.poll() is None and (rss := _rss_mb(proc.pid)) is not None:
                series.append(rss)
                if len(series) % 30 == 0:  # a trace for a run cut short
                    print(f"{time.monotonic() - t0:.0f} s: worker {proc.pid} RSS {rss:.0f} MB",
                          file=sys.stderr, flush=True)
        time.sleep(2)
    if any(p.returncode != 0 for p in procs):
        raise RuntimeError(f"a worker failed; see {work}/*.log")
    wall = time.monotonic() - t0
    workers = [_result(work, tag) for tag in tags]
    for worker, series in zip(workers, samples, strict=True):
        worker["rss_quarters_mb"] = [series[min(len(series) - 1, len(series) * k // 4)]
                                     for k in (1, 2, 3, 4)] if series else []
    pages = sum(w["pages"] for w in workers)
    return {"workers": workers, "pages": pages, "wall_s": wall, "pages_per_s": pages / wall,
            "articles": sum(w["articles"] for w in workers)}


def _redis_memory(server: redis.Redis) -> dict[str, int]:
    info = server.info("memory")
    return {"used": int(info["used_memory"]), "peak": int(info["used_memory_peak"])}


def _shared(base: str, work: Path, url: str, n_workers: int) -> dict[str, Any]:
    server = redis.Redis.from_url(url)
    server.flushall()
    server.config_set("maxmemory-policy", "noeviction")
    server.memory_purge()
    empty = _redis_memory(server)["used"]
    server.config_resetstat()
    tags = [f"shared{n_workers}-{k}" for k in range(n_workers)]
    result = _crawl(base, work, tags, {**SHARED_SETTINGS, "REDIS_URL": url})
    memory = _redis_memory(server)
    seen = int(server.scard("news:dupefilter"))
    result.update(
        requests_seen=seen,
        redis_peak_bytes_per_1000=(memory["peak"] - empty) / seen * 1000 if seen else None,
        redis_kept_bytes_per_1000=(memory["used"] - empty) / seen * 1000 if seen else None,
        exported_urls=int(server.scard("news:exported:urls")),
        left_queued=int(server.zcard("news:requests")),
        left_leased=int(server.zcard("news:leases")))
    return result


def bench(n_articles: int, parts: set[str], workers: tuple[int, ...] = (1, 2)
          ) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="newscrawl-redisbench-") as tmp:
        work = Path(tmp)
        manifest = build_site(work, n_articles=n_articles)
        result: dict[str, Any] = {
            "site_pages": len(manifest.articles) + len(manifest.non_articles),
            "site_articles": len(manifest.articles)}
        with SiteServer(work / "site") as base, RedisServer(work / "redis") as url:
            if "shared" in parts:
                for n in workers:
                    result[f"{n}_workers"] = _shared(base, work, url, n)
            if "cores" in parts and shutil.which("taskset"):
                result["cores"] = {
                    f"{n}_core_{label}": _crawl(base, work, [f"c{n}{label}"], {
                        "NEWSCRAWL_EXTRACTION_THREADS": threads}, cpus)
                    for n, cpus in ((1, "0"), (2, "0,1"))
                    for label, threads in (("threads", "-1"), ("reactor", "0"))}
    return result


def render(result: dict[str, Any]) -> str:
    lines = [f"redis bench: generated site of {result['site_pages']} pages "
             f"({result['site_articles']} articles), 127.0.0.1, one Redis (AOF)"]
    for key, r in result.items():
        if not key.endswith("_workers"):
            continue
        label = f"{key.split('_')[0]} worker(s)"
        rss = ", ".join(f"{w['peak_rss_mb']:.0f} (at 1/4, 1/2, 3/4, end of the run: "
                        + "/".join(f"{x:.0f}" for x in w["rss_quarters_mb"]) + ")"
                        for w in r["workers"])
        lines.append(f"  {label}  {r['pages_per_s']:6.1f} pages/s  ({r['pages']} pages, "
                     f"{r['articles']} articles, {r['wall_s']:.1f} s); peak RSS per worker "
                     f"{rss} MB")
        if r["redis_peak_bytes_per_1000"] is not None:
            peak, kept = r["redis_peak_bytes_per_1000"], r["redis_kept_bytes_per_1000"]
            lines.append(
                f"             Redis {peak / 1024:.0f} KiB per 1,000 requests seen at peak "
                f"({r['requests_seen']} seen) -> {peak * 1e4 / 2**30:.1f} GiB at 10 million; "
                f"{kept / 1024:.0f} KiB kept after -> {kept * 1e4 / 2**30:.1f} GiB")
    if (one := result.get("1_workers")) and (two := result.get("2_workers")):
        lines.append(f"  2 workers / 1 worker: {two['pages_per_s'] / one['pages_per_s']:.2f}x")
    if cores := result.get("cores"):
        lines.append("one worker without Redis, pinned with taskset:")
        for key, r in cores.items():
            lines.append(f"  {key:<18} {r['pages_per_s']:6.1f} pages/s  ({r['pages']} pages,"
                         f" {r['wall_s']:.1f} s, peak RSS {r['workers'][0]['peak_rss_mb']:.0f}"
                         " MB)")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    result = bench(args.articles, set(args.parts.split(",")),
                   tuple(int(n) for n in args.workers.split(",")))
    print(json.dumps(result, indent=1) if args.json else render(result))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.evaluation.redisbench",
                                     description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
