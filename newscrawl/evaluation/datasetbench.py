"""Benchmark of ``newscrawl dataset``: near-duplicate detection and end-to-end speed.

1. Pairs: generated articles of ~500 words on a few topics (topic words and common words
   drawn by Zipf's law, so articles of one topic share many words), each with a copy in
   which 1-5 % of the words are edited (replaced, inserted or deleted), and pairs of unrelated
   articles of the same topic that share up to 40 % of their words as one passage (a quote,
   boilerplate, a background paragraph). The exact Jaccard similarity of their 5-gram shingle
   sets is the truth. For each MinHash library, on the same pairs: recall (pairs found among
   those of Jaccard >= 0.85), false merges (unrelated pairs found), and signatures per second on one
   core. A pair is found as the build finds it: sharing one of 21 bands of 6 rows and a
   MinHash estimate >= 0.8; datasketch is also measured with its own ``MinHashLSH``.
2. End to end: ``newscrawl dataset`` in a subprocess over a generated feed (~10 % near copies
   on other sites, ~5 % exact repeats), with its articles per second of wall time and of CPU
   time, and its peak RSS; a small run gives the fixed part of the memory, from which the
   memory at 10 million articles is projected linearly. Reading and parsing the same feed
   twice (what the two passes cannot avoid) is timed as the peer in the same run.

    python -m newscrawl.evaluation.datasetbench [--pairs 3000] [--articles 100000] [--json]
"""

from __future__ import annotations

import argparse
import bisect
import hashlib
import itertools
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from newscrawl.dataset import minhash

TOPICS = 20
THRESHOLD = 0.8


class Writer:
    """Articles of ~500 words on one of a few topics, reproducible from a seed."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        letters = "abcdefghijklmnopqrstuvwxyz"
        self.common = [self._word(letters) for _ in range(3000)]
        self.topics = [[self._word(letters) for _ in range(2000)] for _ in range(TOPICS)]
        self.common_cum = list(itertools.accumulate(1 / (i + 1) for i in range(3000)))
        self.topic_cum = list(itertools.accumulate(1 / (i + 1) for i in range(2000)))

    def _word(self, letters: str) -> str:
        return "".join(self.rng.choice(letters) for _ in range(self.rng.randint(2, 10)))

    def article(self, topic: int, n: int = 500) -> list[str]:
        rng = self.rng
        topic_words = self.topics[topic]
        out = []
        for _ in range(n):
            if rng.random() < 0.4:
                out.append(topic_words[bisect.bisect(self.topic_cum,
                                                     rng.random() * self.topic_cum[-1])])
            else:
                out.append(self.common[bisect.bisect(self.common_cum,
                                                     rng.random() * self.common_cum[-1])])
        return out

    def edit(self, words: list[str], share: float) -> list[str]:
        """A copy with ``share`` of its words replaced, inserted or deleted."""
        out = list(words)
        for _ in range(max(1, round(share * len(words)))):
            i = self.rng.randrange(len(out))
            kind = self.rng.random()
            if kind < 0.5:
                out[i] = self.rng.choice(self.common)
            elif kind < 0.75:
                out.insert(i, self.rng.choice(self.common))
            elif len(out) > 10:
                del out[i]
        return out


def _shingles(text: str) -> set[int]:
    return set(minhash.shingle_hashes(minhash.token_hashes(text)).tolist())


def _jaccard(a: str, b: str) -> float:
    sa, sb = _shingles(a), _shingles(b)
    return len(sa & sb) / len(sa | sb) if sa | sb else 1.0


def _found_by_bands(sa: np.ndarray, sb: np.ndarray) -> bool:
    shared = any(minhash.band_hashes(sa[None], b)[0] == minhash.band_hashes(sb[None], b)[0]
                 for b in range(minhash.BANDS))
    return shared and minhash.estimate(sa, sb) >= THRESHOLD


def make_pairs(n: int, seed: int = 1) -> list[tuple[str, str, str, float]]:
    """``(kind, a, b, exact Jaccard)`` for ``n`` edited copies and ``n`` unrelated pairs."""
    w = Writer(seed)
    pairs = []
    for i in range(n):
        topic = i % TOPICS
        base = w.article(topic)
        copy = w.edit(base, w.rng.uniform(0.01, 0.05))
        other = w.article(topic)
        shared = round(w.rng.uniform(0, 0.4) * len(other))  # quotes, boilerplate, background
        at = w.rng.randrange(len(base) - shared + 1)
        other[:shared] = base[at:at + shared]
        a, b, c = " ".join(base), " ".join(copy), " ".join(other)
        pairs.append(("edited", a, b, _jaccard(a, b)))
        pairs.append(("unrelated", a, c, _jaccard(a, c)))
    return pairs


def _rates(found: list[bool], pairs: list[tuple[str, str, str, float]]) -> dict[str, Any]:
    high = [f for f, p in zip(found, pairs, strict=True) if p[3] >= 0.85]
    mid = [f for f, p in zip(found, pairs, strict=True) if 0.5 <= p[3] < THRESHOLD]
    unrelated = [f for f, p in zip(found, pairs, strict=True) if p[0] == "unrelated"]
    return {"recall_at_0.85": sum(high) / len(high) if high else None, "pairs_at_0.85": len(high),
            "merged_0.5_to_0.8": sum(mid) / len(mid) if mid else None, "pairs_0.5_to_0.8": len(mid),
            "false_merges": sum(unrelated) / len(unrelated), "unrelated_pairs": len(unrelated),
            "max_unrelated_jaccard": max(p[3] for p in pairs if p[0] == "unrelated")}


def detection(n_pairs: int) -> dict[str, Any]:
    pairs = make_pairs(n_pairs)
    texts = [t for p in pairs for t in p[1:3]]
    results: dict[str, Any] = {}

    t0 = time.process_time()
    sig = np.concatenate([minhash.signatures(texts[i:i + 1024])[0]
                          for i in range(0, len(texts), 1024)])
    rensa_s = time.process_time() - t0
    found = [_found_by_bands(sig[2 * i], sig[2 * i + 1]) for i in range(len(pairs))]
    results["rensa"] = {**_rates(found, pairs), "signatures_per_s": len(texts) / rensa_s}

    try:
        import datasketch
    except ImportError:
        return results
    sample = texts[:min(len(texts), 2000)]
    t0 = time.process_time()
    for text in sample:
        m = datasketch.MinHash(num_perm=minhash.NUM_PERM, seed=1)
        m.update_batch([" ".join(s).encode() for s in _grams(minhash.tokens(text))])
    ds_rate = len(sample) / (time.process_time() - t0)
    # MinHashLSH's own bands for this threshold (what a query of the index would find)
    lsh = datasketch.MinHashLSH(threshold=THRESHOLD, num_perm=minhash.NUM_PERM)
    found_ds, found_lsh = [], []
    for _, a, b, _j in pairs:
        ma, mb = (datasketch.MinHash(num_perm=minhash.NUM_PERM, seed=1) for _ in range(2))
        ma.update_batch([" ".join(s).encode() for s in _grams(minhash.tokens(a))])
        mb.update_batch([" ".join(s).encode() for s in _grams(minhash.tokens(b))])
        va, vb = ma.hashvalues.astype(np.uint32), mb.hashvalues.astype(np.uint32)
        found_ds.append(_found_by_bands(va, vb))
        found_lsh.append(any(np.array_equal(va[i * lsh.r:(i + 1) * lsh.r],
                                            vb[i * lsh.r:(i + 1) * lsh.r]) for i in range(lsh.b)))
    results["datasketch"] = {**_rates(found_ds, pairs), "signatures_per_s": ds_rate}
    results[f"datasketch_MinHashLSH_b{lsh.b}_r{lsh.r}"] = _rates(found_lsh, pairs)
    return results


def _grams(tokens: list[str]) -> list[list[str]]:
    n = max(1, len(tokens) - minhash.SHINGLE + 1)
    return [tokens[i:i + minhash.SHINGLE] for i in range(n)]


def write_feed(path: Path, n: int, seed: int = 2) -> None:
    """``n`` feed lines: ~85 % distinct articles, ~10 % edited copies on another site
    published earlier or later, ~5 % exact repeats under a new URL."""
    w = Writer(seed)
    kept: list[str] = []
    with path.open("w", encoding="utf-8") as f:
        for i in range(n):
            roll = w.rng.random()
            if kept and roll < 0.10:
                text = " ".join(w.edit(w.rng.choice(kept).split(), w.rng.uniform(0.01, 0.05)))
            elif kept and roll < 0.15:
                text = w.rng.choice(kept)
            else:
                text = " ".join(w.article(i % TOPICS))
                if len(kept) < 5000:
                    kept.append(text)
                else:
                    kept[w.rng.randrange(5000)] = text
            site = f"site{w.rng.randrange(200)}.example"
            day = 1 + w.rng.randrange(28)
            f.write(json.dumps({
                "url": f"https://{site}/news/{i}", "canonical_url": f"https://{site}/news/{i}",
                "title": f"Article {i}", "text": text, "language": "en",
                "crawled_at": f"2026-03-{day:02d}T12:00:00Z",
                "model_version": "nodes-v1", "words": len(text.split()), "site": site,
                "authors": ["A. Writer"], "published": f"2026-02-{day:02d}T08:00:00+01:00",
                "tags": ["news"], "description": None,
                "content_hash": hashlib.sha1(text.encode()).hexdigest()}) + "\n")


def _run(feed: Path, out: Path) -> dict[str, Any]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(feed), str(out)], check=True,
                          capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    child = json.loads(proc.stdout)
    return {"wall_s": wall, "cpu_s": cpu, "peak_rss_mb": child["peak_rss_kb"] / 1024,
            "articles_kept": child["articles"], "duplicates": child["duplicates"]}


# the build in a fresh interpreter, so its peak RSS is its own
_CHILD = """
import json, resource, sys
from pathlib import Path
from newscrawl.dataset.build import Options, build
stats = build([Path(sys.argv[1])], Path(sys.argv[2]), Options())
print(json.dumps({"peak_rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "articles": stats["articles"], "duplicates": stats["duplicates"]}))
"""


def _parse_twice(feed: Path) -> float:
    t0 = time.process_time()
    for _ in range(2):
        with feed.open("rb") as f:
            for line in f:
                json.loads(line)
    return time.process_time() - t0


def end_to_end(n: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="datasetbench-") as tmp:
        work = Path(tmp)
        small_n = max(1000, n // 100)
        write_feed(work / "small.jsonl", small_n)
        write_feed(work / "feed.jsonl", n)
        small = _run(work / "small.jsonl", work / "small")
        big = _run(work / "feed.jsonl", work / "big")
        peer_cpu = _parse_twice(work / "feed.jsonl")
        per_article_mb = (big["peak_rss_mb"] - small["peak_rss_mb"]) / (n - small_n)
        signature_file_gb_10m = 10_000_000 * minhash.NUM_PERM * 4 / 1e9
        return {
            "articles": n, "feed_mb": (work / "feed.jsonl").stat().st_size / 1e6, **big,
            "articles_per_s_wall": n / big["wall_s"], "articles_per_s_cpu": n / big["cpu_s"],
            "peer_read_parse_twice_cpu_s": peer_cpu,
            "share_of_cpu_in_reading_twice": peer_cpu / big["cpu_s"],
            "small_run": {"articles": small_n, **small},
            "rss_bytes_per_article": per_article_mb * 1024 * 1024,
            "projected_peak_rss_gb_at_10M": (big["peak_rss_mb"] + per_article_mb
                                             * (10_000_000 - n)) / 1024,
            "signature_tempfile_gb_at_10M": signature_file_gb_10m,
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.evaluation.datasetbench",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3000)
    parser.add_argument("--articles", type=int, default=100_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    result = {"detection": detection(args.pairs), "end_to_end": end_to_end(args.articles)}
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    for lib, r in result["detection"].items():
        mid = r["merged_0.5_to_0.8"]
        rate = f", {r['signatures_per_s']:,.0f} signatures/s" if "signatures_per_s" in r else ""
        print(f"{lib}: recall at J>=0.85 {r['recall_at_0.85']:.4f} ({r['pairs_at_0.85']} pairs),"
              f" false merges {r['false_merges']:.4%} of {r['unrelated_pairs']} unrelated pairs"
              f" (max J {r['max_unrelated_jaccard']:.3f}), merged at 0.5<=J<0.8 "
              f"{'-' if mid is None else round(mid, 3)}"
              f" ({r['pairs_0.5_to_0.8']} pairs){rate}")
    e = result["end_to_end"]
    print(f"end to end: {e['articles']:,} articles ({e['feed_mb']:.0f} MB), kept "
          f"{e['articles_kept']:,}, removed {e['duplicates']}; {e['articles_per_s_wall']:,.0f}"
          f" articles/s wall, {e['articles_per_s_cpu']:,.0f} per CPU second; reading and "
          f"parsing the feed twice is {e['share_of_cpu_in_reading_twice']:.0%} of that CPU")
    print(f"memory: peak RSS {e['peak_rss_mb']:.0f} MB at {e['articles']:,} "
          f"({e['small_run']['peak_rss_mb']:.0f} MB at {e['small_run']['articles']:,}), "
          f"{e['rss_bytes_per_article']:.0f} bytes per article -> "
          f"{e['projected_peak_rss_gb_at_10M']:.1f} GB projected at 10,000,000, plus "
          f"{e['signature_tempfile_gb_at_10M']:.1f} GB of signatures in a temporary file")
    return 0


if __name__ == "__main__":
    sys.exit(main())
