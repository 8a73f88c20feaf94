"""``newscrawl train``: label pages, train both stages, write the model files and model card.

One run does everything the card reports: the grouped out-of-fold predictions that stage 2
learns from are also the cross-validated scores, and ``--check`` scores the finished model on
other page sets beside trafilatura. Rebuilding the shipped model is this one command.
"""

from __future__ import annotations

import argparse
import hashlib
import shlex
import sys
import time
from pathlib import Path

import numpy as np
import xgboost as xgb

from ..evaluation.evaluate import (
    dataset_page_scores,
    node_prf,
    page_summary,
    respelled_scores,
    score_model,
    scripts_lines,
    sets_summary,
    trafilatura_text,
)
from ..evaluation.scoring import bag_prf
from ..extraction.assemble import KEEP_FLOOR, PRECISION_LEAN, STORY_LEAN, keep_nodes
from ..extraction.context import CONTEXT_NAMES, STORY_NAMES
from ..extraction.features import FEATURE_NAMES, FEATURE_VERSION
from ..extraction.model import SURE_PAGE
from .dataset import build_dataset
from .fit import (
    PATH_WORDS_C,
    PATH_WORDS_MIN_DOMAINS,
    STORY_SET_WEIGHT,
    combined_members,
    default_members,
    fit_path_words,
    members_out_of_fold,
    page_rows,
    story_dataset,
    story_matrix,
    story_stage,
    with_copies,
)

WCXB_CREDIT = ('M. Foley, "WCXB: A Multi-Type Web Content Extraction Benchmark", 2026 '
               "(CC-BY-4.0)")
CREDITS = {
    "wcxb-dev": f"WCXB development split: {WCXB_CREDIT}",
    "fundus-dev": "news pages of 94 publishers from the Fundus scraper's tests, labelled by "
                  'its hand-written parsers: M. Dallabetta et al., "Fundus: A Simple-to-Use '
                  'News Scraper Optimized for High Quality Extractions", ACL 2024 demo (MIT)',
}
"""Whom to credit for the page sets the shipped model is trained on, by directory name."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, action="append",
                        help="labelled pages (WCXB layout); repeat it to train on several "
                             "sets at once, scored apart")
    parser.add_argument("--set-weight", action="append", default=[], metavar="NAME=W",
                        help="weight each page of the set in directory NAME by W in "
                             "training (repeatable; default 1)")
    parser.add_argument("--out", type=Path, default=Path("models/nodes-v1.ubj"),
                        help="the first member's stage-1 file; stage 2 goes beside it as "
                             "NAME.context.ubj, the other members as NAME.1.ubj ... (default: "
                             "the shipped models/nodes-v1.ubj and its card, overwritten; give "
                             "another path for a trial)")
    parser.add_argument("--folds", type=int, default=5,
                        help="grouped folds for the out-of-fold stage-1 predictions (default 5)")
    parser.add_argument("--limit", type=int, default=None, help="first N pages only")
    parser.add_argument("--check", action="append", default=[], metavar="DIR",
                        help="also score the trained model on this page set (repeatable)")


def run(args: argparse.Namespace) -> int:
    from sklearn.model_selection import GroupKFold

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    t_start = time.perf_counter()
    log(f"featurising and labelling {', '.join(args.data)} ...")
    set_weights = {name: float(w) for name, w in
                   (item.split("=", 1) for item in args.set_weight)}
    ds = build_dataset(args.data, args.limit, set_weights=set_weights)
    log(f"  {len(ds.pages)} pages, {len(ds.y)} nodes in {ds.seconds:.0f} s")
    splits = list(GroupKFold(n_splits=args.folds).split(np.arange(len(ds.pages)),
                                                        groups=ds.groups))
    log("  path words, out of fold ...")
    words = fit_path_words(ds, splits)
    members = default_members()
    oofs = members_out_of_fold(ds, splits, members, log)

    t0 = time.perf_counter()
    y = ds.y > 0.5
    story_ds = story_dataset(ds)
    trios = [(stage1, stage2, story_stage(stage2)) for stage1, stage2 in members]
    for (stage1, stage2, story), oof in zip(trios, oofs, strict=True):
        stage1.fit(*with_copies(ds, ds.X, ds.copies.X))
        stage2.fit(*with_copies(ds, oof.X_context, oof.X_copies_context))
        story.fit(*with_copies(
            story_ds, story_matrix([lp.table for lp in ds.pages], oof.X_context),
            story_matrix(ds.copies.tables, oof.X_copies_context)))
    fit_seconds = time.perf_counter() - t0
    train_seconds = time.perf_counter() - t_start

    out: Path = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    files = member_files(out, len(members))
    common = {"newscrawl_model_name": out.stem, "data_sha256": ds.data_sha256,
              "trained_pages": len(ds.pages)}
    words_file = out.with_name(out.stem + ".words.json")
    words.save(words_file, **common)
    for k, ((stage1, stage2, story), (stage1_file, stage2_file, story_file)) in enumerate(
            zip(trios, files, strict=True)):
        stage2.save(str(stage2_file), **common)
        story.save(str(story_file), **common)
        first = {"newscrawl_path_words": words_file.name,
                 "newscrawl_members": ",".join(f[0].name for f in files[1:])} if k == 0 else {}
        stage1.save(str(stage1_file), newscrawl_context_model=stage2_file.name,
                    newscrawl_story_model=story_file.name, **first, **common)
    log(f"wrote {', '.join(str(f) for trio in files for f in trio)} and {words_file}")

    rows = page_rows(ds)
    tables = [lp.table for lp in ds.pages]
    probas = {"two stages (shipped)": combined_members(oofs, "stage2", tables),
              "stage 1 alone": combined_members(oofs, "stage1", tables)}
    per_page = {
        name: dataset_page_scores(
            ds, lambda i, p=proba: keep_nodes(ds.pages[i].table, p[rows[i]]))
        for name, proba in probas.items()
    }
    scores = {name: {"node": node_prf(proba > 0.5, y), "page": page_summary(per_page[name])}
              for name, proba in probas.items()}
    respelled = respelled_scores(ds, combined_members(oofs, "copies_stage2", ds.copies.tables),
                                 per_page["two stages (shipped)"])
    ceiling = page_summary(dataset_page_scores(ds, lambda i: ds.pages[i].y > 0.5))
    log("trafilatura on the same pages ...")
    per_page["trafilatura"] = [
        (lp.page.page_type, *bag_prf(trafilatura_text(lp.page.body, lp.page.url),
                                     lp.page.text or "", lp.page.script)) for lp in ds.pages]
    sets = sets_summary(ds, per_page)
    checks = []
    for data_dir in args.check:
        log(f"scoring {out} on {data_dir} ...")
        checks.append(score_model(data_dir, out))

    card = model_card(args, ds, trios, words, scores, ceiling, sets, respelled, checks, files,
                      words_file, train_seconds, sum(sum(o.fold_seconds) for o in oofs),
                      fit_seconds)
    card_path = out.with_suffix(".md")
    card_path.write_text(card, "utf-8")
    log(f"wrote {card_path}")
    print(card)
    return 0


def member_files(out: Path, members: int) -> list[tuple[Path, Path, Path]]:
    """Stage-1, stage-2 and story stage-2 files of each member: ``out``, ``NAME.context.ubj``
    and ``NAME.story.ubj`` for the first, ``NAME.1.ubj`` ... for the others."""
    stems = [out.stem] + [f"{out.stem}.{k}" for k in range(1, members)]
    return [(out.with_name(stem + out.suffix), out.with_name(stem + ".context.ubj"),
             out.with_name(stem + ".story.ubj")) for stem in stems]


def _set_line(ds, source: str) -> str:
    pages = [lp for lp in ds.pages if lp.source == source]
    nodes = sum(len(lp.y) for lp in pages)
    content = sum(int((lp.y > 0.5).sum()) for lp in pages)
    weight = ds.page_weight[[lp.source == source for lp in ds.pages]]
    name = Path(source).name
    return (f"- {source}: {len(pages)} labelled pages, {nodes:,} text nodes ({content:,} "
            f"content)" + (f", each page weighted {weight[0]:g} in training"
                           if len(weight) and weight[0] != 1 else "")
            + (f"; {CREDITS[name]}" if name in CREDITS else "") + ".")


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _score_table(entries: dict[str, dict], with_node: bool) -> list[str]:
    types = list(next(iter(entries.values()))["page"])
    head = "| | " + ("node P | node R | node F1 | " if with_node else "") + " | ".join(
        f"{t} ({next(iter(entries.values()))['page'][t]['n']})" for t in types) + " |"
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for name, m in entries.items():
        node = m.get("node")
        cells = [f"{node[k]:.3f}" for k in ("precision", "recall", "f1")] if with_node else []
        cells += [f"{m['page'][t]['f1']:.3f}" for t in types]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def _sets_table(tools: dict[str, dict]) -> list[str]:
    """One page set's rows: page P, R and F1 over all its pages, then F1 per page type."""
    types = [t for t in next(iter(tools.values()))["page"] if t != "all"]
    pages = next(iter(tools.values()))["page"]
    head = ("| | page P | page R | all (" + str(pages["all"]["n"]) + ") | "
            + " | ".join(f"{t} ({pages[t]['n']})" for t in types) + " |")
    lines = [head, "|" + "---|" * (head.count("|") - 1)]
    for name, m in tools.items():
        a = m["page"]["all"]
        lines.append(f"| {name} | {a['precision']:.3f} | {a['recall']:.3f} | {a['f1']:.3f} | "
                     + " | ".join(f"{m['page'][t]['f1']:.3f}" for t in types) + " |")
    return lines


def _scripts_paragraph(tools: dict[str, dict]) -> list[str]:
    """``scripts_lines`` as a paragraph under a set's table, for a set that mixes scripts."""
    lines = scripts_lines(tools)
    return ["", "By script: " + "; ".join(lines) + "."] if lines else []


def model_card(args: argparse.Namespace, ds, members: list, words, scores: dict,
               ceiling: dict, sets: dict, respelled: dict, checks: list[dict],
               files: list[tuple[Path, Path, Path]], words_file: Path,
               train_seconds: float, oof_seconds: float, fit_seconds: float) -> str:
    out = files[0][0]
    command = "newscrawl train " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    lines = [
        f"# Model card: {out.stem}",
        "",
        "Text-node classifier of newscrawl: decides, for every text node of a cleaned page, "
        f"whether it belongs to the main content. {len(members)} pipelines trained alike but "
        "for their seed, their probabilities averaged on a page the first is unsure of (its "
        f"expected error per character over {SURE_PAGE}; on the others the first alone, "
        "and the CV scores below are scored so); each is two XGBoost stages: stage 1 "
        "over "
        f"{len(FEATURE_NAMES)} per-node features (among them `path_words`, a logistic "
        "regression over the class and id words on the node's path, and `site_recurrence`, "
        "the share of the site's other pages that hold the node's text: in a crawl the "
        "site's last pages extracted, `NEWSCRAWL_SITE_PAGES`; in training and "
        "cross-validation the set's other pages of its domain; missing on a page read "
        "alone), stage 2 over "
        f"{len(CONTEXT_NAMES)} features "
        "of each node's neighbourhood in stage 1's probabilities (reading-order window, "
        "container, parent, the subtree holding the nodes stage 1 is sure of); on a page "
        "that declares an article type, a story stage 2 (150 trees of depth 5, the same "
        "features and `anc_linked`: levels up to a block wrapped in a link) replaces it, "
        "trained with the pages of news sets (every page an article: fundus-dev) weighted "
        f"{STORY_SET_WEIGHT:g} (`STORY_SET_WEIGHT` in `newscrawl/training/fit.py`). The article "
        "is the set of nodes that maximises the page's expected F1 under the averaged "
        f"probabilities (raised to the power {PRECISION_LEAN}, a lean toward precision; "
        f"{STORY_LEAN} on a page that declares an article type), never a node under "
        f"{KEEP_FLOOR} (`keep_nodes` in "
        "`newscrawl/extraction/assemble.py`).",
        "",
        "## Files",
        "",
        *(f"- `{path.name}` — member {k + 1}, {stage}, XGBoost UBJ, "
          f"{path.stat().st_size / 1e6:.2f} MB, sha256 `{_sha(path)[:16]}`"
          for k, trio in enumerate(files) for stage, path in zip(
              ("stage 1", "stage 2", "story stage 2"), trio, strict=True)),
        f"- `{words_file.name}` — the `path_words` regression, JSON, "
        f"{words_file.stat().st_size / 1e6:.2f} MB: {len(words.weights):,} words, a weight per "
        "bucket (the element itself, its parent, grandparent, higher up, anywhere on the "
        f"path); words on {PATH_WORDS_MIN_DOMAINS}+ training domains, "
        f"C={PATH_WORDS_C}",
        f"- feature version {FEATURE_VERSION}; the ordered feature names are stored in each "
        "file and checked against the code when the model loads.",
        "",
        "## Rebuild",
        "",
        "```",
        command,
        "```",
        "",
        f"Took {train_seconds / 60:.1f} min on this machine (2 cores): featurising and "
        f"labelling {ds.seconds:.0f} s, {args.folds} out-of-fold fits of both stages of "
        f"each member {oof_seconds:.0f} s, final fits {fit_seconds:.0f} s. "
        f"xgboost {xgb.__version__}.",
        "",
        "## Data",
        "",
        *(_set_line(ds, source) for source in ds.sources),
        f"- {len(ds.pages)} labelled pages in all, {len(ds.y):,} text nodes "
        f"({int((ds.y > 0.5).sum()):,} content), data sha256 `{ds.data_sha256[:16]}`. "
        "Labels come from each set's `main_content`, aligned to text nodes by normalised, "
        "fuzzy paragraph matching (`newscrawl/training/labels.py`).",
        f"- Each page also respelled in ideographs without spaces ({len(ds.copies.tables)} "
        "copies; `newscrawl/training/respell.py`): same nodes, same labels, in their "
        "originals' folds, so the model does not lean on spaces and capitals.",
        "- Rows weighted by log length, a page's mass growing as √nodes (`row_weights`).",
        "",
        "## Parameters",
        "",
        *(f"- member {k + 1}, {stage}: `{clf.describe()}`"
          for k, trio in enumerate(members)
          for stage, clf in zip(("stage 1", "stage 2", "story stage 2"), trio, strict=True)),
        "",
        "## Cross-validated scores",
        "",
        f"{args.folds}-fold cross-validation grouped by domain, and by publisher where a set "
        "names one (no domain or publisher in both training and test folds), over all sets "
        "pooled. Node scores against the aligned labels; page scores are WCXB's measure "
        "(bag of lower-cased `\\w+` words, F1 per page, averaged; characters on Chinese, "
        "Japanese and Korean pages of sets other than WCXB), per page type with the page "
        "count in brackets. Stage 2 is trained on stage 1's out-of-fold output of the other "
        "folds, which saw the test fold's pages. Nested cross-validation (stage 2 trained on "
        "stage-1 output computed within its training folds only) moved the all-pages "
        "figure by -0.0003 at seed 0 (0.8754 against 0.8757; docs/tried.md), so this "
        "shortcut costs a fifth of the stage-1 fits and flatters nothing measurable.",
        "",
        *_score_table(scores, with_node=True),
        "",
        "Label ceiling (page F1 of the text of all positively labelled nodes): "
        + ", ".join(f"{t} {v['f1']:.3f}" for t, v in ceiling.items()) + ".",
        *(line for source, per_set in sets.items() for line in (
            "", f"Out of fold on {source} alone, trafilatura on the same pages in the same "
            "run (page precision and recall averaged per page like F1):", "",
            *_sets_table(per_set["tools"]), *_scripts_paragraph(per_set["tools"]))),
        "",
        "The same comparison with logistic regression, a linear SVM and the density heuristic "
        "on the same folds: `newscrawl evaluate "
        + " ".join(f"--data {d}" for d in args.data) + "`.",
        "",
        "The respelled copies, out of fold (each copy's choice of nodes applied to its "
        f"original's text): page F1 {respelled['copies']['all']['f1']:.3f} on "
        f"{respelled['copies']['all']['n']} pages, the same pages as written "
        f"{respelled['originals']['all']['f1']:.3f}.",
    ]
    for check in checks:
        lines += ["", f"## Scored on {check['data']} (never trained on)", "",
                  f"Page F1 of the finished model and of trafilatura on the same pages "
                  f"({check['skipped']} pages without a label skipped); `respelled`: the "
                  "model on each page respelled in ideographs without spaces, its kept nodes "
                  "read from the page as written.", ""]
        lines += _score_table(check["tools"], with_node=False)
    lines += [
        "",
        "## Features",
        "",
        "Stage 1: " + ", ".join(f"`{n}`" for n in FEATURE_NAMES) + ".",
        "",
        "Stage 2: " + ", ".join(f"`{n}`" for n in CONTEXT_NAMES) + ".",
        "",
        "Story stage 2: stage 2's and " + ", ".join(
            f"`{n}`" for n in STORY_NAMES[len(CONTEXT_NAMES):]) + ".",
        "",
        "## Limits",
        "",
        f"- Trained on {len(ds.sources)} labelled page set(s) of mostly English pages (about "
        "one page per domain): pages of other languages and layouts are scored in the "
        "sections above; listings, product pages and collections remain far weaker than "
        "articles.",
        "- Content rendered in the browser is found only where the page also carries it as HTML "
        "in its Next.js data (`extraction/payload.py`).",
        "",
    ]
    return "\n".join(lines)
