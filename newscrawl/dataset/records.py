"""Crawl feed lines in, typed dataset rows out: reading inputs, checking lines, filters.

Why it is built this way:

* Inputs are read as bytes, line by line, through the raw file's position, so progress (and
  the time left) is known from the bytes read of the files' total size, gzip included.
* A line is usable when it is a JSON object with a non-empty string ``text``; anything else
  is counted by reason (``not_json``, ``no_text``) and the run goes on. A file that stops in
  the middle of a gzip member keeps the lines read before the damage.
* The keys repeats are found by come from the line itself (``content_hash``,
  ``canonical_url``), as the crawl computed them; a line written by something else without
  them gets them from the crawl's own helpers, so both agree.
* Dates become UTC timestamps: a date-time without an offset and a bare date are taken as
  UTC (a bare date as its midnight), a value that is no ISO 8601 date becomes null.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import zlib
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any, BinaryIO
from urllib.parse import urlsplit

import pyarrow as pa

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

_TS = pa.timestamp("us", tz="UTC")
_STR = pa.string()
_LIST = pa.list_(pa.string())

SCHEMA = pa.schema([
    ("id", _STR), ("url", _STR), ("canonical_url", _STR), ("site", _STR), ("title", _STR),
    ("text", _STR), ("language", _STR), ("published", _TS), ("modified", _TS),
    ("crawled_at", _TS), ("authors", _LIST), ("tags", _LIST), ("words", pa.int32()),
    ("description", _STR), ("site_name", _STR), ("section", _STR), ("image", _STR),
    ("page_type", _STR), ("content_hash", _STR), ("model_version", _STR), ("encoding", _STR),
])
_PLAIN = ("url", "title", "text", "language", "description", "site_name", "section", "image",
          "page_type", "model_version", "encoding")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
NO_DATE = 2**63 - 1


class Inputs:
    """The input files, read one after the other, with the bytes read so far."""

    def __init__(self, paths: list[Path]):
        self.paths = paths
        self.total_bytes = sum(p.stat().st_size for p in paths)
        self.done_bytes = 0
        self.unreadable: dict[str, str] = {}

    def lines(self) -> Iterator[bytes]:
        """Every line of every file, in order; a damaged file ends early and is noted."""
        self.done_bytes = 0
        before = 0
        for path in self.paths:
            with open(path, "rb") as raw:
                stream: BinaryIO = (gzip.GzipFile(fileobj=raw) if path.name.endswith(".gz")
                                    else raw)  # type: ignore[assignment]
                try:
                    for line in stream:
                        self.done_bytes = before + raw.tell()
                        yield line
                except (OSError, EOFError, zlib.error) as e:
                    self.unreadable[str(path)] = f"{type(e).__name__}: {e}"
            before += path.stat().st_size
            self.done_bytes = before


def parse(line: bytes) -> tuple[dict[str, Any] | None, str | None]:
    """The record of a line, or None and why it is unusable."""
    try:
        rec = json.loads(line)
    except ValueError:
        return None, "not_json"
    if not isinstance(rec, dict):
        return None, "not_json"
    text = rec.get("text")
    if not isinstance(text, str) or not text.strip():
        return None, "no_text"
    return rec, None


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def canonical_url(rec: dict[str, Any]) -> str:
    """The URL a repeat is recognised by (the crawl's ``canonical_url``)."""
    value = _str(rec.get("canonical_url"))
    if value:
        return value
    url = _str(rec.get("url"))
    if not url:
        return ""  # not "/", which is what canonicalising nothing gives
    from newscrawl.pipelines import canonical  # lines not written by the crawl only
    return canonical(url)


def content_hash(rec: dict[str, Any]) -> str:
    """The crawl's normalised-text hash (``content_hash``)."""
    value = _str(rec.get("content_hash"))
    if value:
        return value
    from newscrawl.pipelines import text_hash  # lines not written by the crawl only
    return text_hash(rec["text"])


_MAX_WORDS = 2**31 - 1
"""The Parquet column is int32."""


def words(rec: dict[str, Any]) -> int:
    """The feed's word count when it is one (a finite count the column holds), else counted."""
    value = rec.get("words")
    if (isinstance(value, int | float) and not isinstance(value, bool)
            and math.isfinite(value) and 0 <= value <= _MAX_WORDS):
        return round(value)
    from newscrawl.pipelines import word_count  # lines not written by the crawl only
    return round(word_count(rec["text"]))


def site(rec: dict[str, Any]) -> str:
    """The site config's name, else the host (without ``www.``) of the URL."""
    return _str(rec.get("site")) or (
        urlsplit(_str(rec.get("url")) or "").hostname or "").removeprefix("www.")


def language(rec: dict[str, Any]) -> str | None:
    """The primary language subtag, lower-cased (``en`` for ``en-GB``)."""
    value = _str(rec.get("language"))
    return value.split("-")[0].split("_")[0].lower() if value else None


def timestamp_us(value: Any) -> int | None:
    """Microseconds since the epoch (UTC) of an ISO 8601 date or date-time, else None."""
    if not isinstance(value, str) or not value:
        return None
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        try:
            when = datetime.combine(date.fromisoformat(value.strip()[:10]), datetime.min.time())
        except ValueError:
            return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    delta = when - _EPOCH
    return (delta.days * 86400 + delta.seconds) * 1_000_000 + delta.microseconds


def identity(rec: dict[str, Any]) -> str:
    """What makes a record the same article across rebuilds: its canonical URL, or for a
    line without any URL its text's hash (an empty URL would make all of them one)."""
    return canonical_url(rec) or f"text:{content_hash(rec)}"


def stable_id(identity: str) -> str:
    """The row's id: the first 16 hex digits of the sha1 of its ``identity``, so the same
    article keeps its id when the dataset is rebuilt."""
    return hashlib.sha1(identity.encode("utf-8")).hexdigest()[:16]


def key64(value: str) -> int:
    """A 64-bit key for a hash or URL (exact repeats are grouped by it)."""
    return int.from_bytes(hashlib.blake2b(value.encode("utf-8"), digest_size=8).digest(), "big")


def _strings(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def row(rec: dict[str, Any]) -> dict[str, Any]:
    """The dataset row of a usable record, with the columns of :data:`SCHEMA`."""
    canon = canonical_url(rec)
    values = {name: _str(rec.get(name)) for name in _PLAIN}
    values.update(
        id=stable_id(identity(rec)), canonical_url=canon, site=site(rec),
        published=timestamp_us(rec.get("published")), modified=timestamp_us(rec.get("modified")),
        crawled_at=timestamp_us(rec.get("crawled_at")),
        authors=_strings(rec.get("authors")), tags=_strings(rec.get("tags")),
        words=words(rec), content_hash=content_hash(rec), text=rec["text"],
    )
    return values
