"""Can a page's own signals say which of its title candidates a label set calls the title?

WCXB's title labels take the ``<h1>`` on some pages, the whole ``<title>`` on others, and one
segment of it (often the first, sometimes the brand) on others still, with nothing on the page
to say which. This measures how much of that is learnable, so a title target is judged against
what the labels allow and not against the rules alone:

- *rules*: ``extract_metadata``'s title, as ``metadata_eval`` scores it;
- *candidates hold the label*: the label is one of the page's candidates (each ``<h1>``, the
  ``<title>``, og:title or twitter:title, the JSON-LD headline, every run of their separated
  segments, the rules' title), so a chooser could reach it;
- *learned chooser*: gradient-boosted trees scoring each candidate from what the page shows
  (its sources, segment position, length, agreement with the ``<h1>``, whether it names the
  site, whether the page prints it), trained and scored on folds grouped by domain, with the
  rules' choice as a feature and without it. A chooser that finds no more than the rules means
  the misses are the labels' conventions, not signal the rules leave unused.

Analysis only: nothing here is shipped or read by the extractor.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter

import numpy as np
from lxml import etree

from newscrawl.evaluation.datasets import load_pages
from newscrawl.evaluation.metadata_eval import _fold
from newscrawl.extraction import metadata as meta_module
from newscrawl.extraction.decode import NotText, decode, readable
from newscrawl.extraction.parse import parse

FEATURES = (
    "rules", "h1", "first_h1", "title", "og_title", "headline", "segment", "first_segment",
    "last_segment", "segments", "pieces", "log_chars", "words", "has_digit", "equals_h1",
    "opens_h1", "h1_opens", "inside_h1", "holds_h1", "h1_jaccard", "names_site", "home_page",
    "og_article", "h1_count", "share_of_title", "separator_after", "separator_before",
    "inside_og", "inside_title", "question", "shown", "opens_rules", "inside_rules",
    "holds_rules",
)
_RULES_FEATURES = [FEATURES.index(f) for f in ("rules", "opens_rules", "inside_rules",
                                                "holds_rules")]
_SEPARATOR = re.compile("(" + "|".join(
    re.escape(s) for s in sorted(meta_module._TITLE_SEPARATORS, key=len, reverse=True)) + ")")
_SEPARATOR_CLASS = {" | ": 0, "｜": 0, " - ": 1, " – ": 1, " — ": 1, ": ": 2, "：": 2}
"""Pipe, dash, colon, other: the kind of break a labeller might cut at."""
_SHOWN_TAGS = ("h1", "h2", "h3", "p", "div", "span", "a", "strong", "b")
_MAX_CANDIDATE = 300
_PARAMS = {"objective": "binary:logistic", "max_depth": 3, "eta": 0.05, "subsample": 0.8,
           "colsample_bytree": 0.8, "nthread": 2}
_ROUNDS = 200


def _segment_runs(title: str):
    """Every run of consecutive segments short of the whole, with where it sits."""
    parts = _SEPARATOR.split(title)
    pieces, separators = [p.strip() for p in parts[0::2]], parts[1::2]
    n = len(pieces)
    for i in range(n):
        for j in range(i + 1, n + 1):
            if j - i == n:
                continue
            text = pieces[i] + "".join(separators[k - 1] + pieces[k] for k in range(i + 1, j))
            yield text.strip(), {
                "segment": 1, "first_segment": int(i == 0), "last_segment": int(j == n),
                "segments": n, "pieces": j - i,
                "separator_after": _SEPARATOR_CLASS.get(separators[j - 1], 3) if j < n else -1,
                "separator_before": _SEPARATOR_CLASS.get(separators[i - 1], 3) if i else -1}


def _line(text: str | None) -> str:
    return readable(" ".join((text or "").split())) or ""


def title_candidates(root: etree._Element, url: str | None) -> tuple[list[str], np.ndarray]:
    """The page's title candidates and one row of :data:`FEATURES` for each."""
    meta = meta_module.extract_metadata(root, url)
    c = meta_module._collect(root)
    try:
        ld = meta_module.read_jsonld(c.scripts)
    except (ValueError, TypeError, AttributeError, RecursionError):
        ld = None
    title = _line(c.title)
    og = _line(meta_module._first(c.metas, ("og:title", "twitter:title")))
    headline = _line(ld.headline) if ld and isinstance(ld.headline, str) else ""
    h1s = [h for h in (meta_module._rstrip_glyphs(_line(meta_module._inline_text(el)))
                       for el in c.h1s[:3]) if h]
    rules = meta.title or ""
    found: dict[str, dict] = {}

    def add(text: str, **marks: int) -> None:
        key = _fold(text)
        if not key or len(text) > _MAX_CANDIDATE:
            return
        row = found.setdefault(key, {"text": text.strip()})
        for name, value in marks.items():
            row[name] = max(row.get(name, value), value) if name in (
                "rules", "h1", "first_h1", "title", "og_title", "headline", "segment",
                "first_segment", "last_segment") else row.get(name, value)

    add(rules, rules=1)
    for i, h in enumerate(h1s):
        add(h, h1=1, first_h1=int(i == 0))
    add(title, title=1)
    add(og, og_title=1)
    add(headline, headline=1)
    for source in (title, og, headline):
        for text, marks in _segment_runs(source) if source else ():
            add(text, **marks)

    shown = {_fold(el.text) for el in root.iter(*_SHOWN_TAGS)
             if el.text and 3 < len(el.text) < _MAX_CANDIDATE}
    sites = meta_module._site_names(meta.site_name, url)
    h1_key = _fold(h1s[0]) if h1s else ""
    h1_words = set(re.findall(r"\w+", h1_key))
    title_key, og_key, rules_key = _fold(title), _fold(og), _fold(rules)
    home = int(meta_module._is_home(url))
    og_article = int((meta_module._first(c.metas, ("og:type",)) or "").lower() == "article")
    texts, rows = [], []
    for key, row in found.items():
        text = row["text"]
        words = set(re.findall(r"\w+", key))
        values = {
            "log_chars": math.log1p(len(text)), "words": len(words),
            "has_digit": int(any(ch.isdigit() for ch in text)),
            "equals_h1": int(key == h1_key),
            "opens_h1": int(bool(h1_key) and h1_key.startswith(key) and key != h1_key),
            "h1_opens": int(bool(h1_key) and key.startswith(h1_key) and key != h1_key),
            "inside_h1": int(bool(h1_key) and key in h1_key),
            "holds_h1": int(bool(h1_key) and h1_key in key),
            "h1_jaccard": len(words & h1_words) / len(words | h1_words) if words | h1_words
            else 0.0,
            "names_site": int(meta_module._is_site(text, sites)), "home_page": home,
            "og_article": og_article, "h1_count": len(c.h1s),
            "share_of_title": len(key) / max(1, len(title_key)),
            "inside_og": int(key in og_key), "inside_title": int(key in title_key),
            "question": int(text.endswith("?")), "shown": int(key in shown),
            "opens_rules": int(bool(rules_key) and rules_key.startswith(key) and key != rules_key),
            "inside_rules": int(key in rules_key),
            "holds_rules": int(bool(rules_key) and rules_key in key),
        }
        texts.append(text)
        rows.append([row.get(f, values.get(f, -2 if f.startswith("separator") else 0))
                     for f in FEATURES])
    return texts, np.asarray(rows, dtype=np.float32).reshape(-1, len(FEATURES))


def _chosen_right(pages: list[dict], train: np.ndarray, test: np.ndarray, columns: list[int],
                  seed: int) -> dict[int, int]:
    import xgboost

    rows = [pages[i] for i in train if len(pages[i]["y"])]
    booster = xgboost.train({**_PARAMS, "seed": seed}, xgboost.DMatrix(
        np.vstack([p["x"][:, columns] for p in rows]), np.concatenate([p["y"] for p in rows])),
        _ROUNDS)
    right = {}
    for i in test:
        p = pages[i]
        right[i] = int(p["y"][int(np.argmax(booster.inplace_predict(p["x"][:, columns])))]) \
            if len(p["y"]) else 0
    return right


def choice_ceiling(data_dir: str, folds: int = 5, seeds: int = 3, limit: int | None = None
                   ) -> dict:
    """Rules, candidate coverage and the learned chooser's out-of-fold accuracy on titles."""
    from sklearn.model_selection import GroupKFold

    pages: list[dict] = []
    for page in load_pages(data_dir, limit):
        gold = page.meta.get("title")
        if not gold or not str(gold).strip():
            continue
        try:
            root = parse(decode(page.body)[1])
        except NotText:
            continue
        texts, x = title_candidates(root, page.url)
        gold_key = _fold(gold)
        pages.append({"type": page.page_type or "unknown", "domain": page.domain, "x": x,
                      "y": np.array([int(_fold(t) == gold_key) for t in texts])})
    rules_col = FEATURES.index("rules")
    rules_right = [int(any(p["y"][p["x"][:, rules_col] == 1])) for p in pages]
    # The rules' most common disagreement with the labels: the <title>'s first segment where
    # it opens the rules' title ("Tools" for "Tools – Caterer Spreadsheet").
    opening = Counter()
    for p, right in zip(pages, rules_right, strict=True):
        cut = (p["x"][:, FEATURES.index("opens_rules")] == 1) & (
            p["x"][:, FEATURES.index("first_segment")] == 1) & (p["x"][:, rules_col] == 0)
        if cut.any():
            opening["label_is_segment" if p["y"][cut].any() else
                    "label_is_rules" if right else "label_is_neither"] += 1
    index = np.arange(len(pages))
    groups = [p["domain"] for p in pages]
    grouped_by = "domain"
    if len(set(groups)) < folds:  # Readability's pages all say "fakehost"
        groups, grouped_by = list(index), "page"
    splits = list(GroupKFold(n_splits=folds).split(index, groups=groups))
    all_columns = list(range(len(FEATURES)))
    without_rules = [i for i in all_columns if i not in _RULES_FEATURES]
    learned: dict[str, list[float]] = {"with_rules": [], "without_rules": []}
    by_type_right: Counter = Counter()
    for seed in range(seeds):
        for name, columns in (("with_rules", all_columns), ("without_rules", without_rules)):
            right: dict[int, int] = {}
            for train, test in splits:
                right.update(_chosen_right(pages, train, test, columns, seed))
            learned[name].append(round(sum(right.values()) / len(pages), 4))
            if name == "with_rules":
                for i, ok in right.items():
                    by_type_right[pages[i]["type"]] += ok
    types = Counter(p["type"] for p in pages)
    rules_by_type = Counter()
    for p, ok in zip(pages, rules_right, strict=True):
        rules_by_type[p["type"]] += ok
    return {
        "data": str(data_dir), "pages": len(pages), "folds": folds, "grouped_by": grouped_by,
        "candidates_per_page": round(sum(len(p["y"]) for p in pages) / max(1, len(pages)), 2),
        "rules": round(sum(rules_right) / max(1, len(pages)), 4),
        "candidates_hold_label": round(
            sum(int(p["y"].any()) for p in pages) / max(1, len(pages)), 4),
        "learned_with_rules": learned["with_rules"],
        "learned_without_rules": learned["without_rules"],
        "by_type": {t: {"pages": n, "rules": round(rules_by_type[t] / n, 3),
                        "learned_with_rules": round(by_type_right[t] / (n * seeds), 3)}
                    for t, n in types.most_common()},
        "first_segment_opening_rules_title": dict(opening),
    }


def format_report(result: dict) -> str:
    def mean(values: list[float]) -> str:
        return f"{sum(values) / len(values):.4f} ({', '.join(f'{v:.4f}' for v in values)})"

    lines = [f"titles · {result['data']} · {result['pages']} labelled pages · "
             f"{result['folds']} folds grouped by {result['grouped_by']}",
             f"rules (extract_metadata)            {result['rules']:.4f}",
             f"candidates hold the label           {result['candidates_hold_label']:.4f}"
             f"  ({result['candidates_per_page']} candidates a page)",
             f"learned chooser, rules as a feature {mean(result['learned_with_rules'])}",
             f"learned chooser, without the rules  {mean(result['learned_without_rules'])}",
             "by page type (rules / learned with rules):"]
    lines += [f"  {t:<14} {v['pages']:>5}  {v['rules']:.3f} / {v['learned_with_rules']:.3f}"
              for t, v in result["by_type"].items()]
    lines.append("<title>'s first segment opening the rules' title: "
                 + json.dumps(result["first_segment_opening_rules_title"]))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m newscrawl.evaluation.title_choice")
    ap.add_argument("--data", required=True)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    result = choice_ceiling(args.data, args.folds, args.seeds, args.limit)
    print(json.dumps(result, ensure_ascii=False) if args.json else format_report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
