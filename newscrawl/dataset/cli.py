"""``newscrawl dataset INPUT... --out DIR``: the command around :func:`build`.

Progress goes to stderr only when it is a terminal (one line, rewritten at most twice a
second); in a log or a pipe the command prints nothing but its one-line summary and errors.
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
import time
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from newscrawl.dataset.build import Options, build
from newscrawl.dataset.card import card

if TYPE_CHECKING:
    from newscrawl.dataset.build import Counts
    from newscrawl.dataset.records import Inputs

PROG = "newscrawl dataset"

EPILOG = """\
output (DIR):
  data/<split>-NNNNN-of-NNNNN.parquet   zstd Parquet shards, the feed's fields typed, plus id
  README.md                             dataset card with the header Hugging Face reads
  stats.json                            the counts of the card

Inputs are read twice (the earliest published copy of a story can come last), so they must
be files, not a pipe. Shards of an earlier build in DIR/data are replaced.

exit status: 0 when the dataset was written (even empty), 2 for usage errors.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = "Build a deduplicated Parquet dataset with splits and a card from " \
                         "crawl feeds (.jsonl, .jsonl.gz)."
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("inputs", nargs="+", metavar="INPUT",
                        help="crawl feed files or quoted globs (.jsonl, .jsonl.gz)")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR",
                        help="dataset directory (created; its old shards are replaced)")
    parser.add_argument("--min-words", type=int, default=0, metavar="N",
                        help="leave out articles shorter than N words (the feed's words)")
    parser.add_argument("--languages", metavar="en,de", help="keep these primary languages")
    parser.add_argument("--since", type=date.fromisoformat, metavar="YYYY-MM-DD",
                        help="keep articles published on or after this day")
    parser.add_argument("--until", type=date.fromisoformat, metavar="YYYY-MM-DD",
                        help="keep articles published on or before this day")
    parser.add_argument("--sites", metavar="a,b", help="keep these sites (site name or host)")
    parser.add_argument("--near-dup", type=float, default=0.8, metavar="J",
                        help="Jaccard similarity from which two articles are one (default "
                             "0.8; above 1 turns near-duplicate removal off)")
    parser.add_argument("--splits", default="train=0.98,validation=0.01,test=0.01",
                        metavar="NAME=SHARE,...",
                        help="split names and shares (default train=0.98,validation=0.01,"
                             "test=0.01)")
    parser.add_argument("--split-by", choices=("site", "url"), default="site",
                        help="what the split is a hash of (default site: no site in two "
                             "splits)")
    parser.add_argument("--shard-rows", type=int, default=100_000, metavar="N",
                        help="rows per Parquet file (default 100000)")
    parser.add_argument("--name", help="dataset name in the card (default: DIR's name)")


def _names(value: str | None) -> frozenset[str] | None:
    return frozenset(v.strip().lower() for v in value.split(",") if v.strip()) if value else None


def parse_splits(value: str) -> list[tuple[str, float]]:
    """``train=0.98,test=0.02`` as pairs; the shares must be positive and add up to 1."""
    splits = []
    for part in value.split(","):
        name, _, share = part.partition("=")
        name = name.strip()
        if not name.isidentifier() or not share:
            raise ValueError(f"--splits: {part!r} is not NAME=SHARE")
        splits.append((name, float(share)))
    if len({n for n, _ in splits}) != len(splits) or any(s <= 0 for _, s in splits):
        raise ValueError("--splits: names must differ and shares be positive")
    if abs(sum(s for _, s in splits) - 1) > 1e-6:
        raise ValueError("--splits: the shares must add up to 1")
    return splits


def expand(patterns: list[str]) -> list[Path]:
    """Files named or matched (globs sorted), each once; a pattern matching nothing is an
    error, as it is usually a typo."""
    paths: list[Path] = []
    for pattern in patterns:
        found = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        if pattern == "-" or any(Path(f).exists() and not Path(f).is_file() for f in found):
            raise ValueError(f"{pattern}: not a file; the build reads its inputs twice, so give "
                             "files, not a pipe or standard input")
        if not found or not all(Path(f).is_file() for f in found):
            raise ValueError(f"{pattern}: no such file")
        paths += [Path(f) for f in found if Path(f) not in paths]
    return paths


class Progress:
    """One status line on a terminal: lines read, kept, dropped by reason, rate, time left."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.start = time.monotonic()
        self.last = 0.0

    def __call__(self, stage: str, inputs: Inputs, counts: Counts) -> None:
        now = time.monotonic()
        if now - self.last < 0.5:
            return
        self.last = now
        elapsed = now - self.start
        # the work is reading the input twice; the second pass counts from half-way
        done = inputs.done_bytes + (inputs.total_bytes if stage == "writing" else 0)
        total = 2 * inputs.total_bytes
        left = ""
        if done and total:
            left = f", {(total - done) * elapsed / done:,.0f} s left ({100 * done / total:.0f}%)"
        dropped = ", ".join(f"{k} {v:,}" for k, v in counts.dropped.most_common(4) if v)
        self.stream.write(
            f"\r{stage}: read {counts.read:,} lines, usable {counts.usable:,}, "
            f"written {counts.written:,}{'; dropped ' + dropped if dropped else ''}; "
            f"{(counts.read + counts.reread) / elapsed if elapsed else 0:,.0f} lines/s"
            f"{left}\x1b[K")
        self.stream.flush()

    def end(self) -> None:
        self.stream.write("\r\x1b[K")
        self.stream.flush()


def run(args: argparse.Namespace) -> int:
    try:
        paths = expand(args.inputs)
        options = Options(
            min_words=args.min_words, languages=_names(args.languages), since=args.since,
            until=args.until, sites=_names(args.sites), near_dup=args.near_dup,
            splits=parse_splits(args.splits), split_by=args.split_by,
            shard_rows=args.shard_rows)
        if args.shard_rows < 1:
            raise ValueError("--shard-rows must be at least 1")
        if args.near_dup <= 0:
            raise ValueError("--near-dup must be above 0")
    except ValueError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    progress = Progress(sys.stderr) if sys.stderr.isatty() else None
    out: Path = args.out
    stats = build(paths, out, options, progress)
    if progress:
        progress.end()
    (out / "stats.json").write_text(json.dumps(stats, indent=2, ensure_ascii=False) + "\n",
                                    "utf-8")
    (out / "README.md").write_text(card(stats, args.name or out.resolve().name), "utf-8")
    for path, why in stats["unreadable_inputs"].items():
        print(f"{PROG}: {path}: stopped early: {why}", file=sys.stderr)
    removed = {**stats["bad_lines"], **stats["filtered"],
               **{k: v for k, v in stats["duplicates"].items() if v}}
    print(f"{PROG}: {stats['articles']:,} articles of {stats['lines_read']:,} lines in "
          + ", ".join(f"{k} {v['articles']:,}" for k, v in stats["splits"].items())
          + ("; left out: " + ", ".join(f"{k} {v:,}" for k, v in removed.items())
             if removed else ""), file=sys.stderr)
    return 0
