"""Build a dataset from crawl feeds in two streaming passes.

Why two passes: "of each group of copies the earliest published stays" cannot be decided
while reading, since the earliest copy may come last (a wire story crawled from a late
syndicator first). Pass 1 reads every line, applies the filters and keeps, per usable
article, a few numbers in compact arrays (line number, published and crawl times, split,
two 64-bit keys) and its MinHash signature in a temporary file. Between the passes the
groups are formed (exact text, canonical URL, near duplicates; connected components, so a
chain of near copies is one group) and one article of each is chosen: earliest published,
then earliest crawled, then first read; an undated article loses to a dated one. Pass 2
reads the inputs again and writes only the chosen lines. The arrays hold ~42 bytes an
article; the inputs must be files that can be read twice (not a pipe).

Splits are decided by a stable hash of the site (or of the canonical URL), never by position,
so a rebuild with more input puts every article that stays where it was. The number of rows
of each split is known after pass 1, which is what lets the shard files be named
``<split>-NNNNN-of-NNNNN`` as they are written.
"""

from __future__ import annotations

import hashlib
import math
import tempfile
from array import array
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from newscrawl.dataset import minhash
from newscrawl.dataset.records import (
    NO_DATE,
    SCHEMA,
    Inputs,
    canonical_url,
    content_hash,
    identity,
    key64,
    language,
    parse,
    row,
    site,
    timestamp_us,
    words,
)

if TYPE_CHECKING:
    from collections.abc import Callable

BATCH = 1024
ROW_GROUP = 2000
DUPLICATE_REASONS = ("duplicate_text", "duplicate_url", "near_duplicate")


@dataclass
class Options:
    """What goes into the dataset and how it is split."""

    min_words: int = 0
    languages: frozenset[str] | None = None
    since: date | None = None
    until: date | None = None
    sites: frozenset[str] | None = None
    near_dup: float = 0.8
    splits: list[tuple[str, float]] = field(
        default_factory=lambda: [("train", 0.98), ("validation", 0.01), ("test", 0.01)])
    split_by: str = "site"
    shard_rows: int = 100_000

    def rejects(self, rec: dict[str, Any], published_us: int | None) -> str | None:
        """Why a usable record is filtered out, or None."""
        if self.min_words and words(rec) < self.min_words:
            return "too_short"
        if self.languages is not None and language(rec) not in self.languages:
            return "language"
        if self.sites is not None and site(rec).lower() not in self.sites:
            return "site"
        if self.since or self.until:
            if published_us is None:
                return "no_published"
            day = datetime.fromtimestamp(published_us / 1e6, UTC).date()
            if self.since and day < self.since:
                return "before_since"
            if self.until and day > self.until:
                return "after_until"
        return None

    def split_of(self, key: str) -> int:
        """Index of the split a site or URL belongs to: its sha1 as a number in [0, 1)."""
        u = int.from_bytes(hashlib.sha1(key.encode("utf-8")).digest()[:8], "big") / 2**64
        total = 0.0
        for i, (_, share) in enumerate(self.splits):
            total += share
            if u < total:
                return i
        return len(self.splits) - 1


@dataclass
class Seen:
    """Pass 1's compact memory of the usable articles, one entry each, in reading order."""

    line: array = field(default_factory=lambda: array("q"))
    published: array = field(default_factory=lambda: array("q"))
    crawled: array = field(default_factory=lambda: array("q"))
    split: array = field(default_factory=lambda: array("B"))
    text_key: array = field(default_factory=lambda: array("Q"))
    url_key: array = field(default_factory=lambda: array("Q"))

    def __len__(self) -> int:
        return len(self.line)


class Counts:
    """Running counts for progress and the final report."""

    def __init__(self) -> None:
        self.read = 0
        self.reread = 0
        self.usable = 0
        self.written = 0
        self.dropped: Counter[str] = Counter()


def _components(n: int, pairs: np.ndarray) -> np.ndarray:
    """Label of each of ``n`` items: the lowest item of its connected component."""
    label = np.arange(n, dtype=np.int64)
    if not len(pairs):
        return label
    a, b = pairs[:, 0], pairs[:, 1]
    while True:
        low = np.minimum(label[a], label[b])
        before = label.copy()
        np.minimum.at(label, a, low)
        np.minimum.at(label, b, low)
        while True:
            jumped = label[label]
            if np.array_equal(jumped, label):
                break
            label = jumped
        if np.array_equal(label, before):
            return label


def _exact_pairs(keys: np.ndarray) -> np.ndarray:
    """``(first, later)`` pairs of items with equal keys, ``first`` the lowest of its group."""
    order = np.argsort(keys, kind="stable")
    k = keys[order]
    same = np.flatnonzero(k[1:] == k[:-1]) + 1
    starts = np.ones(len(k), bool)
    starts[same] = False
    head = np.maximum.accumulate(np.where(starts, np.arange(len(k)), 0))
    return np.stack([order[head[same]], order[same]], axis=1).astype(np.int64)


def choose(seen: Seen, sig: np.ndarray | None, has_sig: np.ndarray,
           near_dup: float) -> tuple[np.ndarray, np.ndarray]:
    """Which articles stay (mask) and, for the others, the reason (index into
    :data:`DUPLICATE_REASONS`, -1 for those that stay)."""
    n = len(seen)
    text_key = np.frombuffer(seen.text_key, np.uint64) if n else np.zeros(0, np.uint64)
    url_key = np.frombuffer(seen.url_key, np.uint64) if n else np.zeros(0, np.uint64)
    text_pairs, url_pairs = _exact_pairs(text_key), _exact_pairs(url_key)
    near = np.zeros((0, 2), np.int64)
    if sig is not None and n and near_dup <= 1:
        near = minhash.candidate_pairs(sig, has_sig)
        near = near[minhash.similar(sig, near, near_dup)]
    label = _components(n, np.concatenate([text_pairs, url_pairs, near]))
    published, crawled = (np.frombuffer(a, np.int64) if n else np.zeros(0, np.int64)
                          for a in (seen.published, seen.crawled))
    order = np.lexsort((np.arange(n), crawled, published, label))
    first = np.ones(n, bool)
    first[1:] = label[order][1:] != label[order][:-1]
    keep = np.zeros(n, bool)
    keep[order[first]] = True
    reason = np.full(n, 2, np.int8)
    in_url_group = np.zeros(n, bool)
    in_url_group[url_pairs.ravel()] = True
    in_text_group = np.zeros(n, bool)
    in_text_group[text_pairs.ravel()] = True
    reason[in_url_group] = 1
    reason[in_text_group] = 0
    reason[keep] = -1
    return keep, reason


class ShardWriter:
    """``data/<split>-NNNNN-of-NNNNN.parquet`` files of one split, ``rows`` rows in all."""

    def __init__(self, directory: Path, split: str, rows: int, shard_rows: int):
        self.directory, self.split, self.rows = directory, split, rows
        self.shards = max(1, math.ceil(rows / shard_rows))
        self.shard_rows = shard_rows
        self.buffer: list[dict[str, Any]] = []
        self.in_shard = 0
        self.shard = 0
        self.writer: pq.ParquetWriter | None = None
        self.written = 0

    def path(self, shard: int) -> Path:
        return self.directory / f"{self.split}-{shard:05d}-of-{self.shards:05d}.parquet"

    def add(self, values: dict[str, Any]) -> None:
        self.buffer.append(values)
        if len(self.buffer) >= ROW_GROUP or self.in_shard + len(self.buffer) >= self.shard_rows:
            self._flush()

    def _flush(self) -> None:
        while self.buffer:
            if self.writer is None:
                self.writer = pq.ParquetWriter(self.path(self.shard), SCHEMA, compression="zstd")
            room = self.shard_rows - self.in_shard
            part, self.buffer = self.buffer[:room], self.buffer[room:]
            columns = {name: [r[name] for r in part] for name in SCHEMA.names}
            self.writer.write_batch(pa.RecordBatch.from_pydict(columns, schema=SCHEMA))
            self.in_shard += len(part)
            self.written += len(part)
            if self.in_shard >= self.shard_rows:
                self.writer.close()
                self.writer, self.in_shard = None, 0
                self.shard += 1

    def close(self) -> None:
        self._flush()
        if self.writer is not None:
            self.writer.close()
        elif self.written == 0:
            pq.write_table(SCHEMA.empty_table(), self.path(0), compression="zstd")
        if self.written != self.rows:
            raise RuntimeError(f"{self.split}: wrote {self.written} rows, expected {self.rows}"
                               " (did an input change between the two passes?)")


class Summary:
    """Counts of the rows written, by language, site, month, split; crawl and model."""

    def __init__(self) -> None:
        self.languages: Counter[str] = Counter()
        self.sites: Counter[str] = Counter()
        self.months: Counter[str] = Counter()
        self.models: Counter[str] = Counter()
        self.words = 0
        self.crawled: list[int] = []
        self.published: list[int] = []

    def add(self, values: dict[str, Any]) -> None:
        self.languages[language(values) or "unknown"] += 1
        self.sites[values["site"] or "unknown"] += 1
        pub = values["published"]
        self.months[_iso(pub)[:7] if pub is not None else "unknown"] += 1
        self.models[values["model_version"] or "unknown"] += 1
        self.words += values["words"]
        for span, value in ((self.crawled, values["crawled_at"]), (self.published, pub)):
            if value is not None:
                span[:] = [min(span[0], value), max(span[1], value)] if span else [value, value]


def _iso(us: int) -> str:
    return datetime.fromtimestamp(us / 1e6, UTC).isoformat().replace("+00:00", "Z")


def build(paths: list[Path], out: Path, options: Options,
          progress: Callable[[str, Inputs, Counts], None] | None = None) -> dict[str, Any]:
    """Read the feeds at ``paths``, write the dataset under ``out``; return its stats."""
    inputs = Inputs(paths)
    counts = Counts()
    seen = Seen()
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    for old in data.glob("*-?????-of-?????.parquet"):
        old.unlink()
    split_cache: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="newscrawl-dataset-", dir=out) as tmp:
        sig_path = Path(tmp) / "signatures.u32"
        has_sig = array("B")
        with open(sig_path, "wb") as sig_file:
            batch: list[str] = []

            def sign() -> None:
                sig, has = minhash.signatures(batch)
                sig_file.write(sig.tobytes())
                has_sig.extend(has.astype(np.uint8).tobytes())
                batch.clear()

            for line_no, line in enumerate(inputs.lines()):
                counts.read += 1
                rec, why = parse(line)
                if rec is None:
                    counts.dropped[why] += 1
                else:
                    published = timestamp_us(rec.get("published"))
                    why = options.rejects(rec, published)
                    if why:
                        counts.dropped[why] += 1
                    else:
                        counts.usable += 1
                        canon = canonical_url(rec)
                        split_key = site(rec) if options.split_by == "site" else canon
                        split = split_cache.get(split_key)
                        if split is None:
                            split = split_cache.setdefault(split_key,
                                                           options.split_of(split_key))
                        seen.line.append(line_no)
                        seen.published.append(NO_DATE if published is None else published)
                        crawled = timestamp_us(rec.get("crawled_at"))
                        seen.crawled.append(NO_DATE if crawled is None else crawled)
                        seen.split.append(split)
                        seen.text_key.append(key64(content_hash(rec)))
                        seen.url_key.append(key64(identity(rec)))
                        batch.append(rec["text"])
                        if len(batch) >= BATCH:
                            sign()
                if progress and counts.read % 256 == 0:
                    progress("reading", inputs, counts)
            if batch:
                sign()
        n = len(seen)
        sig = (np.memmap(sig_path, np.uint32, "r", shape=(n, minhash.NUM_PERM)) if n else None)
        keep, reason = choose(seen, sig, np.frombuffer(has_sig, np.uint8).astype(bool),
                              options.near_dup)
        del sig
    for i, name in enumerate(DUPLICATE_REASONS):
        counts.dropped[name] += int((reason == i).sum())
    split_of_kept = np.frombuffer(seen.split, np.uint8)[keep] if n else np.zeros(0, np.uint8)
    lines_kept = np.frombuffer(seen.line, np.int64)[keep] if n else np.zeros(0, np.int64)
    names = [name for name, _ in options.splits]
    writers = [ShardWriter(data, name, int((split_of_kept == i).sum()), options.shard_rows)
               for i, name in enumerate(names)]
    summary = Summary()
    per_split: list[Summary] = [Summary() for _ in names]
    nxt = 0
    for line_no, line in enumerate(inputs.lines()):
        if nxt < len(lines_kept) and line_no == lines_kept[nxt]:
            rec, _ = parse(line)
            values = row(rec)
            split = int(split_of_kept[nxt])
            writers[split].add(values)
            summary.add(values)
            per_split[split].add(values)
            counts.written += 1
            nxt += 1
        counts.reread = line_no + 1
        if progress and line_no % 256 == 0:
            progress("writing", inputs, counts)
    for w in writers:
        w.close()
    return _stats(paths, inputs, options, counts, summary, per_split, writers)


def _span(values: list[int]) -> dict[str, str] | None:
    return {"first": _iso(values[0]), "last": _iso(values[1])} if values else None


def _stats(paths: list[Path], inputs: Inputs, options: Options, counts: Counts,
           summary: Summary, per_split: list[Summary],
           writers: list[ShardWriter]) -> dict[str, Any]:
    bad = ("not_json", "no_text")
    return {
        "inputs": [str(p) for p in paths],
        "unreadable_inputs": inputs.unreadable,
        "options": {
            "min_words": options.min_words,
            "languages": sorted(options.languages) if options.languages else None,
            "since": options.since.isoformat() if options.since else None,
            "until": options.until.isoformat() if options.until else None,
            "sites": sorted(options.sites) if options.sites else None,
            "near_dup": options.near_dup, "splits": dict(options.splits),
            "split_by": options.split_by, "shard_rows": options.shard_rows,
            "minhash": {"num_perm": minhash.NUM_PERM, "bands": minhash.BANDS,
                        "rows": minhash.ROWS, "shingle": minhash.SHINGLE},
        },
        "lines_read": counts.read,
        "bad_lines": {k: counts.dropped[k] for k in bad if counts.dropped[k]},
        "filtered": {k: v for k, v in sorted(counts.dropped.items())
                     if k not in bad and k not in DUPLICATE_REASONS},
        "duplicates": {k: counts.dropped[k] for k in DUPLICATE_REASONS},
        "articles": counts.written,
        "words": summary.words,
        "splits": {w.split: {"articles": w.written, "shards": w.shards, "words": s.words,
                             "sites": len(s.sites)}
                   for w, s in zip(writers, per_split, strict=True)},
        "languages": dict(summary.languages.most_common()),
        "sites": dict(summary.sites.most_common()),
        "months": dict(sorted(summary.months.items())),
        "crawled": _span(summary.crawled),
        "published": _span(summary.published),
        "model_versions": dict(summary.models.most_common()),
    }
