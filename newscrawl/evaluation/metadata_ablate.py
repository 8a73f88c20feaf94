"""What each named metadata rule is worth on pages it was not written for.

For every rule a page consults (``extract_metadata``'s ``off`` is asked whether the rule may
run), the page is read again with that rule switched off, and the rule's field scored both
ways with ``metadata_eval``'s scorer. Sets are split by who published a page: fundus-dev (94
publishers, never looked at when the rules before it were written) is held out whole; a WCXB
set is halved by a stable hash of each page's domain, and the odd half is held out. The
other sets (Readability's, zh-dev) were used to tune the rules and are reported as such.

    python -m newscrawl.evaluation.metadata_ablate --data ../shared/data/wcxb-dev \\
        --data ../shared/data/fundus-dev [--data ...] [--json]

Per rule and set: the pages on which it decided its field (labelled or not), those with a
label, how many of those it got right, and the field's right pages with the rule on and off;
``held-out Δ`` is right-on minus right-off summed over the held-out sets, so a rule that pays
on held-out pages has a positive one. ``others`` counts pages where switching the rule off
changed some other field (the site name feeds the title and the authors, for instance).
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections import Counter, defaultdict
from pathlib import Path

from newscrawl.evaluation.datasets import Page, detect_kind, load_pages
from newscrawl.evaluation.metadata_eval import _LABELS, _ours, _score
from newscrawl.extraction.decode import NotText, decode
from newscrawl.extraction.metadata import extract_metadata
from newscrawl.extraction.parse import parse

_FIELDS = ("title", "authors", "published", "modified", "language", "description",
           "site_name", "image", "tags", "section", "canonical_url", "page_type")


class _Asked(frozenset):
    """An empty ``off`` that remembers which rules were asked about: only those can change a
    page when switched off, so only those are re-read."""

    def __new__(cls) -> _Asked:
        self = super().__new__(cls)
        self.asked = set()  # type: ignore[attr-defined]
        return self

    def __contains__(self, rule: object) -> bool:
        self.asked.add(rule)  # type: ignore[attr-defined]
        return False


def split_of(name: str, page: Page) -> tuple[str, bool]:
    """(the page's set, whether it is held out): fundus-dev whole, a WCXB set by domain."""
    if page.publisher:
        return name, True
    if name.startswith("wcxb"):
        held = zlib.crc32(page.domain.encode()) % 2 == 1
        return f"{name}:{'B' if held else 'A'}", held
    return name, False


def _field_of(rule: str) -> str:
    return rule.split(".", 1)[0]


def ablate(data_dirs: list[str]) -> dict:
    """Per rule and set: decided, labelled, right, right with the rule on and off, and F1."""
    table: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    sets: dict[str, dict] = {}
    for data_dir in data_dirs:
        name = Path(data_dir).name
        labels = _LABELS[detect_kind(Path(data_dir))]
        for page in load_pages(data_dir):
            try:
                _, text = decode(page.body)
            except NotText:
                continue
            split, held = split_of(name, page)
            info = sets.setdefault(split, {"held_out": held, "pages": 0, "labelled": Counter(),
                                           "right": Counter()})
            info["pages"] += 1
            root = parse(text)
            fired: Counter[str] = Counter()
            asked = _Asked()
            base = extract_metadata(root, page.url, rules=fired, off=asked)
            gold = {f: page.meta.get(k) for f, k in labels.items()}
            gold = {f: g for f, g in gold.items() if g and not (isinstance(g, str)
                                                                 and not g.strip())}
            info["labelled"].update(gold.keys())
            base_scores = {f: _score(f, _ours(base).get(f), g) for f, g in gold.items()}
            info["right"].update(f for f, (exact, _) in base_scores.items() if exact)
            for rule in fired:
                if rule.endswith(".error"):
                    continue
                row = table[rule][split]
                row["decided"] += 1
                field = _field_of(rule)
                if field in gold:
                    row["labelled"] += 1
                    row["right"] += int(base_scores[field][0])
            for rule in asked.asked:  # type: ignore[attr-defined]
                off = extract_metadata(root, page.url, off=frozenset({rule}))
                field = _field_of(rule)
                row = table[rule][split]
                if any(getattr(off, f) != getattr(base, f) for f in _FIELDS if f != field):
                    row["others"] += 1
                if getattr(off, field, None) != getattr(base, field, None):
                    row["changed"] += 1
                if field in gold:
                    exact, f1 = _score(field, _ours(off).get(field), gold[field])
                    on_exact, on_f1 = base_scores[field]
                    row["lost"] += int(on_exact) - int(exact)
                    row["f1_lost_x1000"] += round(1000 * ((on_f1 or on_exact) - (f1 or exact)))
    return {"sets": {k: {**v, "labelled": dict(v["labelled"]), "right": dict(v["right"])}
                     for k, v in sets.items()},
            "rules": {rule: {s: dict(c) for s, c in sorted(per.items())}
                      for rule, per in sorted(table.items())}}


def held_out_delta(result: dict, rule: str) -> int:
    """Right pages the rule's field loses on held-out sets when the rule is off."""
    return sum(c.get("lost", 0) for s, c in result["rules"][rule].items()
               if result["sets"][s]["held_out"])


def format_ablation(result: dict) -> str:
    """Each set's field scores, then one line per rule: over all sets the pages it decided;
    per set the pages it decided and, where the set labels its field, the field's accuracy
    with the rule on and off; and the held-out right pages it is worth."""
    names = sorted(result["sets"])
    lines = []
    for s in names:
        info = result["sets"][s]
        scores = " ".join(f"{f} {info['right'].get(f, 0) / n:.3f} (n={n})"
                          for f, n in sorted(info["labelled"].items()))
        lines.append(f"{s}{' (held out)' if info['held_out'] else ''}: {info['pages']} pages; "
                     f"{scores}")
    lines.append("per set: decided [field accuracy on>off]; Δ = held-out right pages lost off")
    lines.append(f"{'rule':<40}{'all':>5}" + "".join(
        f"{s[:18] + ('*' if result['sets'][s]['held_out'] else ''):>23}" for s in names)
        + f"{'Δ':>4}")
    for rule, per in result["rules"].items():
        field = rule.split(".", 1)[0]
        cells = ""
        for s in names:
            c, info = per.get(s, {}), result["sets"][s]
            n = info["labelled"].get(field, 0)
            cell = str(c.get("decided", 0)) if c.get("decided") or c.get("lost") else ""
            if cell and n:
                on = info["right"].get(field, 0)
                cell += f" {on / n:.3f}>{(on - c.get('lost', 0)) / n:.3f}"
            cells += f"{cell:>23}"
        total = sum(c.get("decided", 0) for c in per.values())
        lines.append(f"{rule:<40}{total:>5}{cells}{held_out_delta(result, rule):>4}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m newscrawl.evaluation.metadata_ablate")
    ap.add_argument("--data", action="append", required=True, help="a page set (repeatable)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    result = ablate(args.data)
    print(json.dumps(result, ensure_ascii=False) if args.json else format_ablation(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
