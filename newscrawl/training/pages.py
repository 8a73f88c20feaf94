"""``newscrawl train-pages``: train the article-or-not page classifier, print its grouped
cross-validated precision/recall, write ``models/pages-v1.ubj`` and its card.

Every page is extracted by the node model (the shipped one, or ``--model``) and described by
``pagekind.article_features``, the same function the crawl calls, so retraining after the
node model changes is this one command (about two minutes on two cores): nothing is cached.

Labels: a WCXB page is an article when its page type is ``article``; forum threads,
documentation, products, services, collections and listings are not (a news corpus wants
none of them); every fundus-dev page is a news article; the generated news-site pages
(``listings.generate_pages``) are not. Folds are grouped by site: a WCXB domain, a fundus
publisher, a generated site.
"""

from __future__ import annotations

import argparse
import hashlib
import shlex
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from ..evaluation.datasets import Page, load_pages
from ..extraction import Article, Extractor
from ..extraction.decode import NotText, decode_page
from ..extraction.pagekind import (
    MENU_MIN_DOMAINS,
    PAGE_CLASSES,
    PAGE_FEATURE_NAMES,
    PAGE_FEATURE_VERSION,
    URL_BUCKETS,
    URL_FEATURE_NAMES,
    PageModel,
    PageWords,
    article_features,
    footer_link_words,
    menu_score,
    menu_word_weights,
    title_words,
    words_of,
)
from ..extraction.parse import parse
from ..extraction.site import SiteMemory
from .listings import SEED, Story, generate_pages

PARAMS = {"objective": "multi:softprob", "num_class": len(PAGE_CLASSES),
          "eval_metric": "mlogloss", "max_depth": 3, "eta": 0.1, "subsample": 0.9,
          "colsample_bytree": 0.8, "min_child_weight": 2, "lambda": 2.0, "seed": 0,
          "nthread": 1}
URL_PARAMS = {**{k: v for k, v in PARAMS.items() if k != "num_class"},
              "objective": "binary:logistic", "eval_metric": "logloss"}
"""The URL model only orders requests: article or not is all it needs to say."""
ROUNDS = 160
"""Rounds of each class's trees: 100 and 250 rounds, depth 2, 4, eta 0.05 were noise out of
fold (three seeds; models/pages-audit.md)."""
NEWS_WEIGHT = 3.0
"""Training weight of a page from a set that names its publisher (fundus-dev): a news article
by construction, where a WCXB "article" may be a landing page (models/pages-audit.md). Out of
fold, weighted, every fundus-dev article was kept over three seeds; unweighted, one seed of
three dropped one."""
PAGE_WORDS_C = 0.1
"""Inverse L2 strength of the page-words regression: C 0.03 and 0.1 with words of 3 or 5
sites were within 0.008 of each other out of fold (three seeds); models/pages-audit.md has
the column's figures."""
PAGE_WORDS_MIN_SITES = 5
"""A word weighs only when pages of this many training sites show it: a site's own names
(its brand, its menu) would tell the classifier that site, not the kind of page."""
_MENU_COL = PAGE_FEATURE_NAMES.index("title_menu_words")
_WORDS_COLS = slice(PAGE_FEATURE_NAMES.index("page_words_article"),
                    PAGE_FEATURE_NAMES.index("page_words_article") + len(PAGE_CLASSES))
_LISTING_KINDS = frozenset({"archive", "author", "front", "search", "section", "tag"})


def page_class(kind: str, is_article: int) -> int:
    """The index in ``PAGE_CLASSES`` a training page is learnt as: fundus-dev's pages are
    articles, the generated news-site pages (and any untyped page) listings."""
    if is_article:
        return 0
    if kind in PAGE_CLASSES:
        return PAGE_CLASSES.index(kind)
    return PAGE_CLASSES.index("listing")
RECALL_TARGET = 0.98
PRECISION_TARGET = 0.95
WCXB_CREDIT = ('M. Foley, "WCXB: A Multi-Type Web Content Extraction Benchmark", 2026 '
               "(CC-BY-4.0)")
FUNDUS_CREDIT = ('M. Dallabetta et al., "Fundus: A Simple-to-Use News Scraper Optimized for '
                 'High Quality Extractions", ACL 2024 demo (MIT)')


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", action="append", required=True, metavar="DIR",
                        help="labelled pages in WCXB's layout (repeatable): wcxb-dev, "
                             "fundus-dev")
    parser.add_argument("--out", type=Path, default=Path("models/pages-v1.ubj"),
                        help="the model file, its companions beside it (default: the shipped "
                             "models/pages-v1.ubj, overwritten; give another path for a trial)")
    parser.add_argument("--model", type=Path, default=None,
                        help="the node model whose output the classifier reads (default: the "
                             "shipped models/nodes-v1.ubj): a node model trained elsewhere")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--generated-sites", type=int, default=60,
                        help="news sites to generate front, section, tag, author, archive "
                             "and search pages for, as further non-articles (default 60)")
    parser.add_argument("--limit", type=int, default=None, help="first N pages of each set")
    parser.add_argument("--check", action="append", default=[], metavar="DIR",
                        help="also decide the pages of this set with the finished model, "
                             "never trained on (repeatable): how many it calls articles")


@dataclass
class PageRows:
    """Every training page extracted once: the result, its label and where it came from."""

    articles: list[Article] = field(default_factory=list)
    y: list[int] = field(default_factory=list)
    group: list[str] = field(default_factory=list)
    """Site: WCXB domain, fundus publisher (one domain each), generated site."""
    source: list[str] = field(default_factory=list)
    """Data set name, or ``generated``."""
    kind: list[str] = field(default_factory=list)
    """WCXB page type, ``article`` for fundus, the generated page's kind."""
    weight: list[float] = field(default_factory=list)
    footer_words: list[set[str]] = field(default_factory=list)
    """The words of each page's footer links (``footer_link_words``)."""

    def add(self, art: Article, y: int, group: str, source: str, kind: str,
            weight: float = 1.0, footer_words: set[str] | None = None) -> None:
        self.articles.append(art)
        self.footer_words.append(footer_words or set())
        self.y.append(y)
        self.group.append(group)
        self.source.append(source)
        self.kind.append(kind)
        self.weight.append(weight)

    def features(self) -> np.ndarray:
        """The page classifier's rows, computed by the crawl's own function; how each page
        was found is unknown offline (NaN)."""
        return np.vstack([article_features(a) for a in self.articles]).astype(np.float32)


def extract_pages(data_dirs: list[str], generated_sites: int, limit: int | None,
                  log, model: Path | None = None) -> tuple[PageRows, str, int]:
    """Extract the labelled sets and the generated pages with the node model (default: the
    shipped one); return the rows, a digest of the labelled data and how many stories made
    teasers.

    Each page is read as a crawl reads it: with its site's other pages in the extractor's
    site memory, so the node model knows the site's template. Read alone, a site's fixed
    and listing pages keep their menus and look less like stories than they do in a crawl,
    where the classifier meets them (the sample site's privacy page: P(article) 0.12 alone,
    0.27 after 30 of the site's pages).
    """
    memory = Extractor(model, sites=SiteMemory(max_sites=1_000_000))
    digest = hashlib.sha256()
    pages: list[tuple[str, Page]] = []
    for data_dir in data_dirs:
        name = Path(data_dir).name
        n = 0
        for page in load_pages(data_dir, limit):
            digest.update(page.body)
            digest.update(f"{page.url}\0{page.page_type}".encode())
            pages.append((name, page))
            memory.extract(page.body, page.url)
            n += 1
        log(f"  {name}: {n} pages")
    rows = PageRows()
    stories: list[Story] = []
    for name, page in pages:
        art = memory.extract(page.body, page.url)
        rows.add(art, int(page.page_type == "article"), page.domain, name,
                 page.page_type or "unknown", NEWS_WEIGHT if page.publisher else 1.0,
                 _footer_words(page.body, page.url))
        if page.page_type == "article" and page.text:
            paras = tuple(p for p in page.text.split("\n\n") if p.strip())[:2]
            title = page.meta.get("title") or art.title
            if title and paras and page.url:
                stories.append(Story(title, paras, page.url))
    generated = list(generate_pages(stories, sites=generated_sites))
    for page in generated:
        memory.extract(page.html, page.url)
    for page in generated:
        rows.add(memory.extract(page.html, page.url), 0, page.site, "generated", page.kind)
    log(f"  generated: {generated_sites} sites, {len(generated)} pages")
    return rows, digest.hexdigest(), len(stories)


def _footer_words(body: bytes, url: str | None) -> set[str]:
    try:
        _, text, utf8 = decode_page(body, None, url)
    except NotText:
        return set()
    return footer_link_words(parse(text, utf8))


def menu_columns(rows: PageRows, real: np.ndarray) -> tuple[np.ndarray, dict[str, float]]:
    """The ``title_menu_words`` column, each real page scored with the weights its own
    domain's footers and titles left out of (a page's footer names the page itself); the
    generated pages with all of them. Returns the column and the weights the model keeps."""
    groups = rows.group
    footer: dict[str, set[str]] = {}
    titles: dict[str, set[str]] = {}
    for i in np.flatnonzero(real):
        footer.setdefault(groups[i], set()).update(rows.footer_words[i])
        titles.setdefault(groups[i], set()).update(title_words(rows.articles[i].title))
    f_count = Counter(w for ws in footer.values() for w in ws)
    t_count = Counter(w for ws in titles.values() for w in ws)
    weights = menu_word_weights(f_count, t_count)
    column = np.full(len(rows.articles), np.nan, dtype=np.float32)
    for i, art in enumerate(rows.articles):
        own = groups[i] if real[i] else None
        if own is None:
            score = menu_score(weights, art.title)
        else:
            words = title_words(art.title)
            f_own, t_own = footer[own], titles[own]
            score = menu_score(
                {w: f / (f + t_count[w] - (w in t_own) + 1)
                 for w in words if (f := f_count[w] - (w in f_own)) >= MENU_MIN_DOMAINS},
                art.title)
        if score is not None:
            column[i] = score
    return column, weights


def pr_curve(p: np.ndarray, y: np.ndarray, thresholds: np.ndarray) -> list[tuple[float, ...]]:
    """(threshold, precision, recall, articles kept, non-articles let in) per threshold."""
    out = []
    positives = int(y.sum())
    for t in thresholds:
        pred = p >= t
        tp = int((pred & (y == 1)).sum())
        fp = int((pred & (y == 0)).sum())
        precision = tp / (tp + fp) if tp + fp else 1.0
        out.append((float(t), precision, tp / positives if positives else 1.0, tp, fp))
    return out


def choose_threshold(p: np.ndarray, y: np.ndarray, listings: np.ndarray | None = None) -> float:
    """The threshold of the best F2 out of fold (recall weighs twice as much as precision):
    a crawl that drops an article has lost it, one that lets a page in has a line to filter.
    Among those above every score in ``listings`` (the generated section, tag and author
    pages, out of fold): the F2 curve is flat near its top, and a retrain that moved its peak
    from 0.18 to 0.07 let the sample site's Chinese author pages through (scored 0.05-0.07).

    Not the highest threshold that keeps 98 % of the articles: on WCXB that one sits at the
    noise floor of the labels (the 2 % of "articles" scored lowest are landing pages, a
    dictionary entry, a front page, webcams), where it lets in most forums and products
    and section pages of the demo site score above it."""
    order = np.argsort(-p, kind="stable")
    hits = np.cumsum(y[order] == 1)
    kept = np.arange(1, len(p) + 1)
    positives = max(int((y == 1).sum()), 1)
    f2 = 5 * hits / (4 * positives + kept)
    if listings is not None and len(listings):
        above = p[order] > float(np.max(listings))
        if above.any():
            f2 = np.where(above, f2, -1.0)
    return float(p[order][int(np.argmax(f2))])


def fit(X: np.ndarray, labels: np.ndarray, weight: np.ndarray,
        names: tuple[str, ...] = PAGE_FEATURE_NAMES):
    """The page classifier over ``labels`` (``page_class`` indices); over the URL columns
    alone (``names``), the URL model over article (1) or not (0)."""
    import xgboost as xgb

    params = PARAMS if names == PAGE_FEATURE_NAMES else URL_PARAMS
    dtrain = xgb.DMatrix(X, label=labels, weight=weight, feature_names=list(names),
                         missing=np.nan)
    return xgb.train(params, dtrain, num_boost_round=ROUNDS)


def predict(booster, X: np.ndarray, names: tuple[str, ...] = PAGE_FEATURE_NAMES) -> np.ndarray:
    """P(article) per row."""
    import xgboost as xgb

    p = booster.predict(xgb.DMatrix(X, feature_names=list(names), missing=np.nan))
    return p[:, 0] if p.ndim == 2 else p


def out_of_fold(X: np.ndarray, labels: np.ndarray, weight: np.ndarray, splits: list,
                names: tuple[str, ...] = PAGE_FEATURE_NAMES,
                columns: list[np.ndarray] | None = None) -> np.ndarray:
    """P(article) out of fold; ``columns``, per fold, the ``page_words_*`` columns that
    fold's rows get."""
    oof = np.zeros(len(labels))
    for k, (train, test) in enumerate(splits):
        Xk = X
        if columns is not None:
            Xk = X.copy()
            Xk[:, _WORDS_COLS] = columns[k]
        oof[test] = predict(fit(Xk[train], labels[train], weight[train], names), Xk[test],
                            names)
    return oof


def fit_page_words(words: list[set[str]], labels: np.ndarray, weight: np.ndarray,
                   groups: np.ndarray, rows: np.ndarray) -> PageWords:
    """The page-words regression on ``rows``: presence of each word shown on pages of
    ``PAGE_WORDS_MIN_SITES`` sites or more, against the page's class (``page_class``)."""
    import scipy.sparse as sp
    from sklearn.linear_model import LogisticRegression

    sites: dict[str, set[str]] = {}
    for i in rows.tolist():
        for word in words[i]:
            sites.setdefault(word, set()).add(groups[i])
    vocab = sorted(w for w, s in sites.items() if len(s) >= PAGE_WORDS_MIN_SITES)
    present = sorted(set(labels[rows].tolist()))
    shares = np.bincount(labels[rows], weights=weight[rows], minlength=len(PAGE_CLASSES))
    prior = np.log(np.clip(shares / max(shares.sum(), 1e-9), 1e-3, None))
    if not vocab or len(present) < 2:  # too few sites or classes to learn a word from
        return PageWords(tuple(map(float, prior)), {})
    index = {w: k for k, w in enumerate(vocab)}
    indices: list[int] = []
    indptr = [0]
    for i in rows.tolist():
        indices.extend(sorted(index[w] for w in words[i] if w in index))  # as score_words
        indptr.append(len(indices))
    A = sp.csr_matrix((np.ones(len(indices)), indices, indptr), shape=(len(rows), len(vocab)))
    model = LogisticRegression(C=PAGE_WORDS_C, max_iter=2000).fit(
        A, labels[rows], sample_weight=weight[rows])
    coef = np.zeros((len(vocab), len(PAGE_CLASSES)))
    intercepts = prior - 10.0  # a class no training page has: never the likeliest
    if len(present) == 2:  # sklearn fits one column, the log-odds of the second class
        coef[:, present[1]] = model.coef_[0]
        intercepts[present] = (0.0, float(model.intercept_[0]))
    else:
        coef[:, present] = model.coef_.T
        intercepts[present] = model.intercept_
    return PageWords(tuple(round(float(b), 5) for b in intercepts),
                     {w: tuple(round(float(c), 5) for c in row)
                      for w, row in zip(vocab, coef, strict=True) if np.abs(row).max() >= 1e-5})


def page_words_columns(words: list[set[str]], labels: np.ndarray, weight: np.ndarray,
                       groups: np.ndarray, splits: list, real: np.ndarray
                       ) -> tuple[list[np.ndarray], np.ndarray]:
    """Per outer fold, the ``page_words_*`` columns as that fold's classifier sees them: its test
    rows scored by a regression on its training rows, its training rows out of fold within
    them, so the trees learn how far to trust scores like those an unseen site gets. Also
    the column for the final fit: every row scored by the fold that left it out. The
    regressions learn from the ``real`` pages only: the generated ones would teach them the
    generator's own words."""
    from sklearn.model_selection import GroupKFold

    def score(pw: PageWords, rows: np.ndarray) -> np.ndarray:
        return np.array([pw.score_words(words[i]) for i in rows.tolist()])

    def fitted(rows: np.ndarray) -> PageWords:
        return fit_page_words(words, labels, weight, groups, rows[real[rows]])

    per_fold: list[np.ndarray] = []
    final = np.zeros((len(labels), len(PAGE_CLASSES)))
    for train, test in splits:
        column = np.zeros_like(final)
        column[test] = final[test] = score(fitted(train), test)
        inner = GroupKFold(n_splits=len(splits)).split(train, labels[train], groups[train])
        for fit_rows, held in inner:
            column[train[held]] = score(fitted(train[fit_rows]), train[held])
        per_fold.append(column.astype(np.float32))
    return per_fold, final.astype(np.float32)


def run(args: argparse.Namespace) -> int:
    from sklearn.model_selection import GroupKFold

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    t_start = time.perf_counter()
    log(f"extracting {', '.join(args.data)} with the node model "
        f"{args.model or 'shipped in models/'} ...")
    rows, data_sha, n_stories = extract_pages(args.data, args.generated_sites, args.limit, log,
                                              args.model)
    X = rows.features()
    y = np.asarray(rows.y)
    groups = np.asarray(rows.group)
    source = np.asarray(rows.source)
    kinds = np.asarray(rows.kind)
    weight = np.asarray(rows.weight)
    labels = np.array([page_class(k, a) for k, a in zip(kinds, y, strict=True)])
    t_extract = time.perf_counter() - t_start

    splits = list(GroupKFold(n_splits=args.folds).split(X, y, groups))
    real = source != "generated"
    words = [words_of(a.signals.page_text) for a in rows.articles]
    columns, X[:, _WORDS_COLS] = page_words_columns(words, labels, weight, groups, splits, real)
    X[:, _MENU_COL], menu_weights = menu_columns(rows, real)
    oof = out_of_fold(X, labels, weight, splits, columns=columns)
    X_url = X[:, :len(URL_FEATURE_NAMES)]
    oof_url = out_of_fold(X_url, y, weight, splits, URL_FEATURE_NAMES)
    threshold = choose_threshold(oof[real], y[real], oof[~real])

    t0 = time.perf_counter()
    booster = fit(X, labels, weight)
    url_booster = fit(X_url, y, weight, URL_FEATURE_NAMES)
    page_words = fit_page_words(words, labels, weight, groups, np.flatnonzero(real))
    page_words.menu = menu_weights
    fit_seconds = time.perf_counter() - t0

    figures = report(oof, y, source, kinds, real, threshold, args.folds, splits)
    figures["text"] += "\n\n" + url_report(oof_url, y, real)
    worst = [(float(oof[i]), rows.articles[i].url, kinds[i]) for i in np.argsort(oof)
             if y[i] == 1 and real[i]][:8]
    worst += [(float(oof[i]), rows.articles[i].url, kinds[i]) for i in np.argsort(-oof)
              if y[i] == 0][:8]
    out: Path = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    import xgboost as xgb

    attrs = {
        "newscrawl_model_name": out.stem,
        "newscrawl_page_feature_version": str(PAGE_FEATURE_VERSION),
        "newscrawl_threshold": f"{threshold:.6f}",
        "train_data_sha256": data_sha,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "xgboost_version": xgb.__version__,
        "cv_recall_precision": f"{figures['recall']:.4f} {figures['precision']:.4f}",
    }
    for data_dir in args.check:
        log(f"deciding {data_dir} ...")
        figures["text"] += "\n" + check_set(
            data_dir, PageModel(booster, threshold=threshold, words=page_words), args.model)
    url_out = out.with_name(out.stem + ".url.ubj")
    url_booster.set_attr(**attrs)
    url_booster.save_model(str(url_out))
    words_out = out.with_name(out.stem + ".words.json")
    page_words.save(words_out, newscrawl_model_name=out.stem, train_data_sha256=data_sha)
    booster.set_attr(**attrs, newscrawl_url_model=url_out.name,
                     newscrawl_words_model=words_out.name,
                     newscrawl_page_classes=" ".join(PAGE_CLASSES))
    booster.save_model(str(out))
    seconds = time.perf_counter() - t_start
    card = model_card(args, rows, y, source, kinds, data_sha, threshold, figures, worst,
                      booster, out, seconds, t_extract, fit_seconds, n_stories)
    out.with_suffix(".md").write_text(card, "utf-8")
    log(f"wrote {out} and {out.with_suffix('.md')} in {seconds:.0f} s")
    print(figures["text"])
    return 0


def report(oof: np.ndarray, y: np.ndarray, source: np.ndarray, kinds: np.ndarray,
           real: np.ndarray, threshold: float, folds: int, splits) -> dict:
    lines = [f"out of fold, {folds} folds grouped by site; threshold {threshold:.3f} "
             "(best F2 on WCXB dev + fundus-dev above every generated listing)", ""]
    grid = np.unique(np.concatenate([np.round(np.linspace(0.05, 0.95, 19), 2), [threshold]]))
    lines.append("precision/recall curve, WCXB dev + fundus-dev:")
    lines.append("  threshold  precision  recall  articles kept  non-articles in")
    for t, prec, rec, tp, fp in pr_curve(oof[real], y[real], grid):
        mark = "  <- chosen" if t == threshold else ""
        lines.append(f"  {t:9.3f}  {prec:9.3f}  {rec:6.3f}  {tp:13d}  {fp:15d}{mark}")
    pred = oof >= threshold
    lines += ["", "at the chosen threshold, per data set:"]
    per_set = {}
    for name in sorted(set(source)):
        m = source == name
        tp = int((pred & m & (y == 1)).sum())
        fp = int((pred & m & (y == 0)).sum())
        pos = int((m & (y == 1)).sum())
        neg = int((m & (y == 0)).sum())
        prec = tp / (tp + fp) if tp + fp else float("nan")
        rec = tp / pos if pos else float("nan")
        per_set[name] = (pos, neg, tp, fp, prec, rec)
        lines.append(f"  {name:12s} articles {tp}/{pos} kept (recall {rec:.3f}), "
                     f"non-articles in {fp}/{neg}, precision {prec:.3f}")
    lines += ["", "non-articles let in, by page type:"]
    for kind in sorted(set(kinds[y == 0])):
        m = (kinds == kind) & (y == 0)
        lines.append(f"  {kind:14s} {int((pred & m).sum())}/{int(m.sum())}")
    fold_lines = []
    for k, (_, test) in enumerate(splits, 1):
        m = np.zeros(len(y), bool)
        m[test] = True
        m &= real
        tp = int((pred & m & (y == 1)).sum())
        fp = int((pred & m & (y == 0)).sum())
        pos = int((m & (y == 1)).sum())
        fold_lines.append((k, tp / (tp + fp) if tp + fp else float("nan"), tp / pos))
    lines += ["", "per fold (WCXB + fundus pages of the fold): " + "; ".join(
        f"{k}: P {p:.3f} R {r:.3f}" for k, p, r in fold_lines)]
    tp = int((pred & real & (y == 1)).sum())
    fp = int((pred & real & (y == 0)).sum())
    recall = tp / int((real & (y == 1)).sum())
    precision = tp / (tp + fp)
    news = real & ((y == 1) | np.isin(kinds, ("listing", "collection"))) | (source == "generated")
    news_fp = int((pred & news & (y == 0)).sum())
    lines += ["", f"news-site view (articles against listings, collections and the generated "
              f"section, tag, author, front, archive and search pages only): precision "
              f"{tp / (tp + news_fp):.3f}, {news_fp} of {int((news & (y == 0)).sum())} let in"]
    curve = pr_curve(oof[real], y[real], np.unique(oof[real]))
    p_at = max((c[1] for c in curve if c[2] >= RECALL_TARGET), default=0.0)
    r_at = max((c[2] for c in curve if c[1] >= PRECISION_TARGET), default=0.0)
    target = p_at >= PRECISION_TARGET
    lines += ["", f"WCXB dev + fundus-dev at the chosen threshold: recall {recall:.3f}, precision "
              f"{precision:.3f}. Target recall >= {RECALL_TARGET} at precision >= "
              f"{PRECISION_TARGET}: {'met' if target else 'NOT met'} (best precision at "
              f"recall >= {RECALL_TARGET}: {p_at:.3f}; best recall at precision >= "
              f"{PRECISION_TARGET}: {r_at:.3f})"]
    return {"text": "\n".join(lines), "recall": recall, "precision": precision,
            "per_set": per_set, "target": target}


def check_set(data_dir: str, model: PageModel, node_model: Path | None = None) -> str:
    """How many pages of a set never trained on the finished model calls articles, decided
    as a crawl decides them."""
    extractor = Extractor(node_model)
    kept = total = 0
    for page in load_pages(data_dir):
        art = extractor.extract(page.body, page.url)
        if not art.ok:
            continue
        total += 1
        kept += model.decide(art).is_article
    return (f"never trained on, {Path(data_dir).name} (pages with text): {kept}/{total} "
            "decided article")


def url_report(oof_url: np.ndarray, y: np.ndarray, real: np.ndarray) -> str:
    """How well the URL alone ranks pages (it only orders the crawl): the articles' share
    among the pages it puts in its top half, against their share overall."""
    p, yy = oof_url[real], y[real]
    top = np.zeros(len(p), dtype=bool)
    top[np.argsort(-p, kind="stable")[:(len(p) + 1) // 2]] = True
    return (f"URL alone (orders requests, drops nothing), WCXB + fundus out of fold: articles "
            f"are {yy.mean():.3f} of the pages, {yy[top].mean():.3f} of the half it ranks "
            f"first, {yy[~top].mean():.3f} of the other half")


def model_card(args, rows: PageRows, y, source, kinds, data_sha: str, threshold: float,
               figures: dict, worst: list, booster, out: Path, seconds: float,
               t_extract: float, fit_seconds: float, n_stories: int) -> str:
    import xgboost as xgb

    command = "newscrawl train-pages " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    counts = Counter(zip(source, kinds, strict=True))
    data_lines = []
    for name in dict.fromkeys(source):
        by_kind = ", ".join(f"{k} {n}" for (s, k), n in sorted(counts.items()) if s == name)
        data_lines.append(f"- {name}: {sum(source == name)} pages ({by_kind})")
    gain = booster.get_score(importance_type="total_gain")
    top = sorted(gain.items(), key=lambda kv: -kv[1])[:15]
    total = sum(gain.values()) or 1.0
    lines = [
        f"# Model card: {out.stem}",
        "",
        "Page classifier of newscrawl: is an extracted page a news article or something else "
        "(a section front, tag, author or search page, a product, a forum thread, docs ...)? "
        f"XGBoost, {ROUNDS} rounds of trees of depth {PARAMS['max_depth']}, one tree a "
        f"round for each of {len(PAGE_CLASSES)} page classes ({', '.join(PAGE_CLASSES)}: "
        "WCXB's types, a news site's section, tag and author pages among the listings), over "
        f"{len(PAGE_FEATURE_NAMES)} page features (`newscrawl/extraction/pagekind.py`, "
        f"feature version {PAGE_FEATURE_VERSION}; the ordered names are stored in the file and "
        "checked when it loads). One call a page, after extraction: the crawl's pipeline and "
        "`newscrawl extract --articles` call `PageModel.decide`, over the same "
        "`article_features` this command trains and cross-validates on. A page is an article "
        f"when P(article), the article class's share of the softmax, ≥ the threshold stored "
        f"in the file, {threshold:.3f}. Seven classes rather than article or not: a forum "
        "thread and a price list are not articles for different reasons, and out of fold the "
        "softmax ranked articles better than one logistic output (models/pages-audit.md).",
        "",
        f"`{out.stem}.url.ubj`, named in the model file, is the same learner over the "
        f"{len(URL_FEATURE_NAMES)} `url_*` columns alone, article or not: the spider gives a "
        "page request its score as Scrapy priority, so likely articles are fetched first; it "
        "never drops one.",
        "",
        f"`{out.stem}.words.json`, also named in the model file, is a multinomial logistic "
        "regression "
        "(C " f"{PAGE_WORDS_C:g}) over which words a page shows anywhere, kept or not "
        "(letters only, lower-cased; a forum's \"reply\" and \"joined\", a shop's \"cart\"), "
        f"for words that pages of at least {PAGE_WORDS_MIN_SITES} training sites show, "
        "learnt from the labelled pages only (the generated ones would teach it the "
        "generator's words). Its log-odds of each class are the `page_words_*` columns. Out "
        "of fold, each fold's trees read the columns as the fold's own regressions give them, "
        "nested inside "
        "its training pages, so they learn how far to trust it on sites it never saw.",
        "",
        "## Rebuild",
        "",
        "```",
        command,
        "```",
        "",
        f"Took {seconds:.0f} s on this machine (2 cores): extraction of every page with the "
        f"node model {t_extract:.0f} s, the final fit {fit_seconds:.1f} s. xgboost "
        f"{xgb.__version__}. Rerun it whenever the node model changes: its output is half of "
        "the evidence, and nothing is cached.",
        "",
        "## Data",
        "",
        *data_lines,
        f"- data sha256 `{data_sha[:16]}` (page bytes, URLs and types of the labelled sets).",
        f"- WCXB development split: {WCXB_CREDIT}. fundus-dev: {FUNDUS_CREDIT}.",
        "- What counts as an article: WCXB `article` (news stories and blog posts) and every "
        "fundus-dev page. Forum threads, documentation, products, services, collections and "
        "listings are not: the crawl builds a news corpus, and its output used to hold none "
        "of them on the sample site either.",
        f"- Generated: {args.generated_sites} news sites of about seven pages each (front "
        "page, two section fronts and their second pages, a tag page, an author page with or "
        "without a bio, a dated archive or a search result; `newscrawl/training/listings.py`, "
        f"seed {SEED}), teasers made of the headlines and first sentences of {n_stories} "
        "labelled articles. None of the demo's sample site: other markup (six teaser layouts: "
        "headline+excerpt, image cards, link lists, long 30-60 word excerpts, tables, "
        "kicker+standfirst; random class names), other URL styles (words of several "
        "languages, query-string pagination, `.html` paths), no sample-site text, so the "
        "sample-site crawl test measures the model on pages it never saw.",
        f"- Weights: a fundus-dev page (a set that names its publisher) weighs {NEWS_WEIGHT:g} "
        "WCXB or generated pages in training: it is a news article by construction, where "
        "WCXB's `article` type holds landing pages too. The figures below count every page "
        "once.",
        "- How a page was found (`via_*`) is unknown for every training page: those columns "
        "are NaN throughout, so the trees never split on them and a crawl's value changes "
        "nothing until a model is trained on crawl logs.",
        "",
        "## Parameters",
        "",
        f"`{PARAMS}`, {ROUNDS} rounds; the URL model the same as `binary:logistic`.",
        "",
        "## Cross-validated scores",
        "",
        "```",
        figures["text"],
        "```",
        "",
        "The issue's target (recall ≥ 0.98 at precision ≥ 0.95 on WCXB dev + fundus-dev, "
        "every WCXB type but `article` counted against) is not reached: WCXB's `article` "
        "type holds landing pages, a dictionary entry, webcams and a firm's front page (the "
        "lowest-scored below; models/pages-audit.md read the 38 pages-v1 of 678e405 "
        "rejected: 23 are not articles, more than the 18 a recall of 0.98 may drop), so "
        "keeping 98 % of its articles lets in forum threads, documentation and service "
        "pages, whose prose reads like a story's. News articles "
        "(fundus-dev) and news-site listings (generated) are kept apart: see the per-set "
        "lines and the news-site view above. The threshold is the best F2 (recall weighs "
        "twice as much as precision) among those that let no generated listing in.",
        "",
        "The sets never trained on (`--check`) are not all news: Readability's test pages "
        "include synthetic fixtures (a few lines of lorem ipsum testing one parser rule) "
        "served at `http://fakehost/<name>/`, a URL shaped like a section front; zh-dev holds "
        "essays and forum posts beside news.",
        "",
        "Lowest-scored articles and highest-scored non-articles, out of fold:",
        "",
        *(f"- {p:.3f} {kind} {url}" for p, url, kind in worst),
        "",
        "## What the trees use most (share of total gain)",
        "",
        ", ".join(f"`{n}` {g / total:.1%}" for n, g in top) + ".",
        "",
        "## Features",
        "",
        ", ".join(f"`{n}`" for n in PAGE_FEATURE_NAMES
                  if not n.startswith("url_token_")) + f", and `url_token_00` … "
        f"`url_token_{URL_BUCKETS - 1}`: the words of path segments of one or two words and "
        "the query keys, hashed (crc32) into buckets.",
        "",
        "## Limits",
        "",
        "- The node model's features in a crawl include what the site's other pages repeat "
        "(`NEWSCRAWL_SITE_PAGES`); training extracts every page alone, as `newscrawl extract` "
        "does.",
        "- Most WCXB domains have one page, so a site's own URL conventions are learnt only "
        "in general; the generated negatives cover news-site listings in six layouts, which "
        "real sites exceed.",
        "",
    ]
    return "\n".join(lines)
