"""Metadata accuracy per field, newscrawl against trafilatura on the same pages in one run.

Fields are scored only on pages whose labels have them; a missing prediction counts as wrong.
Normalisation is the same for both systems and deliberately independent of our own cleaners,
so the scorer cannot flatter the code it measures: titles are compared after whitespace, case
and typography folding (curly quotes and dashes to ASCII), dates to the day, authors as a set
of names (split on commas, "and", "&", with
a leading "By" and credentials such as "PhD" dropped), languages by primary subtag. Titles,
authors and descriptions also get a token F1, which credits near misses.

    python -m newscrawl.evaluation.metadata_eval --data ../shared/data/wcxb-dev [--limit N] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from newscrawl.evaluation.datasets import detect_kind, load_pages
from newscrawl.extraction.dates import parse_date
from newscrawl.extraction.decode import NotText, decode
from newscrawl.extraction.metadata import Metadata, extract_metadata
from newscrawl.extraction.parse import parse

_TOKENS = re.compile(r"\w+")
_AUTHOR_SPLIT = re.compile(r"\s*(?:[,;&|/\n]|\band\b)\s*", re.I)
_BY = re.compile(r"^(?:by|von|par|por|di)\s+", re.I)
_CREDENTIAL = re.compile(r"^(?:[A-Z][A-Za-z]?\.?){1,4}(?:[-\s]\d+)?$")
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")

# Label keys per data set kind: field -> key in Page.meta.
_LABELS = {
    "wcxb": {"title": "title", "authors": "author", "published": "publish_date",
             "description": "summary", "tags": "topics"},  # the last two: fundus-dev only
    "readability": {"title": "title", "authors": "byline", "language": "lang",
                    "site_name": "siteName", "published": "publishedTime",
                    "description": "excerpt"},
    "zh": {"authors": "author", "published": "publish_date"},
    "newspaper": {"published": "publish_date", "language": "language"},
}
_FIELD_ORDER = ("title", "authors", "published", "language", "site_name", "description", "tags")


_TYPOGRAPHY = str.maketrans({"’": "'", "‘": "'", "‛": "'", "“": '"', "”": '"', "„": '"',
                             "–": "-", "—": "-", "\u00a0": " "})


def _fold(text: str | None) -> str:
    """Case, whitespace and typography (curly quotes, dashes) folded, as a reader ignores them."""
    if not text:
        return ""
    text = unicodedata.normalize("NFKC", text).translate(_TYPOGRAPHY).casefold()
    return " ".join(text.split()).strip(" .:;,-–—|\"'“”‘’")


def _token_f1(pred: str, gold: str) -> float:
    p, g = Counter(_TOKENS.findall(_fold(pred))), Counter(_TOKENS.findall(_fold(gold)))
    if not p or not g:
        return float(p == g)
    common = sum((p & g).values())
    if not common:
        return 0.0
    precision, recall = common / sum(p.values()), common / sum(g.values())
    return 2 * precision * recall / (precision + recall)


def _author_set(value: str | list | tuple | None) -> frozenset[str]:
    if not value:
        return frozenset()
    raw = value if isinstance(value, str) else "; ".join(str(v) for v in value)
    names = set()
    pieces = [_BY.sub("", piece.strip()) for piece in _AUTHOR_SPLIT.split(raw)]
    # "PhD" after a name is a credential; a field that is only capitals is an agency ("AFP")
    pieces = [p for p in pieces if p]
    credentials = [bool(_CREDENTIAL.match(p.strip(". "))) for p in pieces]
    for piece, credential in zip(pieces, credentials, strict=True):
        if credential and not all(credentials):
            continue
        name = " ".join(_TOKENS.findall(_fold(piece)))
        if name:
            names.add(name)
    return frozenset(names)


def _tag_set(value: list | tuple | None) -> frozenset[str]:
    return frozenset(_fold(t) for t in value or () if _fold(t))


def _day(value: str | None) -> str | None:
    if not value:
        return None
    m = _DAY.match(value.strip())
    if m:
        return m.group(0)
    parsed = parse_date(value)
    return parsed[:10] if parsed else None


_MONTH = re.compile(r"^(\d{4})-(\d{1,2})$")


def _same_date(pred: str | None, gold: str | None) -> bool:
    """The day, as the gold gives it: the same moment in another time zone is the same
    date read in the gold's zone ("2017-02-24T01:18Z" for "2017-02-23T17:18-08:00"), and a
    gold date given to the month ("1996-6") is matched to the month."""
    if not pred or not gold:
        return False
    month = _MONTH.match(gold.strip())
    if month:
        day = _day(pred)
        return day is not None and (int(day[:4]), int(day[5:7])) == tuple(map(int, month.groups()))
    try:
        p, g = datetime.fromisoformat(pred.strip()), datetime.fromisoformat(gold.strip())
    except ValueError:
        p = g = None
    if p is not None and g is not None and p.tzinfo is not None and g.tzinfo is not None:
        return p.astimezone(g.tzinfo).date() == g.date()
    return _day(pred) is not None and _day(pred) == _day(gold)


def _lang(value: str | None) -> str | None:
    if not value:
        return None
    return value.strip().replace("_", "-").split("-")[0].casefold() or None


def _score(field: str, pred: object, gold: object) -> tuple[float, float | None]:
    """(exact match, token F1 or None) for one field of one page."""
    if field == "authors":
        p, g = _author_set(pred), _author_set(gold)  # type: ignore[arg-type]
        return float(bool(p) and p == g), _token_f1(" ".join(sorted(p)), " ".join(sorted(g)))
    if field == "published":
        return float(_same_date(pred, gold)), None  # type: ignore[arg-type]
    if field == "tags":
        p, g = _tag_set(pred), _tag_set(gold)  # type: ignore[arg-type]
        common = len(p & g)
        return float(bool(p) and p == g), (2 * common / (len(p) + len(g)) if common else 0.0)
    if field == "language":
        return float(_lang(pred) is not None and _lang(pred) == _lang(gold)), None  # type: ignore[arg-type]
    exact = float(bool(_fold(pred)) and _fold(pred) == _fold(gold))  # type: ignore[arg-type]
    f1 = _token_f1(pred or "", gold or "") if field in ("title", "description") else None  # type: ignore[arg-type]
    return exact, f1


def _ours(meta: Metadata) -> dict[str, object]:
    return {"title": meta.title, "authors": meta.authors, "published": meta.published,
            "language": meta.language, "site_name": meta.site_name,
            "description": meta.description, "tags": meta.tags}


def _trafilatura(text: str, url: str | None) -> dict[str, object]:
    from trafilatura.metadata import extract_metadata as traf_metadata

    doc = traf_metadata(text, default_url=url)
    authors = [a for a in (doc.author or "").split(";") if a.strip()]
    return {"title": doc.title, "authors": authors, "published": doc.date,
            "language": None, "site_name": doc.sitename, "description": doc.description,
            "tags": doc.tags}


def evaluate_metadata(data_dir: str, limit: int | None = None,
                      with_trafilatura: bool = True, keep_misses: bool = False,
                      off: frozenset[str] = frozenset()) -> dict:
    """Per-field accuracy (and token F1 where it means something) for newscrawl and trafilatura.

    Also times ``extract_metadata`` against decode+parse on the same pages, since metadata must
    stay a small fraction of the extraction budget, and counts per rule how often it decided a
    labelled field and how often rightly (``rules``), and the fields whose reading raised.
    The rules named in ``off`` are switched off, to measure what each is worth.
    """
    kind = detect_kind(Path(data_dir))
    labels = _LABELS[kind]
    systems: dict[str, Callable[[str, str | None, Metadata], dict[str, object]]] = {
        "newscrawl": lambda text, url, meta: _ours(meta),
    }
    if with_trafilatura:
        # Imported here, not per page: a missing package would be scored as a peer that
        # found nothing on any page (ModuleNotFoundError; the commands name the package).
        import trafilatura.metadata  # noqa: F401

        systems["trafilatura"] = lambda text, url, meta: _trafilatura(text, url)
    sums = {s: {f: [0.0, 0.0] for f in labels} for s in systems}
    counts = dict.fromkeys(labels, 0)
    meta_ms: list[float] = []
    parse_ms: list[float] = []
    pages = errors = 0
    misses: list[dict] = []
    rules: dict[str, list[int]] = {}
    for page in load_pages(data_dir, limit):
        pages += 1
        try:
            t0 = time.perf_counter()
            _, text = decode(page.body)
            root = parse(text)
            t1 = time.perf_counter()
            fired: Counter[str] = Counter()
            meta = extract_metadata(root, page.url, rules=fired, off=off)
            t2 = time.perf_counter()
        except NotText:
            errors += 1
            continue
        parse_ms.append((t1 - t0) * 1000)
        meta_ms.append((t2 - t1) * 1000)
        predictions = {}
        for name, system in systems.items():
            try:
                predictions[name] = system(text, page.url, meta)
            except Exception:  # noqa: BLE001 - a peer's crash on one page scores as empty
                predictions[name] = {}
        for field, key in labels.items():
            gold = page.meta.get(key)
            if not gold or (isinstance(gold, str) and not gold.strip()):
                continue
            counts[field] += 1
            for rule in fired:
                if rule.startswith(field + "."):
                    tally = rules.setdefault(rule, [0, 0])
                    tally[0] += 1
                    tally[1] += int(_score(field, predictions["newscrawl"].get(field), gold)[0])
            for name in systems:
                exact, f1 = _score(field, predictions[name].get(field), gold)
                sums[name][field][0] += exact
                sums[name][field][1] += exact if f1 is None else f1
                if keep_misses and name == "newscrawl" and not exact:
                    misses.append({"page": page.page_id, "field": field, "gold": gold,
                                   "ours": predictions[name].get(field)})
    fields = {}
    for field in labels:
        n = counts[field]
        fields[field] = {"n": n}
        for name in systems:
            acc, f1 = sums[name][field]
            fields[field][name] = {"acc": round(acc / n, 4) if n else None,
                                   "f1": round(f1 / n, 4) if n else None}
    timing = {}
    if meta_ms:
        p50_meta, p50_parse = statistics.median(meta_ms), statistics.median(parse_ms)
        timing = {"metadata_ms_p50": round(p50_meta, 3),
                  "metadata_ms_p95": round(statistics.quantiles(meta_ms, n=20)[-1], 3)
                  if len(meta_ms) > 1 else round(p50_meta, 3),
                  "decode_parse_ms_p50": round(p50_parse, 3),
                  "ratio_metadata_to_parse": round(p50_meta / p50_parse, 3) if p50_parse else None}
    return {"data": str(data_dir), "kind": kind, "pages": pages, "errors": errors,
            "systems": list(systems), "fields": fields, "timing": timing, "misses": misses,
            "rules": {rule: {"decided": n, "right": k} for rule, (n, k) in sorted(rules.items())}}


def format_metadata_report(result: dict) -> str:
    """A compact table: one row per field, accuracy and token F1 per system, n."""
    systems = result["systems"]
    head = f"{'field':<12}{'n':>6}" + "".join(f"{s + ' acc':>17}{'f1':>7}" for s in systems)
    lines = [f"metadata · {result['data']} ({result['kind']}) · pages={result['pages']} "
             f"errors={result['errors']}", head]
    for field in _FIELD_ORDER:
        row = result["fields"].get(field)
        if row is None or not row["n"]:
            continue
        cells = f"{field:<12}{row['n']:>6}"
        for s in systems:
            acc, f1 = row[s]["acc"], row[s]["f1"]
            cells += f"{'-' if acc is None else f'{acc:.3f}':>17}"
            cells += f"{'-' if f1 is None else f'{f1:.3f}':>7}"
        lines.append(cells)
    t = result.get("timing") or {}
    if t:
        lines.append(f"extract_metadata p50 {t['metadata_ms_p50']:.3f} ms "
                     f"p95 {t['metadata_ms_p95']:.3f} ms · decode+parse p50 "
                     f"{t['decode_parse_ms_p50']:.3f} ms · ratio {t['ratio_metadata_to_parse']:.3f}"
                     f" · n={result['pages'] - result['errors']} · 1 thread")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m newscrawl.evaluation.metadata_eval")
    ap.add_argument("--data", required=True)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--no-trafilatura", action="store_true")
    ap.add_argument("--misses", type=int, default=0, help="print this many of our misses")
    ap.add_argument("--off", action="append", default=[], metavar="RULE",
                    help="switch a rule off (repeatable), e.g. --off title.kicker")
    ap.add_argument("--rules", action="store_true",
                    help="print how often each rule decided a labelled field, and rightly")
    args = ap.parse_args(argv)
    try:
        result = evaluate_metadata(args.data, args.limit, not args.no_trafilatura,
                                   keep_misses=args.misses > 0, off=frozenset(args.off))
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] != "trafilatura":
            raise
        print(f"{ap.prog}: needs trafilatura, which the runtime requirements do not install; "
              "install the development ones (pip install -r requirements-dev.txt) or pass "
              "--no-trafilatura", file=sys.stderr)
        return 2
    misses = result.pop("misses")
    rules = result.pop("rules")
    if args.json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(format_metadata_report(result))
        if args.rules:
            print(f"{'rule':<48}{'decided':>8}{'right':>7}")
            for rule, tally in rules.items():
                print(f"{rule:<48}{tally['decided']:>8}{tally['right']:>7}")
        for miss in misses[: args.misses]:
            print(json.dumps(miss, ensure_ascii=False), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
