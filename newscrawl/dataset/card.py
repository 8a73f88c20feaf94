"""The dataset card: ``README.md`` with the YAML header Hugging Face ``datasets`` reads.

The header declares one config whose ``data_files`` map each split to its shards, the
languages (ISO 639 codes only; articles without one are counted in the body), a size
category and a licence placeholder: the texts belong to their publishers, and only the
person who publishes the dataset can say under what terms. The body repeats the counts of
``stats.json`` as tables so the card is readable without tools.
"""

from __future__ import annotations

import json
import re
from typing import Any

_CODE = re.compile(r"^[a-z]{2,3}$")
_SIZES = [(1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
          (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M"),
          (1_000_000_000, "100M<n<1B")]
TOP = 50


def size_category(n: int) -> str:
    """Hugging Face's ``size_categories`` value for ``n`` rows."""
    return next((name for limit, name in _SIZES if n < limit), "n>1T")


def _q(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)  # a JSON string is a YAML string


def header(stats: dict[str, Any], name: str) -> str:
    langs = [code for code in stats["languages"] if _CODE.match(code)]
    lines = ["---", f"pretty_name: {_q(name)}", "language:"]
    lines += [f"- {code}" for code in sorted(langs)] if langs else ["- und"]
    lines += [
        "license: other  # placeholder: the texts belong to their publishers; set the terms",
        "size_categories:", f"- {size_category(stats['articles'])}",
        "task_categories:", "- text-generation", "tags:", "- news", "- newscrawl",
        "configs:", "- config_name: default", "  data_files:",
    ]
    for split in stats["splits"]:
        lines += [f"  - split: {split}", f"    path: {_q(f'data/{split}-*.parquet')}"]
    lines.append("---")
    return "\n".join(lines) + "\n"


def _table(title: str, counts: dict[str, int], key: str, limit: int | None = None) -> list[str]:
    if not counts:
        return [f"### {title}", "", "none", ""]
    items = list(counts.items())
    shown = items[:limit] if limit else items
    rows = [f"### {title}", "", f"| {key} | articles |", "|---|---:|"]
    rows += [f"| {k} | {v:,} |" for k, v in shown]
    if len(items) > len(shown):
        rest = sum(v for _, v in items[len(shown):])
        rows.append(f"| {len(items) - len(shown):,} more | {rest:,} |")
    return [*rows, ""]


def card(stats: dict[str, Any], name: str) -> str:
    """The whole ``README.md``."""
    o = stats["options"]
    crawled, published = stats["crawled"], stats["published"]
    body = [
        f"# {name}", "",
        f"{stats['articles']:,} news articles ({stats['words']:,} words) built by "
        "`newscrawl dataset` from crawl feeds of newscrawl: main text and metadata, exact "
        "and near duplicates removed, split by "
        f"{'site (no site is in two splits)' if o['split_by'] == 'site' else 'canonical URL'}.",
        "",
        f"- Crawled: {crawled['first']} to {crawled['last']}" if crawled else "- Crawled: -",
        f"- Published: {published['first']} to {published['last']}" if published
        else "- Published: -",
        "- Extraction model: " + (", ".join(f"{k} ({v:,})" for k, v in
                                            stats["model_versions"].items()) or "-"),
        f"- Lines read: {stats['lines_read']:,}", "",
        "## Splits", "", "| split | articles | words | sites | shards |",
        "|---|---:|---:|---:|---:|",
    ]
    body += [f"| {k} | {v['articles']:,} | {v['words']:,} | {v['sites']:,} | {v['shards']} |"
             for k, v in stats["splits"].items()]
    body += ["", "## What was removed", ""]
    removed = {**stats["bad_lines"], **stats["filtered"], **stats["duplicates"]}
    body += _table("Lines and articles left out, by reason", removed, "reason")
    body += [
        "Bad lines are lines that are not a JSON object (`not_json`) or have no text "
        "(`no_text`). Duplicates: the same normalised text (`duplicate_text`), the same "
        "canonical URL (`duplicate_url`), or a MinHash estimate of the Jaccard similarity of "
        f"word 5-gram shingles of at least {o['near_dup']} (`near_duplicate`; characters for "
        "Chinese, Japanese, Thai...). Of each group of copies the earliest published, then "
        "first crawled, stays.", "",
        "Filters: " + json.dumps({k: o[k] for k in ("min_words", "languages", "since",
                                                    "until", "sites")}), "",
        "## Contents", "",
    ]
    body += _table("Languages", stats["languages"], "language")
    body += _table("Sites", stats["sites"], "site", TOP)
    body += _table("Months published", stats["months"], "month")
    body += [
        "## Fields", "",
        "The fields of newscrawl's JSONL feed (`article.schema.json`), typed: `published`, "
        "`modified` and `crawled_at` are UTC timestamps (a date without a time is its "
        "midnight UTC; an unreadable date is null), `authors` and `tags` lists of strings, "
        "`words` an integer; `id` is the first 16 hex digits of the sha1 of `canonical_url`, "
        "stable across rebuilds.", "",
        "## Licence", "",
        "The texts belong to their publishers. Set `license` in the header before sharing.",
        "", "All counts are also in `stats.json`.", "",
    ]
    return header(stats, name) + "\n" + "\n".join(body)
