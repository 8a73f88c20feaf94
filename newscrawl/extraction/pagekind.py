"""Article or not: a small learned page classifier over what the URL, the page and the node
model say.

Every single signal is wrong on some real sites (CNN's articles end in ``/index.html``, a
Korean paper's in ``news_view.html?idx=8576&page=1``, many CMSs declare ``og:type website``
on every page), so no signal decides alone: an XGBoost model of shallow trees weighs

- the URL's shape and tokens (``url_*``): depth, slug words, digit runs, extension, query
  keys, and the words of short path segments and query keys hashed into buckets, so what
  they mean is learnt from data, not from a list of words;
- what the page declares (``declared_*``, JSON-LD ``@type`` / ``og:type``) and its metadata;
- how the crawl found it (``via_*``: sitemap, news sitemap, feed, link); NaN when unknown, as
  in every offline page set, so a model trained offline never splits on them;
- what the node model saw (``PageSignals``): how much running prose, in how many paragraphs,
  in one block or in a grid of teasers, link density, whether the headline was found, and
  how much of the kept text sits in lists, tables, code, comment threads or reviews;
- what the markup holds besides the story (``MARKUP_FEATURES``): what reads like a story but
  is not one shows it in its structure, in any language. A forum thread declares posts and
  replies and repeats author properties; documentation has code and a deep tree of
  navigation links; a service or product page has forms, buttons, prices, many subheadings
  and a Product, Offer or FAQ type; a listing repeats similar linked blocks, ``<article>``
  elements, dates and images;
- which words the page shows (``page_words_*``, a regression per page class).

The trees learn every page class WCXB types (``PAGE_CLASSES``), not article against the rest:
a forum and a price list are not-articles for different reasons, and out of fold the
softmax over seven classes ranked articles better than one logistic output did
(models/pages-audit.md). P(article) is the article class's probability.

The feature list is defined once here, stored in the model file and checked when it loads,
as the node model's is. ``newscrawl train-pages`` builds the model (models/pages-v1.md).
"""

from __future__ import annotations

import json
import math
import re
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urljoin, urlsplit

import numpy as np
from lxml import etree

from .article import PageSignals
from .clean import hidden_input
from .compiled import CWALK
from .features import FEATURE_NAMES, TAGS, NodeTable
from .meta_jsonld import _loads as json_loads
from .meta_jsonld import _types as jsonld_types
from .model import ModelMismatch, dense_predictor
from .shipped import shipped_file
from .site import page_key
from .text import word_count
from .xgboost_lean import import_xgboost

xgb = import_xgboost()

PAGE_FEATURE_VERSION = 6
PAGE_CLASSES = ("article", "collection", "documentation", "forum", "listing", "product",
                "service")
"""What the page classifier tells apart: WCXB's seven page types. A news site's section, tag,
author, archive and search pages are listings."""
DEFAULT_PAGE_MODEL = shipped_file("pages-v1.ubj")

URL_BUCKETS = 32
"""Buckets the words of short path segments and query keys are hashed into."""
LONG_PARAGRAPH = 30
"""Word-equivalents from which a paragraph counts as running prose rather than a teaser."""
FOUND_VIA = ("start", "sitemap", "news_sitemap", "feed", "link")
"""How the crawl can find a page (``Page.found_via``)."""

_ARTICLE_TYPES = frozenset({
    "article", "newsarticle", "reportagenewsarticle", "analysisnewsarticle",
    "opinionnewsarticle", "reviewnewsarticle", "backgroundnewsarticle", "blogposting",
    "liveblogposting", "report", "scholarlyarticle", "techarticle", "satiricalarticle",
})
_POSTING_TYPES = frozenset({
    "discussionforumposting", "socialmediaposting", "qapage", "question", "comment",
})
_PRODUCT_TYPES = frozenset({
    "product", "productgroup", "offer", "aggregateoffer", "itempage", "product.item",
    "og:product", "softwareapplication", "service", "localbusiness", "organization",
})
_COLLECTION_TYPES = frozenset({
    "collectionpage", "itemlist", "searchresultspage", "profilepage", "person", "profile",
    "blog", "mediagallery", "imagegallery", "videogallery",
})
_GENERIC_TYPES = frozenset({"website", "webpage"})
_REPLY_TYPES = frozenset({"comment", "answer"})
_ANY_POSTING_TYPES = _REPLY_TYPES | {"discussionforumposting", "qapage", "question",
                                     "socialmediaposting"}
_ANY_PRODUCT_TYPES = frozenset({"product", "productgroup", "individualproduct", "offer",
                                "aggregateoffer", "service", "localbusiness"})
_ANY_FAQ_TYPES = frozenset({"faqpage", "howto"})
"""schema.org's and Open Graph's names, grouped by what they say about the page: an article,
a forum or social post, a product or business, a list of things, nothing in particular (many
CMSs put ``website`` on every page), or another thing (an event, a video ...). The
``_ANY_*`` sets are matched against every type the page's JSON-LD and microdata name, nested
ones included: a thread's replies, a product's offers."""

MARKUP_FEATURES = (
    "any_posting_type", "reply_items", "author_props",
    "pre_page_share", "code_elements", "nav_links", "list_depth",
    "any_product_type", "any_faq_type", "forms", "inputs", "buttons", "selects",
    "textareas", "prices", "subheadings",
    "article_elements", "repeated_blocks", "time_elements", "distinct_times", "images",
    "h1_elements", "menu_self_links",
)
"""What the markup holds (``markup_counts`` on the raw tree, ``page_signals`` on the page's
text): forum, documentation, service or product and listing shapes, in that order."""


def _names() -> tuple[str, ...]:
    url = ("url_depth", "url_path_chars", "url_last_chars", "url_last_words",
           "url_max_words", "url_digit_run", "url_digit_runs", "url_dated", "url_ext_html",
           "url_ext_script", "url_ext_other", "url_trailing_slash", "url_is_root",
           "url_query_keys", "url_query_digit_run",
           *(f"url_token_{k:02d}" for k in range(URL_BUCKETS)))
    declared = ("declared_article", "declared_posting", "declared_product",
                "declared_collection", "declared_generic", "declared_other", "has_title",
                "has_published", "has_modified", "authors", "has_description", "has_section",
                "has_image", "tags")
    via = tuple(f"via_{v}" for v in FOUND_VIA)
    text = ("words", "prose_words", "prose_share", "paragraphs", "long_paragraphs",
            "mean_paragraph_words", "max_paragraph_words", "short_paragraph_share",
            "digit_share", "currency_signs", "dates_and_times", "title_menu_words")
    nodes = ("nodes", "kept_nodes", "kept_char_share", "kept_containers",
             "kept_nodes_per_container", "kept_heading_share", "kept_link_density",
             "page_link_density", "best_block_share", "kept_proba", "page_doubt",
             "headline_kept", "headline_on_page", "kept_list_share", "kept_table_share",
             "kept_pre_share", "kept_comment_share", "kept_review_share",
             "kept_article_share")
    words = tuple(f"page_words_{k}" for k in PAGE_CLASSES)
    return url + declared + via + text + nodes + MARKUP_FEATURES + words


PAGE_FEATURE_NAMES: tuple[str, ...] = _names()
URL_FEATURE_NAMES: tuple[str, ...] = tuple(n for n in PAGE_FEATURE_NAMES if n.startswith("url_"))
"""The columns known before a page is downloaded: the first ones of a page row."""
_COL = {name: j for j, name in enumerate(PAGE_FEATURE_NAMES)}
assert PAGE_FEATURE_NAMES[:len(URL_FEATURE_NAMES)] == URL_FEATURE_NAMES

_N_LINK = FEATURE_NAMES.index("own_link_density")
_N_HEADING = FEATURE_NAMES.index("is_heading")
_N_BEST_SHARE = FEATURE_NAMES.index("best_block_share")
_N_TITLE = FEATURE_NAMES.index("matches_title")
_N_TAG = FEATURE_NAMES.index("tag")
_N_PARENT_TAG = FEATURE_NAMES.index("parent_tag")
_N_COMMENT = FEATURE_NAMES.index("anc_comment")
_N_REVIEW = FEATURE_NAMES.index("anc_review")
_N_ARTICLE = FEATURE_NAMES.index("anc_article")
_N_T_ARTICLE = FEATURE_NAMES.index("anc_t_article")
_NEAR = 6
"""Levels up to which an ancestor's class or id describes a node."""
_TAG_LI, _TAG_TD, _TAG_TH, _TAG_PRE = (float(TAGS.index(t)) for t in ("li", "td", "th", "pre"))

_LETTERS = re.compile(r"[^\W\d_]+")
_DIGITS = re.compile(r"\d+")
_CURRENCY = re.compile("[$¢£¤¥\u058f\u060b\u09f2\u09f3\u0e3f\u17db\u20a0-\u20cf\ufdfc"
                       "\ufe69\uff04\uffe0\uffe1\uffe5\uffe6]")
"""Unicode's currency signs (category Sc): prices mark shops and services."""
_DATE_OR_TIME = re.compile(r"(?<!\d)\d{1,4}[-/.:]\d{1,2}(?:[-/.:]\d{1,4})?(?!\d)")
"""``12:30``, ``2024-05-31``, ``31.05.2024``, ``5/31/24``: each post of a thread, each
row of a list carries one; a story, one or two."""
_PRICE = re.compile(f"{_CURRENCY.pattern}\\s?\\d|\\d[\\d.,]*\\s?{_CURRENCY.pattern}")
"""A currency sign next to a number."""
_DATED = re.compile(r"(?<!\d)(19|20)\d\d[/_-]?(0[1-9]|1[0-2])(?!\d)")
_SEGMENT_WORDS = re.compile(r"[^\W\d_]+|\d+")
_EXTENSION = re.compile(r"\.([a-z0-9]{1,5})$", re.I)
_HTML_EXT = frozenset({"html", "htm", "shtml", "xhtml"})
_SCRIPT_EXT = frozenset({"php", "asp", "aspx", "jsp", "cfm", "cgi", "do", "pl"})


_BLOCKS = frozenset({"div", "li", "article", "section", "tr"})
# "/descendant::*" visits elements only; "//" visits every node, text included.
_NAV_TAGS = frozenset({"nav", "aside"})
_IN_NAV, _IN_FOOTER, _IN_MAIN = 1, 2, 4
_PAGE_TAGS = frozenset({"html", "body"})
_MENU_TAGS = frozenset({"nav", "footer", "menu"})
_MENU_ROLES = frozenset({"navigation", "contentinfo", "menu", "menubar"})
_MENU_WORDS = ("nav", "menu", "footer")
_MAIN_TAGS = frozenset({"article", "main"})
_MICRODATA = etree.XPath("/descendant::*/@itemtype"
                         " | /descendant::*/@itemprop[. = 'author' or . = 'creator']")
"""Declared item types and author properties, in document order: one call."""
_SUBHEADINGS = frozenset({"h2", "h3", "h4", "h5", "h6"})
_COUNTED = ("input", "time", "ul", "ol", "script", "form", "button", "select", "textarea",
            "code", "article", "img", "h1", *_SUBHEADINGS)


_C_MARKUP = CWALK.markup_walk if CWALK is not None else None
"""``_markup_walk`` compiled (``_cwalk.pyx``; ``compiled``)."""


def _in_menu(link: etree._Element) -> bool:
    """In a menu or footer of the site's template: not inside the page's ``<article>`` or
    ``<main>``, where an article's own footer may link the article, nor in a breadcrumb,
    whose last step is the page on every kind of page."""
    menu = False
    for el in link.iterancestors():
        if el.tag in _MAIN_TAGS:
            return False
        names = f"{el.get('class') or ''} {el.get('id') or ''}".lower()
        if "breadcrumb" in names:
            return False
        menu = menu or (el.tag in _MENU_TAGS or (el.get("role") or "") in _MENU_ROLES
                        or any(word in names for word in _MENU_WORDS))
    return menu


def _self_spellings(url: str | None) -> tuple[str | None, tuple[str, ...]]:
    """The page's key and its last path segment as an href may write it (as written and
    percent-decoded); no spellings for a URL without a path."""
    if not url:
        return None, ()
    own = page_key(url)
    last = [s for s in urlsplit(url).path.split("/") if s][-1:] if own else []
    return (own, tuple(dict.fromkeys((last[0], unquote(last[0]))))) if last else (None, ())


def menu_self_links(root: etree._Element, url: str | None) -> int:
    """Links to the page itself in a menu or footer. A site's fixed pages (privacy, terms,
    contact, a section front) are menu destinations, so each holds the menu that links it;
    a story is linked from listings, not from its own template. Only hrefs holding the
    URL's last path segment are resolved, so a page costs a few ``urljoin`` calls; a link
    with a fragment points into the page (skip links, comments) and is not counted."""
    return _self_links(root.iter("a"), url, *_self_spellings(url))


def _self_links(links: Iterable[etree._Element], url: str | None, own: str | None,
                spellings: tuple[str, ...]) -> int:
    """``menu_self_links`` over ``links`` (every link, or those ``_cwalk.markup_walk``
    picked by their hrefs)."""
    count = 0
    for link in links if spellings else ():
        href = link.get("href")
        if (href and "#" not in href and any(s in href for s in spellings)
                and page_key(urljoin(url, href)) == own):
            count += _in_menu(link)
    return count


def _markup_walk(root: etree._Element) -> tuple:
    """What ``markup_counts`` reads besides the microdata, in Python (``_cwalk.markup_walk``
    reads the same in C): counted tags, visible inputs, distinct times, list depth, JSON-LD
    texts, navigation links, the site footer's links and the most repeated linked blocks."""
    tags: Counter[str] = Counter()
    inputs = 0
    times: set[str] = set()
    depth = 0
    scripts: list[str] = []
    for el in root.iter(*_COUNTED):
        tag = el.tag
        tags[tag] += 1
        if tag == "input":
            inputs += not hidden_input(el)
        elif tag == "time":
            times.add(el.get("datetime") or el.text or "")
        elif tag in ("ul", "ol"):
            if tags["ul"] + tags["ol"] < 2000:
                depth = max(depth, 1 + sum(1 for _ in el.iterancestors("ul", "ol")))
        elif tag == "script" and (el.get("type") or "").lower() == "application/ld+json":
            scripts.append(el.text or "")
    # A block holding a link has ancestors holding one too: a link's ancestors are climbed
    # until one already seen (its own ancestors are, too), and each block met on the way is
    # counted once under its parent, tag and class. Each element climbed is noted with
    # whether it sits in a <nav> or <aside>, so the same climb counts the navigation links.
    # getparent() in a loop, not iterancestors(): a generator per link cost a third more
    # (0.25 -> 0.19 ms median on WCXB dev, the same counts).
    # The same climb finds the site footer's links (``site.footer_links``): under a
    # <footer>, role="contentinfo" or a class or id naming a (F)footer (not <body>'s: a
    # "has-sticky-footer" page is no footer), and under no <article> or <main> (an
    # article's own footer is not the site's).
    state: dict[etree._Element, int] = {}
    known = state.get
    blocks: list[etree._Element] = []
    footer_links: list[etree._Element] = []
    nav_links = 0
    for link in root.iter("a"):
        new: list[etree._Element] = []
        el = link.getparent()
        bits = None
        while el is not None and (bits := known(el)) is None:
            new.append(el)
            el = el.getparent()
        bits = bits or 0
        for el in reversed(new):  # top down: in a nav if it is one or its parent is in one
            tag = el.tag
            if tag in _NAV_TAGS:
                bits |= _IN_NAV
            if tag in _MAIN_TAGS:
                bits |= _IN_MAIN
            elif not bits & _IN_FOOTER and tag not in _PAGE_TAGS and (
                    tag == "footer" or el.get("role") == "contentinfo"
                    or "ooter" in (el.get("class") or "") or "ooter" in (el.get("id") or "")):
                bits |= _IN_FOOTER
            state[el] = bits
            if tag in _BLOCKS:
                blocks.append(el)
        nav_links += bool(bits & _IN_NAV)
        if bits & (_IN_FOOTER | _IN_MAIN) == _IN_FOOTER and link.get("href") is not None:
            footer_links.append(link)
    siblings = Counter((el.getparent(), el.tag, el.get("class") or "") for el in blocks)
    repeated = max((n for (parent, _, _), n in siblings.items()
                    if parent is not None and len(parent) >= 3), default=0)
    return tags, inputs, times, depth, scripts, nav_links, footer_links, repeated


def markup_counts(root: etree._Element, url: str | None = None
                  ) -> tuple[dict[str, float], list[etree._Element]]:
    """The ``MARKUP_FEATURES`` read from the raw tree, before cleaning drops forms, scripts
    and navigation, and the links of the site's footer: one walk (``_cwalk.markup_walk``, or
    ``_markup_walk``) and one XPath for microdata (p50 0.57 ms on WCXB dev at 3c626e7: the
    ``markup`` stage of an Article's timings)."""
    types: list[str] = []
    authors = 0
    for value in _MICRODATA(root):
        if value.attrname == "itemtype":
            types.append(value.rstrip("/").rsplit("/", 1)[-1].lower())
        else:
            authors += 1
    own, spellings = _self_spellings(url)
    walked = _C_MARKUP(root, _COUNTED, _BLOCKS, _NAV_TAGS, _MAIN_TAGS, _PAGE_TAGS,
                       tuple(s.encode("utf-8", "surrogatepass") for s in spellings)
                       ) if _C_MARKUP is not None else None
    if walked is None:
        tags, inputs, times, depth, scripts, nav_links, footer_links, repeated = _markup_walk(root)
        self_links = root.iter("a")
    else:
        (tags, inputs, times, depth, scripts, nav_links, footer_links, repeated,
         self_links) = walked
    for script in scripts:
        data = json_loads(script)
        if data is not None:
            _ld_types(data, types)
    declared = set(types)
    return {
        "any_posting_type": bool(declared & _ANY_POSTING_TYPES),
        "reply_items": sum(t in _REPLY_TYPES for t in types),
        "author_props": math.log1p(authors),
        "code_elements": math.log1p(tags["code"]),
        "nav_links": math.log1p(nav_links),
        "list_depth": depth,
        "any_product_type": bool(declared & _ANY_PRODUCT_TYPES),
        "any_faq_type": bool(declared & _ANY_FAQ_TYPES),
        "forms": tags["form"],
        "inputs": inputs,
        "buttons": tags["button"],
        "selects": tags["select"],
        "textareas": tags["textarea"],
        "subheadings": math.log1p(sum(tags[h] for h in _SUBHEADINGS)),
        "article_elements": tags["article"],
        "repeated_blocks": math.log1p(repeated),
        "time_elements": math.log1p(tags["time"]),
        "distinct_times": math.log1p(len(times)),
        "images": math.log1p(tags["img"]),
        "h1_elements": tags["h1"],
        "menu_self_links": _self_links(self_links, url, own, spellings),
    }, footer_links


def _ld_types(data: object, types: list[str]) -> None:
    """Append every ``@type`` in a JSON-LD document to ``types``, nested ones included: the
    replies and reviews ``meta_jsonld._walk`` leaves out are what ``reply_items`` counts."""
    stack = [data]
    while stack and len(types) < 2000:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            types.extend(jsonld_types(node))
            stack.extend(v for v in node.values() if isinstance(v, (dict, list)))


def page_signals(table: NodeTable, proba: np.ndarray, keep: np.ndarray,
                 markup: dict[str, float] | None = None) -> PageSignals:
    """Sum up the node model's view of a page (its probabilities and the nodes kept), with
    what its markup holds (``markup_counts``) and what its whole text does."""
    n = len(table)
    if not n:
        return PageSignals()
    text = "\n".join(table.texts)
    w = table.weights
    X = table.X
    counts = dict(markup or {})
    counts["pre_page_share"] = _kept_share(w, X, (_TAG_PRE,), float(w.sum()))
    counts["prices"] = math.log1p(price_count(text))
    kw = w[keep]
    kept_X = X[keep]
    kept_total = float(kw.sum())
    link = X[:, _N_LINK].astype(np.float64)
    title = X[:, _N_TITLE] > 0.5
    any_kept = bool(keep.any())
    return PageSignals(
        nodes=n,
        kept_nodes=int(keep.sum()),
        kept_char_share=kept_total / float(w.sum()),
        kept_containers=len(np.unique(table.container[keep])) if any_kept else 0,
        kept_heading_share=float(kept_X[:, _N_HEADING].mean()) if any_kept else 0.0,
        kept_link_density=float(np.dot(kw, link[keep]) / kept_total) if kept_total else 0.0,
        page_link_density=float(np.dot(w, link) / w.sum()),
        best_block_share=float(X[0, _N_BEST_SHARE]),
        kept_proba=float(np.dot(kw, proba[keep]) / kept_total) if kept_total else 0.0,
        page_doubt=float(np.dot(w, np.minimum(proba, 1.0 - proba)) / w.sum()),
        headline_kept=bool((title & keep).any()),
        headline_on_page=bool(title.any()),
        kept_list_share=_kept_share(kw, kept_X, (_TAG_LI,), kept_total),
        kept_table_share=_kept_share(kw, kept_X, (_TAG_TD, _TAG_TH), kept_total),
        kept_pre_share=_kept_share(kw, kept_X, (_TAG_PRE,), kept_total),
        kept_comment_share=_near_share(kw, kept_X[:, _N_COMMENT], kept_total),
        kept_review_share=_near_share(kw, kept_X[:, _N_REVIEW], kept_total),
        kept_article_share=_near_share(
            kw, np.minimum(kept_X[:, _N_ARTICLE], kept_X[:, _N_T_ARTICLE]), kept_total),
        markup=tuple(float(counts.get(name, np.nan)) for name in MARKUP_FEATURES),
        page_text=text,
    )


def price_count(text: str) -> int:
    """``len(_PRICE.findall(text))``, with the pattern run only where a match can be: each
    holds one currency sign, and lies between the run of digits, dots and commas (and one
    space) before its sign and the two characters after it. Over the whole text the pattern
    tries every digit; on WCXB dev's pages that show a sign (half of them) the median went
    from 0.29 to 0.06 ms (scratch, the same counts on every page and on 200,000 random
    strings of digits, signs, dots, commas and spaces)."""
    spans: list[list[int]] = []
    for sign in _CURRENCY.finditer(text):
        at = start = sign.start()
        if start and text[start - 1].isspace():  # what the pattern's \s and \d read
            start -= 1
        while start and (text[start - 1].isdecimal() or text[start - 1] in ".,"):
            start -= 1
        if spans and start <= spans[-1][1]:
            spans[-1][1] = at + 3
        else:
            spans.append([start, at + 3])
    return sum(len(_PRICE.findall(text, start, end)) for start, end in spans)


def _near_share(kw: np.ndarray, distance: np.ndarray, kept_total: float) -> float:
    return float(kw[distance <= _NEAR].sum() / kept_total) if kept_total else 0.0


def _kept_share(kw: np.ndarray, kept_X: np.ndarray, tags: tuple[float, ...],
                kept_total: float) -> float:
    """Share of the kept characters whose element, or its parent, is one of ``tags``."""
    if not kept_total:
        return 0.0
    tag, parent = kept_X[:, _N_TAG], kept_X[:, _N_PARENT_TAG]
    inside = np.zeros(len(tag), dtype=bool)
    for one in tags:
        inside |= (tag == one) | (parent == one)
    return float(kw[inside].sum() / kept_total)


def _bucket(token: str) -> int:
    return zlib.crc32(token.encode("utf-8")) % URL_BUCKETS


def url_features(url: str | None, row: np.ndarray) -> None:
    """Fill the ``url_*`` columns of ``row`` (NaN without a URL)."""
    start, stop = _COL["url_depth"], _COL["url_token_00"] + URL_BUCKETS
    if not url:
        row[start:stop] = np.nan
        return
    try:
        parts = urlsplit(url)
    except ValueError:
        row[start:stop] = np.nan
        return
    path = unquote(parts.path) or "/"
    segments = [s for s in path.split("/") if s]
    last = segments[-1] if segments else ""
    ext_match = _EXTENSION.search(last)
    ext = ext_match.group(1).lower() if ext_match else ""
    stem = last[:ext_match.start()] if ext_match else last
    stems = segments[:-1] + [stem] if segments else []
    words = [_SEGMENT_WORDS.findall(s.lower()) for s in stems]
    digit_runs = [len(d) for d in _DIGITS.findall(path)]
    query = parse_qsl(parts.query, keep_blank_values=True)
    query_runs = [len(d) for _, v in query for d in _DIGITS.findall(v)]
    c = _COL
    row[c["url_depth"]] = len(segments)
    row[c["url_path_chars"]] = len(path)
    row[c["url_last_chars"]] = len(stem)
    row[c["url_last_words"]] = len(words[-1]) if words else 0
    row[c["url_max_words"]] = max(map(len, words), default=0)
    row[c["url_digit_run"]] = max(digit_runs, default=0)
    row[c["url_digit_runs"]] = len(digit_runs)
    row[c["url_dated"]] = bool(_DATED.search(path))
    row[c["url_ext_html"]] = ext in _HTML_EXT
    row[c["url_ext_script"]] = ext in _SCRIPT_EXT
    row[c["url_ext_other"]] = bool(ext) and ext not in _HTML_EXT and ext not in _SCRIPT_EXT
    row[c["url_trailing_slash"]] = path.endswith("/") and bool(segments)
    row[c["url_is_root"]] = not segments
    row[c["url_query_keys"]] = len(query)
    row[c["url_query_digit_run"]] = max(query_runs, default=0)
    tokens = row[c["url_token_00"]:c["url_token_00"] + URL_BUCKETS]
    tokens[:] = 0.0
    # The words of short segments name sections, tags, page kinds and scripts
    # ("politics", "tag", "news_view"); a slug's words name the story and are left out.
    for seg_words in words:
        if 0 < len(seg_words) <= 2:
            for w in seg_words:
                if not w.isdigit():
                    tokens[_bucket(w)] += 1.0
    for key, _ in query:
        tokens[_bucket("?" + key.lower())] += 1.0


def _declared_kind(page_type: str | None) -> str | None:
    if not page_type:
        return None
    t = page_type.strip().lower().rsplit("/", 1)[-1]
    if t in _ARTICLE_TYPES or t.endswith("article"):
        return "declared_article"
    if t in _POSTING_TYPES:
        return "declared_posting"
    if t in _PRODUCT_TYPES:
        return "declared_product"
    if t in _COLLECTION_TYPES:
        return "declared_collection"
    if t in _GENERIC_TYPES:
        return "declared_generic"
    return "declared_other"


def page_features(*, url: str | None, text: str, page_type: str | None = None,
                  title: str | None = None, published: str | None = None,
                  modified: str | None = None, authors: Sequence[str] = (),
                  description: str | None = None, section: str | None = None,
                  image: str | None = None, tags: Sequence[str] = (),
                  signals: PageSignals | None = None, found_via: str | None = None,
                  words_scores: np.ndarray | None = None,
                  title_menu: float | None = None) -> np.ndarray:
    """One float32 row over ``PAGE_FEATURE_NAMES``; ``found_via`` None when unknown,
    ``words_scores`` (``PageWords.score``) and ``title_menu`` (``PageWords.menu_score``)
    None when no regression scored the page."""
    row = np.zeros(len(PAGE_FEATURE_NAMES), dtype=np.float32)
    c = _COL
    url_features(url, row)
    kind = _declared_kind(page_type)
    if kind:
        row[c[kind]] = 1.0
    row[c["has_title"]] = bool(title)
    row[c["has_published"]] = bool(published)
    row[c["has_modified"]] = bool(modified)
    row[c["authors"]] = len(authors)
    row[c["has_description"]] = bool(description)
    row[c["has_section"]] = bool(section)
    row[c["has_image"]] = bool(image)
    row[c["tags"]] = len(tags)
    for via in FOUND_VIA:
        row[c[f"via_{via}"]] = np.nan if found_via is None else float(found_via == via)
    paragraphs = [word_count(p) for p in text.split("\n\n") if p.strip()]
    words = sum(paragraphs)
    prose = sum(n for n in paragraphs if n >= LONG_PARAGRAPH)
    row[c["words"]] = math.log1p(words)
    row[c["prose_words"]] = math.log1p(prose)
    row[c["prose_share"]] = prose / words if words else 0.0
    row[c["paragraphs"]] = len(paragraphs)
    row[c["long_paragraphs"]] = sum(n >= LONG_PARAGRAPH for n in paragraphs)
    row[c["mean_paragraph_words"]] = words / len(paragraphs) if paragraphs else 0.0
    row[c["max_paragraph_words"]] = max(paragraphs, default=0.0)
    row[c["short_paragraph_share"]] = (sum(n < 12 for n in paragraphs) / len(paragraphs)
                                       if paragraphs else 0.0)
    chars = len(text) or 1
    row[c["digit_share"]] = sum(map(text.count, "0123456789")) / chars
    row[c["currency_signs"]] = math.log1p(len(_CURRENCY.findall(text)))
    row[c["dates_and_times"]] = math.log1p(len(_DATE_OR_TIME.findall(text)))
    s = signals or PageSignals()
    row[c["nodes"]] = math.log1p(s.nodes)
    row[c["kept_nodes"]] = math.log1p(s.kept_nodes)
    row[c["kept_char_share"]] = s.kept_char_share
    row[c["kept_containers"]] = s.kept_containers
    row[c["kept_nodes_per_container"]] = (s.kept_nodes / s.kept_containers
                                          if s.kept_containers else 0.0)
    row[c["kept_heading_share"]] = s.kept_heading_share
    row[c["kept_link_density"]] = s.kept_link_density
    row[c["page_link_density"]] = s.page_link_density
    row[c["best_block_share"]] = s.best_block_share
    row[c["kept_proba"]] = s.kept_proba
    row[c["page_doubt"]] = s.page_doubt
    row[c["headline_kept"]] = s.headline_kept
    row[c["headline_on_page"]] = s.headline_on_page
    row[c["kept_list_share"]] = s.kept_list_share
    row[c["kept_table_share"]] = s.kept_table_share
    row[c["kept_pre_share"]] = s.kept_pre_share
    row[c["kept_comment_share"]] = s.kept_comment_share
    row[c["kept_review_share"]] = s.kept_review_share
    row[c["kept_article_share"]] = s.kept_article_share
    start = c[MARKUP_FEATURES[0]]
    row[start:start + len(MARKUP_FEATURES)] = s.markup or np.nan
    start = c["page_words_article"]
    row[start:start + len(PAGE_CLASSES)] = np.nan if words_scores is None else words_scores
    row[c["title_menu_words"]] = np.nan if title_menu is None else title_menu
    return row


def article_features(article: object, found_via: str | None = None,
                     words: PageWords | None = None) -> np.ndarray:
    """``page_features`` of an extraction result (``newscrawl.extraction.Article``)."""
    return page_features(
        url=article.url, text=article.text, page_type=article.page_type, title=article.title,
        published=article.published, modified=article.modified, authors=article.authors,
        description=article.description, section=article.section, image=article.image,
        tags=article.tags, signals=article.signals, found_via=found_via,
        words_scores=words.score(article.signals.page_text) if words is not None else None,
        title_menu=words.menu_score(article.title) if words is not None else None)


WORDS_TEXT_CHARS = 100_000
"""How much of a page's text ``words_of`` reads: 99 % of the training pages have less, and
a page of 10 MB of text would cost half a second."""


def words_of(text: str) -> set[str]:
    """The distinct words of a text's first ``WORDS_TEXT_CHARS``, lower-cased, without
    digits (a year or a count says when the training pages were crawled, not what they
    are).

    The distinct whitespace tokens are read first: a letter run never spans whitespace, and
    most tokens are all letters, so the pattern runs only on the rest (median 0.48 -> 0.33
    ms a page, the same sets on all 1,882 pages of the labelled and news sets, scratch)."""
    words: set[str] = set()
    letters = _LETTERS.findall
    for token in set(text[:WORDS_TEXT_CHARS].lower().split()):
        if token.isalpha():  # isalpha() letters are all in _LETTERS' class
            words.add(token)
        else:
            words.update(letters(token))
    return words


class PageWords:
    """A multinomial logistic regression over which words a page shows, anywhere on it: its
    log-odds of each page class are columns of the page classifier (``page_words_*``).

    Forums, shops, manuals and service pages write prose much like a story's; their
    furniture ("reply", "joined", "cart", "parameters") tells them apart where the node
    model's view of the page does not. Only words seen on several training sites are kept
    (``train-pages``), so a site's own names carry no weight; words it never saw, as in
    most languages besides English, add nothing, and the columns are the intercepts.
    """

    def __init__(self, intercepts: Sequence[float], weights: dict[str, Sequence[float]],
                 menu: dict[str, float] | None = None):
        self.intercepts = np.asarray(intercepts, dtype=np.float64)
        """One per class of ``PAGE_CLASSES``."""
        words = sorted(weights)
        self.index = {word: k for k, word in enumerate(words)}
        self.matrix = np.array([weights[w] for w in words], dtype=np.float64).reshape(
            len(words), len(self.intercepts))
        self.menu = dict(menu or {})
        """How far a word names a site's fixed pages (``menu_word_weights``)."""

    def menu_score(self, title: str | None) -> float | None:
        """The mean ``menu`` weight of a title's distinct words, 0 for a word not in it:
        "Privacy and cookies", "Kontakt", "About us" read as the names of a site's fixed
        pages, a story's headline does not. None without a title."""
        return menu_score(self.menu, title)

    def score(self, text: str) -> np.ndarray:
        """The regression's log-odds per class for a page's text (``PageSignals.page_text``)."""
        return self.score_words(words_of(text))

    def score_words(self, words: AbstractSet[str]) -> np.ndarray:
        """Summed in the table's order: a set's order changes with Python's hash seed, and
        so would the sum's last bits, the trees' splits on it and the figures of a rebuild."""
        index = self.index
        rows = sorted(index[w] for w in index.keys() & words)
        return self.intercepts + self.matrix[rows].sum(axis=0)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, PageWords) and self.index == other.index
                and self.menu == other.menu
                and np.array_equal(self.intercepts, other.intercepts)
                and np.array_equal(self.matrix, other.matrix))

    __hash__ = None  # type: ignore[assignment]

    def save(self, path: Path, **attrs: str) -> None:
        weights = dict(zip(self.index, self.matrix.tolist(), strict=True))
        path.write_text(json.dumps({"format": _WORDS_FORMAT, **attrs,
                                    "classes": list(PAGE_CLASSES),
                                    "intercepts": self.intercepts.tolist(),
                                    "weights": weights, "menu_words": self.menu},
                                   ensure_ascii=False, sort_keys=True), "utf-8")

    @classmethod
    def load(cls, path: Path) -> PageWords:
        data = json.loads(path.read_text("utf-8"))
        if data.get("format") != _WORDS_FORMAT:
            raise ModelMismatch(f"{path}: not a page-words file of format {_WORDS_FORMAT}")
        if tuple(data["classes"]) != PAGE_CLASSES:
            raise ModelMismatch(f"{path}: classes {data['classes']}, the code's are "
                                f"{list(PAGE_CLASSES)}")
        return cls(data["intercepts"], data["weights"], data["menu_words"])


_WORDS_FORMAT = "newscrawl-page-words-3"

MENU_MIN_DOMAINS = 10
"""Footer-link domains from which a word is weighed (``menu_word_weights``)."""


def title_words(title: str | None) -> set[str]:
    return set(_LETTERS.findall((title or "").lower()))


def footer_link_words(root: etree._Element) -> set[str]:
    """The words of the links in a page's site footer (``markup_counts``): where
    every site links its privacy, terms, imprint, contact and about pages, in its own
    language."""
    words: set[str] = set()
    for link in markup_counts(root)[1]:
        words |= title_words("".join(link.itertext()))
    return words


def menu_word_weights(footer_domains: Counter[str], title_domains: Counter[str]
                      ) -> dict[str, float]:
    """Per word, of the domains holding it in footer links or in page titles, the share
    holding it in footer links (one added below, so a word on few domains weighs little);
    words in the footer links of fewer than ``MENU_MIN_DOMAINS`` domains are left out.
    Learnt from the pages alone, no label: "privacy", "impressum", "contact" are in the
    footers of hundreds of sites and in few titles; "the" and "and" are in both."""
    return {w: round(f / (f + title_domains[w] + 1), 4)
            for w, f in sorted(footer_domains.items()) if f >= MENU_MIN_DOMAINS}


def menu_score(weights: dict[str, float], title: str | None) -> float | None:
    words = title_words(title)
    if not words:
        return None
    return sum(weights.get(w, 0.0) for w in sorted(words)) / len(words)


@dataclass(frozen=True, slots=True)
class PageKind:
    """The decision and its evidence, for logs: ``p`` is the model's probability."""

    is_article: bool
    p: float
    threshold: float

    def __str__(self) -> str:
        return f"p(article) {self.p:.3f} {'≥' if self.is_article else '<'} {self.threshold:.3f}"


class PageModel:
    """A loaded page classifier: a booster whose feature list was checked, and its threshold.

    The threshold is the one ``train-pages`` chose out of fold (stored in the model file);
    ``threshold`` overrides it. A companion file the model names (``newscrawl_url_model``)
    scores a URL alone, before download, to order the crawl: never to drop a page.
    """

    def __init__(self, booster: xgb.Booster, path: Path | None = None,
                 threshold: float | None = None, url_booster: xgb.Booster | None = None,
                 words: PageWords | None = None):
        self.booster = booster
        self.url_booster = url_booster
        self.words = words
        self.path = path
        stored = booster.attr("newscrawl_threshold")
        if threshold is None and stored is None:
            raise ModelMismatch(f"{path or 'page model'}: stores no decision threshold")
        self.threshold = float(stored) if threshold is None else threshold
        self.name = booster.attr("newscrawl_model_name") or (path.stem if path else "unnamed")
        self._predict = dense_predictor(booster)
        self._predict_url = dense_predictor(url_booster) if url_booster is not None else None

    @classmethod
    def load(cls, path: str | Path | None = None, threshold: float | None = None) -> PageModel:
        """Refuses a file whose feature list or version differs from ``PAGE_FEATURE_NAMES``."""
        path = Path(path or DEFAULT_PAGE_MODEL)
        booster = _load(path, PAGE_FEATURE_NAMES)
        companion = booster.attr("newscrawl_url_model")
        url_booster = _load(path.parent / companion, URL_FEATURE_NAMES) if companion else None
        words_file = booster.attr("newscrawl_words_model")
        words = PageWords.load(path.parent / words_file) if words_file else None
        return cls(booster, path, threshold, url_booster, words)

    def probability(self, X: np.ndarray) -> np.ndarray:
        """P(article) per row of ``page_features``."""
        return self._predict(np.atleast_2d(X).astype(np.float32))[:, _ARTICLE_CLASS]

    def decide(self, article: object, found_via: str | None = None) -> PageKind:
        """Whether an extraction result is an article: the one call the crawl, ``newscrawl
        extract`` and evaluation share."""
        p = float(self.probability(article_features(article, found_via, self.words))[0])
        return PageKind(p >= self.threshold, p, self.threshold)

    def url_probability(self, url: str) -> float | None:
        """P(article) from the URL alone (None without a URL model): what a crawl may
        request first."""
        if self._predict_url is None:
            return None
        row = np.zeros(len(PAGE_FEATURE_NAMES), dtype=np.float32)
        url_features(url, row)
        return float(self._predict_url(row[None, :len(URL_FEATURE_NAMES)])[0])


_ARTICLE_CLASS = PAGE_CLASSES.index("article")


def _load(path: Path, names: tuple[str, ...]) -> xgb.Booster:
    if not path.is_file():
        raise FileNotFoundError(
            f"{path}: no page model (train one with `newscrawl train-pages`)")
    booster = xgb.Booster()
    booster.load_model(str(path))
    check_page_features(booster, path, names)
    classes = booster.attr("newscrawl_page_classes")
    if names == PAGE_FEATURE_NAMES and classes != " ".join(PAGE_CLASSES):
        raise ModelMismatch(f"{path}: page classes {classes!r}, the code's are "
                            f"{' '.join(PAGE_CLASSES)!r}")
    booster.set_param({"nthread": 1})
    return booster


def check_page_features(booster: xgb.Booster, where: object = "page model",
                        names: tuple[str, ...] = PAGE_FEATURE_NAMES) -> None:
    """Refuse a model trained on other columns than this code computes, naming the first."""
    version = booster.attr("newscrawl_page_feature_version")
    if version != str(PAGE_FEATURE_VERSION):
        raise ModelMismatch(f"{where}: page feature version {version!r}, this code computes "
                            f"{PAGE_FEATURE_VERSION}")
    stored = tuple(booster.feature_names or ())
    if stored != names:
        for i, (a, b) in enumerate(zip(stored, names, strict=False)):
            if a != b:
                raise ModelMismatch(f"{where}: column {i} is {a!r} in the model, {b!r} in "
                                    "the code")
        raise ModelMismatch(f"{where}: model has {len(stored)} features, the code computes "
                            f"{len(names)}")
