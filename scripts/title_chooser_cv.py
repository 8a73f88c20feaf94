"""Experiment: does a learned choice among title candidates beat the hand-written rules?

Not shipped; kept so the figures in docs/tried.md can be rebuilt.
For each labelled page it gathers the candidates a reader could call the title (the rules'
answer, each <h1> that passes the rules' logo/site tests and those that do not, the first
<h2>, og:title or the first other declared title key, the JSON-LD headline and <title>, each
as written, with the site cut and with a descriptor cut, and <title>'s first segment), marks
the one equal to the label (the scorer's folding), and describes each by generic features:
which sources give it, how many declared titles equal or contain it, length, site words, the
<h1>'s rank, count, ancestors and class hints, the URL slug's words, page type, relation to
the rules' answer and to the first <h1> and the site-cut declared title. An XGBoost booster
(depth 3, 20 rounds) and a logistic regression score candidates; the page's title is its
best-scored candidate. Folds: 5, grouped by domain (as ``newscrawl train``).

    PYTHONPATH=. python scripts/title_chooser_cv.py --data ../shared/data/wcxb-dev \
        --check ../shared/data/readability-pages
"""

from __future__ import annotations

import argparse
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import xgboost as xgb
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GroupKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from newscrawl.evaluation.datasets import detect_kind, load_pages
from newscrawl.evaluation.metadata_eval import _LABELS, _fold
from newscrawl.extraction import metadata as m
from newscrawl.extraction.decode import NotText, decode, readable
from newscrawl.extraction.meta_jsonld import read_jsonld
from newscrawl.extraction.parse import parse

SOURCES = ("rule", "h1", "h1_first", "h1_header", "h1_bad", "meta", "meta_strip", "ld",
           "ld_strip", "title", "title_strip", "title_head", "desc_cut", "h2")
RULE_FEATURES = ("src_rule", "contains_rule", "in_rule", "jaccard_rule", "rule_sources",
                 "rule_chars", "rule_words", "slug_share_rule", "len_ratio_rule", "rule_is_h1")
NAMES = (*(f"src_{s}" for s in SOURCES),
         "n_sources", "n_declared_equal", "n_declared_containing", "title_startswith",
         "title_contains", "chars", "words", "has_site", "n_h1_ok", "n_h1", "h1_index",
         "in_article", "in_main", "in_header", "slug_share", "home", "generic_type",
         "article_type", "ellipsis", "question", "has_separator", "upper_ratio", "digits",
         "overlap_declared", "overlap_h1", "n_candidates", "n_times", "has_published",
         "path_depth", "cls_title", "cls_hero", "cls_product", "cls_page", "ends_period",
         "has_colon", "cover_declared", "cover_first_h1", "starts_with_first_h1",
         "prefix_of_declared", "first_h1_words", "declared_words", *RULE_FEATURES)
_ARTICLE_TYPES = ("article", "newsarticle", "blogposting")


def candidates(root, url: str | None) -> tuple[list[str], np.ndarray]:  # noqa: ANN001, C901
    """Candidate titles of one page and their feature rows (columns as NAMES)."""
    meta = m.extract_metadata(root, url)
    c = m._collect(root)
    try:
        ld = read_jsonld(c.scripts)
    except (ValueError, TypeError, AttributeError, RecursionError):
        ld = None
    site_name = meta.site_name
    if site_name and any(sep in site_name for sep in m._SECTION_SEPARATORS):
        site_name = None
    sites = m._site_names(site_name, url)
    site_words = m._words(site_name) if site_name else set()
    home = m._is_home(url)
    found: dict[str, tuple[set[str], list]] = {}

    def add(text: str | None, source: str, el=None) -> None:  # noqa: ANN001
        text = " ".join((text or "").split())
        if text:
            sources, els = found.setdefault(text, (set(), []))
            sources.add(source)
            if el is not None and not els:
                els.append(el)

    rule = " ".join((meta.title or "").split())
    add(rule, "rule")
    declared = []
    for source, value in (("meta", m._first(c.metas, m._TITLE_KEYS)),
                          ("ld", ld.headline if ld else None), ("title", c.title)):
        value = readable(m._clip(value, m._MAX_TITLE))
        if not value:
            continue
        declared.append(value)
        add(value, source)
        stripped = m._strip_site(value, sites, not home)
        add(stripped, source + "_strip")
        add(m._cut_descriptors(stripped), "desc_cut")
        if source == "title":
            sep = next((s for s in m._TITLE_SEPARATORS if s in value), None)
            if sep:
                add(value.partition(sep)[0], "title_head")
    n_ok = 0
    for h in c.h1s:
        text = m._clip(readable(m._inline_text(h)), m._MAX_TITLE)
        text = m._cut_source(m._rstrip_glyphs(text), h) if text else text
        if not text:
            continue
        if m._h1_ok(h, text, sites, site_words):
            text = m._strip_site_tail(text, sites)
            add(text, "h1", h)
            if not n_ok:
                add(text, "h1_first")
            if m._in_page_header(h):
                add(text, "h1_header")
            n_ok += 1
        else:
            add(text, "h1_bad", h)
    h2 = next(root.iter("h2"), None)
    if h2 is not None:
        add(m._clip(m._inline_text(h2), m._MAX_TITLE), "h2", h2)

    slug = m._slug_words(c.canonical or m._first(c.metas, ("og:url",)) or url)
    page_type = m._page_type(c, ld)
    declared_keys = [m._key(d) for d in declared]
    declared_words = set().union(*map(m._words, declared)) if declared else set()
    h1_words = set().union(*(m._words(t) for t, (s, _) in found.items() if "h1" in s))
    first_h1 = next((t for t, (s, _) in found.items() if "h1_first" in s), "")
    named = next((t for t, (s, _) in found.items()
                  if s & {"meta_strip", "ld_strip", "title_strip"}), "")
    first_words, first_key = m._words(first_h1), m._key(first_h1)
    named_words, named_key = m._words(named), m._key(named)
    title_key = m._key(readable(m._clip(c.title, m._MAX_TITLE)) or "")
    rule_key, rule_words = m._key(rule), m._words(rule)
    rule_sources = len(found[rule][0]) if rule in found else 0
    rule_is_h1 = float(rule in found and "h1" in found[rule][0])
    depth = len([p for p in urlsplit(url or "").path.split("/") if p])
    published = float(any(k in c.metas for k in ("article:published_time", "datepublished"))
                      or bool(ld and ld.published))
    texts, rows = [], []
    for text, (sources, els) in found.items():
        key, words = m._key(text), m._words(text)
        el = els[0] if els else None
        ancestors = {a.tag for a in el.iterancestors()} if el is not None else set()
        parent = el.getparent() if el is not None else None
        cls = " ".join(x.get(a) or "" for x in (el, parent) if x is not None
                       for a in ("class", "id")).lower()
        letters = [ch for ch in text if ch.isalpha()]
        row = [float(s in sources) for s in SOURCES] + [
            len(sources), sum(key == k for k in declared_keys),
            sum(bool(key) and key in k for k in declared_keys),
            float(bool(key) and title_key.startswith(key)), float(bool(key) and key in title_key),
            len(text), len(text.split()),
            float(m._is_site(text, sites) or bool(site_words & words)),
            n_ok, len(c.h1s), c.h1s.index(el) if el is not None and el in c.h1s else -1,
            float("article" in ancestors), float("main" in ancestors),
            float("header" in ancestors),
            len(slug & m._slug_words_of(text)) / len(slug) if slug else -1,
            float(home), float(page_type in m._GENERIC_PAGE_TYPES),
            float(page_type in _ARTICLE_TYPES), float(text.endswith(m._ELLIPSES)),
            float(text.endswith("?")), float(any(s in text for s in m._TITLE_SEPARATORS)),
            sum(ch.isupper() for ch in letters) / len(letters) if letters else 0.0,
            float(any(ch.isdigit() for ch in text)),
            len(words & declared_words) / len(words) if words else 0.0,
            len(words & h1_words) / len(words) if words else 0.0,
            0.0, len(c.times), published, depth,
            float("title" in cls or "headline" in cls),
            float("hero" in cls or "banner" in cls or "display" in cls),
            float("product" in cls), float("page" in cls), float(text.endswith((".", "!"))),
            float(":" in text),
            len(words & named_words) / len(named_words) if named_words else -1,
            len(words & first_words) / len(first_words) if first_words else -1,
            float(bool(first_key) and key.startswith(first_key)),
            float(bool(key) and named_key.startswith(key)), len(first_words), len(named_words),
            float("rule" in sources), float(bool(rule_key) and rule_key in key),
            float(bool(key) and key in rule_key),
            len(words & rule_words) / max(1, len(words | rule_words)), rule_sources, len(rule),
            len(rule.split()),
            len(slug & m._slug_words_of(rule)) / len(slug) if slug and rule else -1,
            len(text) / max(1, len(rule)), rule_is_h1]
        texts.append(text)
        rows.append(row)
    X = np.asarray(rows, dtype=np.float32).reshape(len(rows), len(NAMES))
    X[:, NAMES.index("n_candidates")] = len(rows)
    return texts, X


def load(data: str) -> list[dict]:
    key = _LABELS[detect_kind(Path(data))]["title"]
    pages = []
    for page in load_pages(data):
        gold = _fold(page.meta.get(key))
        if not gold:
            continue
        try:
            root = parse(decode(page.body)[1])
        except NotText:
            continue
        texts, X = candidates(root, page.url)
        y = np.array([_fold(t) == gold for t in texts])
        pages.append({"domain": page.domain, "X": X, "y": y,
                      "rule_ok": bool(y[X[:, NAMES.index("src_rule")] > 0].any())})
    return pages


def _xgb(X: np.ndarray, y: np.ndarray):  # noqa: ANN202
    params = {"objective": "binary:logistic", "max_depth": 3, "eta": 0.3,
              "min_child_weight": 2, "nthread": 1, "verbosity": 0}
    booster = xgb.train(params, xgb.DMatrix(X, label=y), 20)
    return lambda Z: booster.predict(xgb.DMatrix(Z))


def _logreg(X: np.ndarray, y: np.ndarray):  # noqa: ANN202
    model = make_pipeline(StandardScaler(), LogisticRegression(C=1.0, max_iter=2000)).fit(X, y)
    return model.decision_function


def _accuracy(score, pages: list[dict], columns: list[int]) -> float:  # noqa: ANN001
    return float(np.mean([p["y"][int(np.argmax(score(p["X"][:, columns])))] for p in pages]))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--check", action="append", default=[])
    ap.add_argument("--folds", type=int, default=5)
    args = ap.parse_args()
    pages = load(args.data)
    checks = {d: load(d) for d in args.check}
    oracle = np.mean([p["y"].any() for p in pages])
    print(f"{len(pages)} pages, {sum(len(p['y']) for p in pages)} candidates, "
          f"{len(NAMES)} features; a candidate equals the label on {oracle:.4f}")
    groups = np.array([p["domain"] for p in pages])
    splits = list(GroupKFold(n_splits=args.folds).split(np.arange(len(pages)), groups=groups))
    everything = list(range(len(NAMES)))
    without_rule = [i for i, n in enumerate(NAMES) if n not in RULE_FEATURES]
    for name, fit, columns in (("xgboost, with the rules' answer", _xgb, everything),
                               ("xgboost, without it", _xgb, without_rule),
                               ("logistic regression, with it", _logreg, everything)):
        hits = learned = 0.0
        print(name)
        for k, (train, test) in enumerate(splits):
            train_pages = [pages[i] for i in train]
            score = fit(np.vstack([p["X"][:, columns] for p in train_pages]),
                        np.concatenate([p["y"] for p in train_pages]))
            test_pages = [pages[i] for i in test]
            acc = _accuracy(score, test_pages, columns)
            rules = float(np.mean([p["rule_ok"] for p in test_pages]))
            learned += acc * len(test)
            hits += rules * len(test)
            print(f"  fold {k + 1}: n={len(test)} learned {acc:.4f} rules {rules:.4f}")
        print(f"  CV: learned {learned / len(pages):.4f} rules {hits / len(pages):.4f}")
        score = fit(np.vstack([p["X"][:, columns] for p in pages]),
                    np.concatenate([p["y"] for p in pages]))
        for data, check in checks.items():
            rules = float(np.mean([p["rule_ok"] for p in check]))
            print(f"  {data}: learned {_accuracy(score, check, columns):.4f} rules {rules:.4f}")


if __name__ == "__main__":
    main()
