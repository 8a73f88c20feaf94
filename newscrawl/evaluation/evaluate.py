"""``newscrawl evaluate``: grouped cross-validation, or a saved model scored on a page set.

Cross-validation folds are grouped by domain, so no site is both trained and tested on (most
WCXB domains have one page; a site's template seen in training would flatter the score).
Every model of the published comparison is fitted and scored on the same folds: XGBoost,
logistic regression, a linear SVM, and the text/symbol-density heuristic (method 2: keep the
block with the highest DS). Node scores use the aligned labels; page scores compare the
assembled text with the ground truth by WCXB's bag-of-words F1.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..extraction.assemble import assemble, keep_nodes, smooth
from ..extraction.features import FEATURE_NAMES
from ..extraction.site import sample_size
from .scoring import bag_prf

MODELS = ("xgboost", "logreg", "linear_svm", "density")


def _model_names(value: str) -> str:
    """``--models``, refused by argparse (one line, exit 2) when it names an unknown model,
    rather than after the pages are read."""
    unknown = [name for name in value.split(",") if name not in MODELS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown model {unknown[0]!r}; choose from {', '.join(MODELS)}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, action="append",
                        help="page set: WCXB, Readability or zh layout; repeat it to "
                             "cross-validate over several sets at once (scored per set)")
    parser.add_argument("--folds", type=int, default=5, help="grouped CV folds (default 5)")
    parser.add_argument("--limit", type=int, default=None, help="first N pages only")
    parser.add_argument("--model", help="score this saved model on --data instead of CV")
    parser.add_argument("--metadata", action="store_true",
                        help="score metadata fields (title, author, date ...) against trafilatura")
    parser.add_argument("--models", default=",".join(MODELS), type=_model_names,
                        help=f"CV models to compare (default {','.join(MODELS)})")
    parser.add_argument("--no-trafilatura", action="store_true",
                        help="skip the trafilatura comparison")
    parser.add_argument("--seeds", type=int, default=1,
                        help="train the xgboost model N times with seeds that do not repeat "
                             "(its pipelines at seeds 0 and 1, then 2 and 3 ...) on the same "
                             "folds and print each model's page F1: how far the figure moves "
                             "by chance (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    if args.metadata or args.model:
        results = []
        for data_dir in args.data:
            if args.metadata:
                from .metadata_eval import evaluate_metadata, format_metadata_report

                result = evaluate_metadata(data_dir, args.limit, not args.no_trafilatura)
                text = format_metadata_report(result)
            else:
                result = score_model(data_dir, args.model, args.limit, not args.no_trafilatura)
                text = format_report(result)
            results.append(result)
            if not args.json:
                print(text)
        if args.json:
            print(json.dumps(results[0] if len(results) == 1 else results, indent=1))
        return 0
    result = cross_validate(args.data, args.folds, args.limit, args.models.split(","),
                            args.seeds, not args.no_trafilatura)
    print(json.dumps(result, indent=1) if args.json else format_report(result))
    return 0


def node_prf(pred: np.ndarray, y: np.ndarray) -> dict[str, float]:
    tp = float(np.sum(pred & y))
    p = tp / max(float(pred.sum()), 1.0)
    r = tp / max(float(y.sum()), 1.0)
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}


def page_summary(f1_by_page: list[tuple[str, float, float, float]]) -> dict:
    """Mean page P/R/F1 overall and per page type (WCXB averages per page)."""
    by_type: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
    for page_type, p, r, f in f1_by_page:
        by_type[page_type or "unknown"].append((p, r, f))
        by_type["all"].append((p, r, f))
    return {
        t: {"precision": statistics.fmean(v[0] for v in vals),
            "recall": statistics.fmean(v[1] for v in vals),
            "f1": statistics.fmean(v[2] for v in vals), "n": len(vals)}
        for t, vals in sorted(by_type.items(), key=lambda kv: (kv[0] != "all", kv[0]))
    }


def dataset_page_scores(ds, keep_of_page: Callable[[int], np.ndarray]
                        ) -> list[tuple[str, float, float, float]]:
    """(page type, P, R, F1) of every page of a ``NodeDataset``, keeping the nodes
    ``keep_of_page(i)`` selects on page ``i``."""
    return [(lp.page.page_type, *bag_prf(assemble(lp.table, keep_of_page(i)),
                                         lp.page.text or "", lp.page.script))
            for i, lp in enumerate(ds.pages)]


def respelled_scores(ds, proba: np.ndarray, originals: list[tuple]) -> dict[str, dict]:
    """Page F1 of the respelled copies, and of their originals on the same pages
    (``originals``: the pages' scores, in page order).

    A copy's choice of nodes is applied to its original (same nodes), so it is scored on the
    same words against the same truth: the difference is what the script alone costs.
    """
    c = ds.copies
    ends = np.cumsum([len(t) for t in c.tables])
    copies = [
        (ds.pages[i].page.page_type, *bag_prf(
            assemble(ds.pages[i].table, keep_nodes(table, p)),
            ds.pages[i].page.text or "", ds.pages[i].page.script))
        for i, table, p in zip(c.origin.tolist(), c.tables,
                               np.split(proba, ends[:-1]) if c.tables else (), strict=True)]
    return {"copies": page_summary(copies),
            "originals": page_summary([originals[i] for i in c.origin.tolist()])}


def _fit_predict(name: str, X_tr, y_tr, w_tr, X_te) -> np.ndarray:
    """Content probability for the test rows from a baseline fitted on the training rows."""
    if name == "density":
        return X_te[:, FEATURE_NAMES.index("in_best_block")].astype(np.float64)
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import LinearSVC

    X_tr, X_te = np.nan_to_num(X_tr), np.nan_to_num(X_te)  # the site columns of lone pages
    if name == "logreg":
        est = make_pipeline(StandardScaler(), LogisticRegression(max_iter=500, C=1.0))
        est.fit(X_tr, y_tr, logisticregression__sample_weight=w_tr)
        return est.predict_proba(X_te)[:, 1]
    if name == "linear_svm":
        est = make_pipeline(StandardScaler(), LinearSVC(C=0.1, dual=False, max_iter=2000))
        est.fit(X_tr, y_tr, linearsvc__sample_weight=w_tr)
        return 1.0 / (1.0 + np.exp(-est.decision_function(X_te)))
    raise ValueError(f"unknown model {name!r}; choose from {', '.join(MODELS)}")


def trafilatura_text(body: bytes, url: str | None) -> str:
    """trafilatura's main text as ``newscrawl bench`` calls it; a crash is an empty text."""
    import trafilatura

    try:
        return trafilatura.extract(body, url=url) or ""
    except Exception:  # a peer's crash is scored as an empty extraction
        return ""


def script_summary(scores: list[tuple[str, float, float, float]],
                   scripts: list[str]) -> dict[str, dict]:
    """Page P, R and F1 per scoring script (``datasets.script_of``), for a set that mixes
    them: whether Chinese, Japanese and Korean pages (``chars``, scored by characters) do as
    well as the rest. Empty for a set of one script."""
    by_script: dict[str, list] = defaultdict(list)
    for score, script in zip(scores, scripts, strict=True):
        by_script[script].append(score)
    if len(by_script) < 2:
        return {}
    return {script: page_summary(v)["all"] for script, v in sorted(by_script.items())}


def sets_summary(ds, per_page: dict[str, list]) -> dict[str, dict]:
    """Page scores per page set of ``ds`` (in the order given) for each entry of
    ``per_page`` (name → scores of every page, in page order), over all its pages, per page
    type and per script."""
    summary = {}
    for source in ds.sources:
        mine = [i for i, lp in enumerate(ds.pages) if lp.source == source]
        scripts = [ds.pages[i].page.script for i in mine]
        summary[source] = {"pages": len(mine), "tools": {
            name: {"page": page_summary([scores[i] for i in mine]),
                   "scripts": script_summary([scores[i] for i in mine], scripts)}
            for name, scores in per_page.items()}}
    return summary


def cross_validate(data_dir: str | list[str], folds: int = 5, limit: int | None = None,
                   models: list[str] | tuple[str, ...] = MODELS, seeds: int = 1,
                   with_trafilatura: bool = False) -> dict:
    """Grouped k-fold CV of the shipped two-stage model and the baselines on the same folds,
    over one page set or several pooled (folds grouped by domain and publisher across sets;
    ``sets`` scores each set apart, with trafilatura on the same pages when asked).

    ``xgboost`` is what ships (its pipelines, each stage 1 + context stage, combined as
    ``NodeModel.predict`` combines them; expected-F1 decoding); ``xgb_stage1`` is the
    pipelines' stage 1 alone, combined by the same rule, and
    ``xgb_smoothed`` that with container smoothing, so the table shows
    what each decoding step adds. Logistic regression and the SVM get container smoothing too;
    the density heuristic keeps its one block as it is.
    """
    from sklearn.model_selection import GroupKFold

    from ..training.dataset import build_dataset
    from ..training.fit import (
        combined_members,
        default_members,
        fit_path_words,
        members_out_of_fold,
        page_rows,
        row_weights,
    )

    dirs = [data_dir] if isinstance(data_dir, str | Path) else list(data_dir)
    ds = build_dataset(dirs, limit)
    y = ds.y > 0.5
    splits = list(GroupKFold(n_splits=folds).split(np.arange(len(ds.pages)), groups=ds.groups))
    fit_path_words(ds, splits)  # every model below reads the column out of fold
    result: dict = {"data": " + ".join(map(str, dirs)), "data_sha256": ds.data_sha256,
                    "pages": len(ds.pages), "nodes": int(len(y)), "folds": folds,
                    "grouped_by": "domain and publisher", "models": {}}
    result["label_ceiling"] = page_summary(
        dataset_page_scores(ds, lambda i: ds.pages[i].y > 0.5))
    rows = page_rows(ds)
    tables = [lp.table for lp in ds.pages]
    textless = [(pg.page_type, *bag_prf("", pg.text or "", pg.script)) for pg in ds.textless]
    result["textless_pages"] = len(textless)

    per_page: dict[str, list] = {}

    def kept(proba: np.ndarray, decode: Callable) -> list[np.ndarray]:
        return [decode(lp.table, proba[rows[i]]) for i, lp in enumerate(ds.pages)]

    def record(name: str, proba: np.ndarray, decode: Callable, seconds: float) -> None:
        keep = kept(proba, decode)
        pages = per_page[name] = dataset_page_scores(ds, keep.__getitem__)
        fold_f1 = [statistics.fmean(pages[i][3] for i in test) for _, test in splits]
        result["models"][name] = {
            "node": node_prf(np.concatenate(keep), y), "page": page_summary(pages),
            "page_all_labelled": page_summary(pages + textless),
            "fold_page_f1": fold_f1, "seconds": seconds,
        }
        print(f"  {name}: page F1 {result['models'][name]['page']['all']['f1']:.3f}",
              file=sys.stderr)

    def raw(table, p: np.ndarray) -> np.ndarray:
        return keep_nodes(table, p)

    def smoothed(table, p: np.ndarray) -> np.ndarray:
        return smooth(table, p) > 0.5

    for name in models:
        t0 = time.perf_counter()
        if name == "xgboost":
            oofs = members_out_of_fold(ds, splits, default_members(),
                                       log=lambda m: print(m, file=sys.stderr))
            seconds = time.perf_counter() - t0
            fold_seconds = sum(sum(o.fold_seconds) for o in oofs)
            record("xgboost", combined_members(oofs, "stage2", tables), raw, seconds)
            result["models"]["xgboost"]["respelled"] = respelled_scores(
                ds, combined_members(oofs, "copies_stage2", ds.copies.tables), per_page["xgboost"])
            with_site = [sample_size(lp.table) > 0 for lp in ds.pages]
            result["models"]["xgboost"]["site_sample"] = {
                label: page_summary([score for score, w in zip(per_page["xgboost"], with_site,
                                                               strict=True) if w == want]
                                    ).get("all", {})
                for label, want in (("with", True), ("alone", False))}
            stage1 = combined_members(oofs, "stage1", tables)
            record("xgb_stage1", stage1, raw, fold_seconds)
            record("xgb_smoothed", stage1, smoothed, fold_seconds)
            del oofs
            seed_pages = [per_page["xgboost"]]
            for seed in range(1, seeds):
                proba = combined_members(
                    members_out_of_fold(ds, splits, default_members(seed)), "stage2", tables)
                keep = kept(proba, raw)
                seed_pages.append(dataset_page_scores(ds, keep.__getitem__))
            result["models"]["xgboost"]["seed_page_f1"] = [
                page_summary(pages)["all"]["f1"] for pages in seed_pages]
            seed_sets = [sets_summary(ds, {"xgboost": pages}) for pages in seed_pages]
            result["seed_sets_page_f1"] = {
                source: [s[source]["tools"]["xgboost"]["page"]["all"]["f1"] for s in seed_sets]
                for source in ds.sources}
            continue
        weights = row_weights(ds.X, ds.page_of_row, ds.page_weight)
        proba = np.zeros(len(y))
        for train_pages, _ in splits:
            tr = np.isin(ds.page_of_row, train_pages)
            proba[~tr] = _fit_predict(name, ds.X[tr], y[tr], weights[tr], ds.X[~tr])
        record(name, proba, raw if name == "density" else smoothed, time.perf_counter() - t0)
    if with_trafilatura:
        print("  trafilatura on the same pages ...", file=sys.stderr)
        per_page["trafilatura"] = [
            (lp.page.page_type, *bag_prf(trafilatura_text(lp.page.body, lp.page.url),
                                         lp.page.text or "", lp.page.script))
            for lp in ds.pages]
    result["sets"] = sets_summary(ds, {name: scores for name, scores in per_page.items()
                                       if name in models or name == "trafilatura"})
    return result


RESPELLED = "respelled"


def respelled_text(model, body: bytes, url: str | None) -> str | None:
    """What ``model`` keeps of the page respelled in ideographs without spaces, read from the
    page as written so it is scored on the same words; None when cleaning gives the copy other
    text nodes than the page (then there is no node-for-node reading)."""
    from ..extraction.extractor import page_nodes
    from ..training.respell import respell

    written = page_nodes(body, url).table
    copy = page_nodes(body, url, respell=respell).table
    if written is None or copy is None or len(written) != len(copy):
        return None
    if not len(copy):
        return ""
    return assemble(written, keep_nodes(copy, model.predict(copy)))


def score_model(data_dir: str, model: str | Path, limit: int | None = None,
                with_trafilatura: bool = True) -> dict:
    """Extract every page of ``data_dir`` with a saved model; compare with trafilatura.

    The model also reads every page respelled in ideographs (``RESPELLED``): on pages it never
    saw, how much of its score depends on the page's script.
    """
    from ..evaluation.datasets import load_pages
    from ..extraction import Extractor

    extractor = Extractor(model)
    tools: dict[str, Callable[[bytes, str | None], str | None]] = {
        "newscrawl": lambda body, url: extractor.extract(body, url).text,
        RESPELLED: lambda body, url: respelled_text(extractor.model, body, url),
    }
    if with_trafilatura:
        import trafilatura

        tools["trafilatura"] = lambda body, url: trafilatura.extract(body, url=url) or ""
    scores: dict[str, list] = {name: [] for name in tools}
    scripts: dict[str, list[str]] = {name: [] for name in tools}
    errors: dict[str, int] = dict.fromkeys(tools, 0)
    skipped = 0
    for page in load_pages(data_dir, limit):
        if page.text is None:
            skipped += 1
            continue
        for name, tool in tools.items():
            try:
                text = tool(page.body, page.url)
            except Exception:  # a peer's crash is scored as an empty extraction
                errors[name] += 1
                text = ""
            if text is not None:
                scores[name].append((page.page_type, *bag_prf(text, page.text, page.script)))
                scripts[name].append(page.script)
    return {"data": str(data_dir), "model": str(model), "skipped": skipped, "errors": errors,
            "tools": {name: {"page": page_summary(s), "scripts": script_summary(s, scripts[name])}
                      for name, s in scores.items()}}


def sets_table(tools: dict[str, dict]) -> list[str]:
    """Rows of one page set's scores: P, R and F1 over all pages, then F1 per page type."""
    types = [t for t in next(iter(tools.values()))["page"] if t != "all"]
    header = (f"{'tool':<12} {'P':>6} {'R':>6} {'F1':>6} |" + "".join(
        f" {t[:11]:>11}" for t in types))
    lines = [header, "-" * len(header)]
    for name, m in tools.items():
        everything = m["page"].get("all", {})
        lines.append(f"{name:<12} " + " ".join(
            f"{everything.get(k, float('nan')):>6.3f}" for k in ("precision", "recall", "f1"))
            + " |" + "".join(f" {m['page'].get(t, {}).get('f1', float('nan')):>11.3f}"
                             for t in types))
    lines.append("pages per type: " + ", ".join(
        f"{t} {v['n']}" for t, v in next(iter(tools.values()))["page"].items()))
    return lines + scripts_lines(tools)


def scripts_lines(tools: dict[str, dict]) -> list[str]:
    """A line per script of a set that mixes them: each tool's page P, R and F1 on its pages
    (``chars``: Chinese, Japanese and Korean, scored by characters)."""
    first = next(iter(tools.values())).get("scripts") or {}
    return [f"{script} pages ({first[script]['n']}): " + ", ".join(
        f"{name} {m['scripts'][script]['f1']:.3f} (P {m['scripts'][script]['precision']:.3f}, "
        f"R {m['scripts'][script]['recall']:.3f})"
        for name, m in tools.items() if script in m.get("scripts", {})) for script in first]


def _models_table(entries: dict[str, dict], types: list[str]) -> list[str]:
    """Cross-validated models over all pages: node P/R/F1, then page F1 per type."""
    header = f"{'model':<12} {'node P':>6} {'node R':>6} {'node F1':>7} | page F1: " + " ".join(
        f"{t[:11]:>11}" for t in types)
    lines = [header, "-" * len(header)]
    for name, m in entries.items():
        node = m["node"]
        lines.append(f"{name:<12} {node['precision']:>6.3f} {node['recall']:>6.3f} "
                     f"{node['f1']:>7.3f} |          " + " ".join(
                         f"{m['page'].get(t, {}).get('f1', float('nan')):>11.3f}"
                         for t in types))
    lines.append("pages per type: " + ", ".join(
        f"{t} {v['n']}" for t, v in next(iter(entries.values()))["page"].items()))
    return lines


def format_report(result: dict) -> str:
    lines = [f"data {result['data']}"]
    if "models" in result:
        lines[0] += (f" · {result['pages']} pages, {result['nodes']} nodes · "
                     f"{result['folds']}-fold CV grouped by {result['grouped_by']} · sha256 "
                     f"{result['data_sha256'][:12]}")
        ceiling = result["label_ceiling"]
        lines.append("label ceiling (page F1 of all positively labelled nodes): " + ", ".join(
            f"{t} {v['f1']:.3f}" for t, v in ceiling.items()))
        entries = result["models"]
    else:
        lines[0] += f" · model {result['model']} · skipped {result['skipped']}"
        entries = result["tools"]
        lines += sets_table(entries)
    if "models" in result:
        lines += _models_table(entries, list(next(iter(entries.values()))["page"]))
    if RESPELLED in entries:
        lines.append(f"{RESPELLED}: newscrawl on the {entries[RESPELLED]['page']['all']['n']} "
                     "pages whose copy respelled in ideographs without spaces has the same "
                     "text nodes, the kept nodes read from the page as written")
    if result.get("textless_pages"):
        lines.append(
            f"counted over all labelled pages as the benchmark does ({result['textless_pages']} "
            "pages yield no text node: scored as empty extractions): " + ", ".join(
                f"{name} {m['page_all_labelled']['all']['f1']:.3f} / "
                f"{m['page_all_labelled'].get('article', {}).get('f1', float('nan')):.3f} "
                "articles" for name, m in entries.items() if "page_all_labelled" in m))
    for name, m in entries.items():
        if r := m.get("respelled"):
            lines.append(
                f"{name}: the {r['copies']['all']['n']} pages respelled in ideographs without "
                f"spaces: page F1 {r['copies']['all']['f1']:.3f}, as written "
                f"{r['originals']['all']['f1']:.3f}")
    for name, m in entries.items():
        if (sites := m.get("site_sample")) and "f1" in sites["with"]:
            lines.append(
                f"{name}: the {sites['with']['n']} pages read with other pages of their domain "
                f"(the site's template): page F1 {sites['with']['f1']:.3f}; the "
                f"{sites['alone']['n']} read alone: {sites['alone']['f1']:.3f}")
    for name, m in entries.items():
        if len(m.get("seed_page_f1", ())) > 1:
            f = m["seed_page_f1"]
            lines.append(f"{name}: page F1 by training seed 0..{len(f) - 1}: "
                         + " ".join(f"{v:.4f}" for v in f)
                         + f" (mean {statistics.fmean(f):.4f}, the shipped model is seed 0)")
    for source, per_set in result.get("sets", {}).items():
        lines += ["", f"{source}: {per_set['pages']} pages, page scores "
                  "(precision, recall, F1; per type F1)"]
        lines += sets_table(per_set["tools"])
        f = result.get("seed_sets_page_f1", {}).get(source, [])
        if len(f) > 1:
            lines.append(f"xgboost on {source}: page F1 by training seed 0..{len(f) - 1}: "
                         + " ".join(f"{v:.4f}" for v in f)
                         + f" (mean {statistics.fmean(f):.4f})")
    for name, m in entries.items():
        if "fold_page_f1" in m:
            f = m["fold_page_f1"]
            lines.append(f"{name}: fold page F1 {statistics.fmean(f):.3f} ± "
                         f"{statistics.pstdev(f):.3f}, {m['seconds']:.0f} s")
    return "\n".join(lines)
