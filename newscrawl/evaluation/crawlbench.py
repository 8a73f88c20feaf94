"""Crawl benchmark: a real ``scrapy crawl news`` over a generated localhost site of thousands
of pages, with extraction and, as the peer in the same run, without it.

Prints pages/s (median over interleaved repeats), the share of crawl time spent in extraction,
and extraction's own rate (pages per second of extraction time, i.e. per core: Scrapy runs
pipelines in its one reactor thread). The ratio of the two crawl rates says whether the
pipeline is the bottleneck. Then the crawl a schedule runs: the same crawl twice with
``NEWSCRAWL_EXPORTED_FILE``, the second finding nothing new, with the responses and time each took.

    python -m newscrawl.evaluation.crawlbench --articles 2000 --repeats 3 [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import median
from typing import Any

from newscrawl.demo import crawl_command, crawl_env
from newscrawl.sample_site import SiteServer, build_site

BENCH_SETTINGS = {"CONCURRENT_REQUESTS": "16", "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
                  "LOG_LEVEL": "INFO", "CLOSESPIDER_TIMEOUT": "900", "NEWSCRAWL_MIN_WORDS": "80",
                  # breadth over the whole site: depth is not what is measured here
                  "DEPTH_LIMIT": "0"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--articles", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _one(base: str, work: Path, tag: str, extraction: bool,
         settings: dict[str, str] | None = None) -> dict[str, Any]:
    out, stats_file, log = (work / f"{tag}{ext}" for ext in (".jsonl", ".stats.json", ".log"))
    feeds = json.dumps({str(out): {"format": "jsonlines", "overwrite": True,
                                   "item_classes": ["newscrawl.items.Article"]}})
    cmd = crawl_command(base, out, stats_file, log, {
        **BENCH_SETTINGS, "NEWSCRAWL_EXTRACTION_ENABLED": str(int(extraction)),
        "FEEDS": feeds, **(settings or {})})
    cmd = [c for c in cmd if c not in ("-O", f"{out}:jsonlines")]
    subprocess.run(cmd, env=crawl_env(), check=True)
    stats = json.loads(stats_file.read_text("utf-8"))
    pages = int(stats.get("newscrawl/pages", 0))
    elapsed = float(stats["elapsed_time_seconds"])
    extract_s = float(stats.get("newscrawl/extract_ms", 0.0)) / 1e3
    return {"pages": pages, "responses": int(stats.get("response_received_count", 0)),
            "articles": int(stats.get("item_scraped_count", 0)) if extraction else 0,
            "elapsed_s": elapsed, "pages_per_s": pages / elapsed,
            "extract_s": extract_s, "extract_share": extract_s / elapsed,
            "extract_pages_per_s": pages / extract_s if extract_s else None}


def bench(n_articles: int, repeats: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="newscrawl-bench-") as tmp:
        work = Path(tmp)
        manifest = build_site(work, n_articles=n_articles)
        runs: dict[str, list[dict[str, Any]]] = {"extract": [], "no_extract": []}
        with SiteServer(work / "site") as base:
            for r in range(repeats):  # interleaved, so drift hits both alike
                runs["extract"].append(_one(base, work, f"e{r}", True))
                runs["no_extract"].append(_one(base, work, f"n{r}", False))
            state = {"NEWSCRAWL_EXPORTED_FILE": str(work / "exported.json")}
            scheduled = [_one(base, work, f"s{r}", True, state) for r in range(2)]
    med = {k: {f: median(x[f] for x in v if x[f] is not None) for f in v[0]
               if any(x[f] is not None for x in v)} for k, v in runs.items()}
    return {"site_articles": len(manifest.articles),
            "site_pages": len(manifest.articles) + len(manifest.non_articles),
            "repeats": repeats, "median": med,
            "crawl_rate_ratio": med["extract"]["pages_per_s"] / med["no_extract"]["pages_per_s"],
            "runs": runs, "scheduled": scheduled}


def render(result: dict[str, Any]) -> str:
    e, n = result["median"]["extract"], result["median"]["no_extract"]
    return "\n".join([
        f"crawl bench: generated site of {result['site_pages']} pages "
        f"({result['site_articles']} articles), 127.0.0.1, medians of {result['repeats']} runs",
        f"  with extraction     {e['pages_per_s']:.1f} pages/s  ({e['pages']:.0f} pages,"
        f" {e['articles']:.0f} articles, {e['elapsed_s']:.1f} s)",
        f"  without (peer)      {n['pages_per_s']:.1f} pages/s  ({n['elapsed_s']:.1f} s)",
        f"  ratio               {result['crawl_rate_ratio']:.2f} of the peer's rate",
        f"  extraction share    {100 * e['extract_share']:.1f}% of crawl time",
        f"  extraction rate     {e['extract_pages_per_s']:.0f} pages/s per core "
        "(pages / seconds inside the pipeline)",
        "on a schedule (NEWSCRAWL_EXPORTED_FILE), the same crawl run twice:",
        *(f"  run {k}               {r['responses']} responses, {r['articles']} articles,"
          f" {r['elapsed_s']:.1f} s" for k, r in enumerate(result["scheduled"], 1)),
    ])


def run(args: argparse.Namespace) -> int:
    result = bench(args.articles, args.repeats)
    print(json.dumps(result, indent=1) if args.json else render(result))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.evaluation.crawlbench",
                                     description=__doc__.splitlines()[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
