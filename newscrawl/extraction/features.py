"""Per-text-node features, from one walk over the cleaned tree into a float32 matrix.

The walk records, per element, its tag, parent, depth and subtree end (pre-order), and per
text node its string and owning element. Everything else is vectorised: character classes
come from a codepoint lookup over node text in large batches, subtree sums from prefix sums over
the pre-order (a subtree is a contiguous range), and neighbour features from shifted arrays.

Nothing assumes spaces between words: lengths are counted in characters by Unicode class,
and the full stops of other scripts (CJK, Devanagari, Burmese ...) count as sentence ends.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache, reduce
from itertools import chain
from operator import itemgetter, or_

import numpy as np
from lxml import etree

from .clean import CONTROL_MARK, LINKED_MARK
from .compiled import CWALK
from .metadata import Metadata
from .text import HIDDEN_STYLE, text_key

FEATURE_VERSION = 11

# Tags that survive cleaning, each with its own code; anything else is "other" (0).
TAGS = (
    "other", "html", "body", "div", "p", "section", "article", "main", "aside", "nav", "header",
    "footer", "ul", "ol", "li", "dl", "dt", "dd", "table", "thead", "tbody", "tfoot", "tr", "td",
    "th", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "figure", "figcaption",
    "form", "address", "caption", "details", "summary", "fieldset", "legend", "menu", "hgroup",
)
_TAG_CODE = {t: i for i, t in enumerate(TAGS)}
_HEADINGS = frozenset(_TAG_CODE[f"h{i}"] for i in range(1, 7))
_IS_HEADING = np.zeros(len(TAGS), dtype=np.uint8)  # uint8: ``_cwalk.node_columns`` reads it
_IS_HEADING[list(_HEADINGS)] = 1
_CONTAINERS = frozenset(
    _TAG_CODE[t] for t in ("other", "html", "body", "div", "section", "article", "main", "aside",
                           "nav", "header", "footer", "ul", "ol", "dl", "table", "td", "th",
                           "form", "blockquote", "figure", "details", "menu", "fieldset")
)

# Ancestor signals: class/id words and semantic tags. For each group a feature gives the
# distance in levels from the text node's element up to the nearest element carrying it.
# A class or id is split into words ("article-body__text" → article, body, text); a word
# matches a keyword exactly, or as a prefix or suffix of a compound ("navbar", "sitefooter").
CLASS_GROUPS: dict[str, tuple[str, ...]] = {
    "nav": ("nav", "navbar", "navigation", "menu", "breadcrumb", "breadcrumbs", "pagination",
            "pager", "toolbar", "topbar", "skip", "subnav", "megamenu"),
    "footer": ("footer", "copyright", "colophon", "bottom", "legal", "disclaimer",
               "disclaimers", "footnote", "footnotes"),
    "header": ("header", "masthead", "logo", "branding"),
    "sidebar": ("sidebar", "aside", "widget", "widgets", "rail", "right"),
    "comment": ("comment", "comments", "disqus", "respond", "reply", "replies", "discussion",
                "forum"),
    "review": ("review", "reviews", "rating", "ratings", "testimonial", "testimonials",
               "feedback", "ugc"),
    "share": ("share", "sharing", "social", "facebook", "twitter", "whatsapp", "linkedin",
              "print", "follow", "addthis", "sharethis"),
    "related": ("related", "recommend", "recommended", "recommendations", "popular", "trending",
                "more", "readmore", "also", "teaser", "teasers", "card", "cards", "promo",
                "outbrain", "taboola", "feed"),
    "ad": ("ad", "ads", "advert", "advertisement", "adsense", "sponsor", "sponsored", "dfp",
           "banner", "adslot", "adunit", "commercial"),
    "modal": ("cookie", "cookies", "consent", "gdpr", "modal", "popup", "newsletter",
              "subscribe", "subscription", "signup", "paywall", "overlay", "login", "register"),
    "article": ("article", "post", "story", "entry", "blog", "news", "hentry"),
    "content": ("content", "body", "text", "main", "prose", "rich", "markdown", "detail",
                "paragraph", "copy", "richtext"),
    "byline": ("author", "byline", "meta", "date", "time", "publish", "published", "dateline",
               "posted", "timestamp", "writer"),
    "caption": ("caption", "figure", "credit", "photo", "image", "media", "gallery", "figcaption"),
    "title": ("title", "headline", "heading", "hed", "headline"),
    "tag": ("tag", "tags", "category", "categories", "keyword", "keywords", "topic", "topics"),
}
TAG_GROUPS: dict[str, tuple[str, ...]] = {
    "t_article": ("article",), "t_main": ("main",), "t_aside": ("aside",), "t_nav": ("nav", "menu"),
    "t_header": ("header",), "t_footer": ("footer",), "t_figure": ("figure", "figcaption"),
    "t_table": ("table",), "t_list": ("ul", "ol", "dl"), "t_quote": ("blockquote",),
    "t_form": ("form", "fieldset"), "t_address": ("address",),
}
GROUPS = (*CLASS_GROUPS, "hidden", *TAG_GROUPS, "control")
"""``hidden`` is set by markup alone (the ``hidden`` attribute, ``aria-hidden="true"``,
``display:none`` or ``visibility:hidden`` in ``style``). Class words such as "hidden-xs" or
"hide-on-print" joined it once, and mostly name text a reader sees: under the markup alone
12 % of WCXB's nodes are content, under either 25 % (docs/tried.md); the learned
``path_words`` column still reads those words."""
_GROUP_BIT = {g: 1 << i for i, g in enumerate(GROUPS)}
_LINKED_BIT = 1 << len(GROUPS)
"""Marks the outermost blocks inside an ``<a>`` (``clean.LINKED_MARK``). Not a stage-1 column
(as one it cost WCXB's listings, whose labelled content is such cards: docs/tried.md), but
``NodeTable.linked``, which only the story stage 2 reads."""
_WORD_MASK: dict[str, int] = {}
for _g, _words in CLASS_GROUPS.items():
    for _w in _words:
        _WORD_MASK[_w] = _WORD_MASK.get(_w, 0) | _GROUP_BIT[_g]
_AFFIX_MASK = {w: m for w, m in _WORD_MASK.items() if len(w) >= 4 or w == "nav"}
_AFFIX_HEADS = frozenset(w[:3] for w in _AFFIX_MASK)
_AFFIX_TAILS = frozenset(w[-3:] for w in _AFFIX_MASK)
_WORD_SPLIT = str.maketrans({c: " " for c in "-_:./0123456789"})
_TAG_MASK = [0] * len(TAGS)
for _g, _tags in TAG_GROUPS.items():
    for _t in _tags:
        _TAG_MASK[_TAG_CODE[_t]] |= _GROUP_BIT[_g]
NO_ANCESTOR = 30  # distance reported when no ancestor carries the group
_GROUP_SHIFTS = np.arange(len(GROUPS) + 1, dtype=np.int64)  # and the linked bit

# Character classes, looked up per codepoint.
C_OTHER, C_SPACE, C_LOWER, C_UPPER, C_LETTER, C_DIGIT, C_STOP, C_PUNCT, C_SYMBOL = range(9)
N_CLASSES = 9
# Sentence ends of the scripts we crawl, beyond "." "!" "?": CJK full stops (the full-width
# "．" of Japanese technical prose too), Arabic and Urdu, Devanagari's single and double
# danda, Armenian, Ethiopic, Burmese, Khmer, Tibetan, Canadian syllabics and Mongolian.
_SENTENCE_ENDS = ".!?。！？…؟।॥۔։።፧။។།᙮᠃᠉\uff0e\uff61\ufe12"


def _class_table() -> np.ndarray:
    """Class of every codepoint (1.1 MB), so a text's classes are one lookup per character.
    Past the Basic Multilingual Plane every codepoint counts as a letter (historic and rare CJK
    scripts, emoji are few)."""
    table = np.full(0x110000, C_LETTER, dtype=np.uint8)
    for cp in range(0x10000):
        cat = unicodedata.category(chr(cp))
        if cat[0] == "Z" or chr(cp).isspace():
            c = C_SPACE
        elif cat == "Ll":
            c = C_LOWER
        elif cat in ("Lu", "Lt"):
            c = C_UPPER
        elif cat[0] in "LM":
            c = C_LETTER
        elif cat[0] == "N":
            c = C_DIGIT
        elif cat[0] == "P":
            c = C_STOP if chr(cp) in _SENTENCE_ENDS else C_PUNCT
        elif cat[0] == "S":
            c = C_SYMBOL
        else:
            c = C_OTHER
        table[cp] = c
    return table


_CLASS_OF = _class_table()


def _names() -> tuple[str, ...]:
    text = ("chars", "space_ratio", "letter_ratio", "upper_ratio", "cjk_ratio", "digit_ratio",
            "punct_ratio", "symbol_ratio", "stops", "stops_per_100", "ends_with_stop",
            "ends_with_colon", "is_tail", "is_only_text", "cased_run")
    struct = ("depth", "rel_depth", "tag", "parent_tag", "grand_tag", "same_tag_siblings",
              "siblings", "children", "owner_text_nodes", "is_heading", "rank", "chars_before")
    levels = ("own", "par", "grand", "cont")
    dens = tuple(f"{lv}_{f}" for lv in levels for f in (
        "link_density", "link_count", "text_share", "chars", "text_nodes", "mean_node_chars",
        "p_desc", "desc", "punct_density", "dt", "ds", "ds_rel"))
    neigh = tuple(f"{side}{k}_{f}" for side in ("prev", "next") for k in (1, 2)
                  for f in ("chars", "link_density", "punct_ratio", "same_cont"))
    groups = tuple(f"anc_{g}" for g in GROUPS)
    page = ("in_best_block", "best_block_share", "page_chars", "page_nodes", "page_is_article",
            "page_has_body", "in_article_body", "in_description", "matches_title",
            "after_title", "title_offset", "duplicates", "chars_rel_max", "cont_rel_max")
    # Filled by the model's own word table (``pathwords``), not by ``node_features``.
    learned = ("path_words",)
    # Filled by ``site`` from the site's other pages; NaN on a page read alone.
    site = ("site_recurrence", "site_pages")
    return text + struct + dens + neigh + groups + page + learned + site


FEATURE_NAMES: tuple[str, ...] = _names()
_COL = {name: j for j, name in enumerate(FEATURE_NAMES)}
_DENSITY_COLS = 12  # per level: link_density ... ds_rel, adjacent in FEATURE_NAMES
_C_COLUMNS = np.array([_COL[name] for name in (
    "chars", "space_ratio", "letter_ratio", "upper_ratio", "cjk_ratio", "digit_ratio",
    "punct_ratio", "symbol_ratio", "stops", "stops_per_100", "ends_with_stop", "ends_with_colon",
    "is_tail", "cased_run", "is_only_text", "depth", "rel_depth", "tag", "parent_tag",
    "grand_tag", "same_tag_siblings", "siblings", "children", "owner_text_nodes", "is_heading",
    "rank", "chars_before", "own_link_density", "prev1_chars", f"anc_{GROUPS[0]}",
    "in_best_block", "best_block_share", "page_chars", "page_nodes", "chars_rel_max",
    "cont_rel_max")], dtype=np.int64)
"""Where ``_cwalk.node_columns`` writes, in its order; of a block (the 48 density columns, the
16 neighbour columns, the groups' distances) the first, the rest following as ``_names`` lays
them out."""
_ARTICLE_TYPES = ("article", "posting", "report", "blog", "review", "recipe", "howto", "qapage")


@dataclass(slots=True)
class NodeTable:
    """A page's text nodes in document order, with their features."""

    texts: list[str]
    X: np.ndarray
    """float32, one row per text node, columns in ``FEATURE_NAMES`` order."""
    owner: np.ndarray
    """Pre-order index of the element each text node belongs to."""
    container: np.ndarray
    """Pre-order index of the node's nearest block container."""
    parent: np.ndarray
    """Per element (pre-order), its parent's index; -1 for the root."""
    end: np.ndarray
    """Per element, one past the last element of its subtree: a subtree is ``[i, end[i])``."""
    depth: np.ndarray
    """Per element, its depth below the root."""
    keyed: np.ndarray
    """Pre-order indices of the elements with a class or id ..."""
    keys: list[str]
    """... and, for each, its "class id" string."""
    text_keys: np.ndarray
    """Per node, an int64 naming its text up to case and whitespace (Python's string hash,
    salted per process: keys compare within one process only); ``site`` matches them across
    a site's pages."""
    linked: np.ndarray
    """Per node (float32), levels up from its element to the outermost block inside an ``<a>``
    that wraps blocks, ``NO_ANCESTOR`` when none: a teaser card's heading and summary, whose
    link the link counts (keyed by the ``<a>``'s own block) cannot show."""
    spells_address: np.ndarray
    """Per node (bool), whether its whole text is the page's own address (as downloaded or
    declared canonical) or its lead image's: a template's share or print box prints them as
    text, and no article's text is its own URL."""

    def __len__(self) -> int:
        return len(self.texts)

    @property
    def weights(self) -> np.ndarray:
        """Each node's non-space characters plus one: how much it counts in a page's text."""
        return node_chars(self.X) + 1.0


_SCHEME = re.compile(r"^(?:https?:)?//(?:www\.)?|^www\.")


def address_key(address: str) -> str:
    """An address as a page may print it: lower-cased, without scheme, ``www.``, query,
    fragment or final slash."""
    key = _SCHEME.sub("", address.strip().lower(), count=1)
    return key.split("#", 1)[0].split("?", 1)[0].rstrip("/")


def _spelled_addresses(normed: list[str], addresses: Sequence[str | None]) -> np.ndarray:
    own = {address_key(a) for a in addresses if a} - {""}
    if not own:
        return np.zeros(len(normed), dtype=bool)
    # One token with a dot: the test spares the other nodes the key.
    return np.fromiter((" " not in k and "." in k and address_key(k) in own for k in normed),
                       dtype=bool, count=len(normed))


def node_chars(X: np.ndarray) -> np.ndarray:
    """Non-space characters per row, undoing the ``chars`` column's log1p."""
    return np.expm1(X[:, _COL["chars"]].astype(np.float64))


@lru_cache(maxsize=65536)
def _word_mask(word: str) -> int:
    """Groups named by one word of a class or id, exactly or as a prefix or suffix.

    Cached per word rather than per token or value: words recur across sites ("header",
    "wrapper", "col") where whole values rarely do, so a page's new values are mostly made
    of known words.
    """
    mask = _WORD_MASK.get(word, 0)
    # Every keyword is 3+ letters: a word whose first (last) three are no keyword's first
    # (last) three has no keyword as a prefix (suffix).
    if word[:3] in _AFFIX_HEADS:
        for k in range(3, min(len(word), 12)):
            mask |= _AFFIX_MASK.get(word[:k], 0)
    if word[-3:] in _AFFIX_TAILS:
        for k in range(3, min(len(word), 12)):
            mask |= _AFFIX_MASK.get(word[-k:], 0)
    return mask


def class_words(values: list[str]) -> list[list[str]]:
    """The words of each "class id" value ("article-body__text" → article, body, text), in a
    few calls over all of them joined by NUL (which lxml strings never hold, and which, like
    whitespace, ends the context of ``lower()``'s final-sigma rule)."""
    if not values:
        return []
    return [part.split() for part in
            "\x00".join(values).lower().translate(_WORD_SPLIT).split("\x00")]


_VALUE_MASKS: dict[str, int] = {}
_VALUE_MASKS_MAX = 65536
_VALUE_CACHED_CHARS = 256  # longer values (generated junk) are not kept


def _class_masks(values: list[str]) -> list[int]:
    """Groups named by each class/id value (the words of "class id"), for a page at once.

    Values recur within a site, so they are cached (bounded: emptied when full). Most of a
    page's values are new to the cache, though, and those are split all at once
    (``class_words``).
    """
    cache = _VALUE_MASKS
    found = {value: cache.get(value) for value in values}
    new = [value for value, mask in found.items() if mask is None]
    if new:
        if len(cache) + len(new) > _VALUE_MASKS_MAX:
            cache.clear()
        for value, words in zip(new, class_words(new), strict=True):
            # map and reduce loop in C: a Python loop over the words cost twice as much
            found[value] = mask = reduce(or_, map(_word_mask, words), 0)
            if len(value) <= _VALUE_CACHED_CHARS:
                cache[value] = mask
    return list(map(found.__getitem__, values))


def _walk(root: etree._Element, links: dict):
    """One pre-order walk: element arrays and text nodes (text and tails, in reading order).

    The loop body runs twice per element, so it is kept to list appends and local lookups:
    the stack starts with a -1 sentinel (the root's parent) instead of testing for emptiness.
    """
    link_at: list[tuple[int, int, int]] = []
    cont: list[int] = []
    tag_code: list[int] = []
    parent: list[int] = []
    depth: list[int] = []
    end: list[int] = []
    masks: list[int] = []
    keyed: list[int] = []
    keys: list[str] = []
    texts: list[str] = []
    owner: list[int] = []
    tails: list[bool] = []
    stack: list[int] = [-1]
    code_of = _TAG_CODE.get  # comments, PIs and entities have non-str tags: code 0
    containers = _CONTAINERS
    tag_mask = _TAG_MASK
    hidden_bit = _GROUP_BIT["hidden"]
    control_bit = _GROUP_BIT["control"]
    linked_bit = _LINKED_BIT
    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            i = len(tag_code)
            code = code_of(el.tag, 0)
            top = stack[-1]
            tag_code.append(code)
            parent.append(top)
            depth.append(len(stack) - 1)
            end.append(i + 1)
            cont.append(i if code in containers or top < 0 else cont[top])
            if el in links:
                link_at.append((i, *links[el]))
            mask = tag_mask[code]
            names = el.keys()  # one call; most elements have no attributes at all
            if names:
                if "class" in names or "id" in names:
                    keyed.append(i)
                    keys.append(f"{el.get('class', '')} {el.get('id', '')}")
                if ("hidden" in names
                        or ("aria-hidden" in names and el.get("aria-hidden") == "true")
                        or ("style" in names and HIDDEN_STYLE.search(el.get("style")))):
                    mask |= hidden_bit
                if CONTROL_MARK in names:
                    mask |= control_bit
                if LINKED_MARK in names:
                    mask |= linked_bit
            masks.append(mask)
            text = el.text
            if text and not text.isspace():
                texts.append(text)
                owner.append(i)
                tails.append(False)
            stack.append(i)
        else:
            i = stack.pop()
            end[i] = len(tag_code)
            tail = el.tail
            if tail and i and not tail.isspace():  # the root's tail is outside the page
                texts.append(tail)
                owner.append(stack[-1])
                tails.append(True)
    for i, mask in zip(keyed, _class_masks(keys), strict=True):
        masks[i] |= mask
    return tag_code, parent, depth, end, masks, texts, owner, tails, cont, link_at, keyed, keys


_C_WALK = CWALK.walk if CWALK is not None else None
"""``_walk`` compiled (``_cwalk.pyx``; ``compiled``)."""


def _tree_walk(root: etree._Element, links: dict):
    """``_walk``'s results, from the C walk where it reads the tree (median 1.08 -> 0.33 ms a
    page on WCXB dev before the class words' groups, the same results on every page of the
    labelled sets), else from ``_walk``."""
    if _C_WALK is not None:
        walked = _C_WALK(root, links, _TAG_CODE, _CONTAINERS, _TAG_MASK, _GROUP_BIT["hidden"],
                         _GROUP_BIT["control"], _LINKED_BIT, HIDDEN_STYLE,
                         CONTROL_MARK.encode(), LINKED_MARK.encode())
        if walked is not None:
            masks, keyed, keys = walked[4], walked[10], walked[11]
            if keyed:
                masks[keyed] |= CWALK.class_masks(keys, _VALUE_MASKS, _word_mask,
                                                  _VALUE_MASKS_MAX, _VALUE_CACHED_CHARS)
            return walked
    return _walk(root, links)


def _ancestor_distances(masks: Sequence[int] | np.ndarray, parent: np.ndarray,
                        depth: np.ndarray, owner: np.ndarray) -> np.ndarray:
    """Per text node and group (``GROUPS``, then the linked bit), levels up from its element
    to the nearest element (itself included) carrying the group, ``NO_ANCESTOR`` when none
    is nearer.

    Pointer jumping over all elements at once: after round k each element knows the nearest
    carrier within 2**k levels, and five rounds cover the 30 levels that are ever reported.
    (The walk used to carry a tuple of 28 depths down the tree, copied at every element with
    a group, then converted each text node's tuple from Python ints.)
    """
    mask = np.asarray(masks, dtype=np.int64)
    # Only groups some element carries need the work; the rest are NO_ANCESTOR throughout.
    shifts = _GROUP_SHIFTS[(np.bitwise_or.reduce(mask) >> _GROUP_SHIFTS) & 1 == 1]
    carries = ((mask[:, None] >> shifts) & 1).astype(bool)
    small = np.int16 if len(depth) and depth.max() < np.iinfo(np.int16).max else np.int32
    # Depth of the nearest carrier, -1 for none yet; 16 bits keep a huge page's table small.
    nearest = np.where(carries, depth.astype(small)[:, None], small(-1))
    up = np.maximum(parent, 0)  # the root is its own parent: it has nothing above it
    span = 1
    while span < NO_ANCESTOR:
        # A carrier already found lies deeper than any found through ``up``: max keeps it.
        nearest = np.maximum(nearest, nearest[up])
        up = up[up]
        span *= 2
    near = nearest[owner]
    dist = np.full((len(owner), len(_GROUP_SHIFTS)), NO_ANCESTOR, dtype=np.int64)
    dist[:, shifts] = np.where(
        near >= 0, np.minimum(depth[owner][:, None] - near, NO_ANCESTOR), NO_ANCESTOR)
    return dist


def subtree_sums(own: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Per element, ``own`` summed over its subtree: in pre-order a subtree is the contiguous
    range ``[i, end[i])``, so one prefix sum serves every element."""
    cs = np.concatenate(([0.0], np.cumsum(own, dtype=np.float64)))
    return cs[end] - cs[: len(end)]


_CHUNK_CHARS = 1 << 20
_LAST = itemgetter(-1)
_BINCOUNT_MAX = 1 << 20


def _classes(text: str) -> np.ndarray:
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    return _CLASS_OF[cps]


def _char_counts(texts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per node, codepoints in each character class, and its last non-space codepoint.

    Node text is classified in batches of about a million codepoints, so a 20 MB page costs
    a few MB of scratch arrays rather than several int64 copies of the whole text.
    """
    n = len(texts)
    counts = np.empty((n, N_CLASSES), dtype=np.float64)
    start = 0
    while start < n:
        stop, size = start, 0
        while stop < n and (size == 0 or size + len(texts[stop]) <= _CHUNK_CHARS):
            size += len(texts[stop])
            stop += 1
        if stop - start == 1:
            text = texts[start]
            counts[start] = sum(
                (np.bincount(_classes(text[k: k + _CHUNK_CHARS]), minlength=N_CLASSES)
                 for k in range(0, len(text), _CHUNK_CHARS)),
                start=np.zeros(N_CLASSES),
            )
        else:
            cls = _classes("".join(texts[start:stop]))
            lengths = np.fromiter(map(len, texts[start:stop]), dtype=np.int32,
                                  count=stop - start)
            # intp keys: bincount would convert any other integer type first
            key = np.repeat(np.arange(0, (stop - start) * N_CLASSES, N_CLASSES), lengths)
            key += cls
            counts[start:stop] = np.bincount(
                key, minlength=(stop - start) * N_CLASSES).reshape(-1, N_CLASSES)
        start = stop
    # map chains run in C; a generator cost ~0.3 us a node
    last_cp = np.fromiter(map(ord, map(_LAST, map(str.rstrip, texts))), dtype=np.int64, count=n)
    return counts, last_cp


class TooManyNodes(ValueError):
    """A page with more text nodes than the caller allows; raised before the arrays are built."""


def _computed_columns(counts: np.ndarray, last_cp: np.ndarray, tails: np.ndarray,
                      owner_a: np.ndarray, link_rows: np.ndarray, tag_code_a: np.ndarray,
                      parent_a: np.ndarray, depth_a: np.ndarray, end_a: np.ndarray,
                      cont: np.ndarray, mask_a: np.ndarray, X: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The columns of ``X`` that need only the walk's arrays and the character counts, with
    NumPy (``_cwalk.node_columns`` in C); returns each node's characters, container and
    ``NodeTable.linked``."""
    n, n_el = len(owner_a), len(tag_code_a)
    idx_el = np.arange(n_el)
    lengths = counts.sum(axis=1)
    length = lengths.astype(np.float64)
    chars = length - counts[:, C_SPACE]
    safe = np.maximum(chars, 1.0)
    letters = counts[:, C_LOWER] + counts[:, C_UPPER] + counts[:, C_LETTER]
    punct = counts[:, C_STOP] + counts[:, C_PUNCT]
    last_cls = _CLASS_OF[last_cp]

    col = _COL
    X[:, col["chars"]] = np.log1p(chars)
    X[:, col["space_ratio"]] = counts[:, C_SPACE] / np.maximum(length, 1.0)
    X[:, col["letter_ratio"]] = letters / safe
    X[:, col["upper_ratio"]] = counts[:, C_UPPER] / np.maximum(letters, 1.0)
    X[:, col["cjk_ratio"]] = counts[:, C_LETTER] / safe
    X[:, col["digit_ratio"]] = counts[:, C_DIGIT] / safe
    X[:, col["punct_ratio"]] = punct / safe
    X[:, col["symbol_ratio"]] = counts[:, C_SYMBOL] / safe
    X[:, col["stops"]] = np.log1p(counts[:, C_STOP])
    X[:, col["stops_per_100"]] = 100.0 * counts[:, C_STOP] / safe
    X[:, col["ends_with_stop"]] = last_cls == C_STOP
    X[:, col["ends_with_colon"]] = (last_cp == ord(":")) | (last_cp == 0xFF1A)
    X[:, col["is_tail"]] = tails
    # Cased letters and digits per space: about 6 in prose of any spaced script, hundreds in
    # tokens, hashes and base64 left in the page; scripts without spaces (CJK, Thai) have
    # no cased letters, so they stay near 0 rather than looking like junk.
    cased = counts[:, C_LOWER] + counts[:, C_UPPER] + counts[:, C_DIGIT]
    X[:, col["cased_run"]] = np.log1p(cased / (counts[:, C_SPACE] + 1.0))

    def subtree(own: np.ndarray) -> np.ndarray:
        return subtree_sums(own, end_a)

    own_chars = np.bincount(owner_a, weights=chars, minlength=n_el)
    own_punct = np.bincount(owner_a, weights=punct, minlength=n_el)
    own_nodes = np.bincount(owner_a, minlength=n_el).astype(np.float64)
    own_link_chars = np.zeros(n_el)
    own_link_count = np.zeros(n_el)
    own_link_chars[link_rows[:, 0]] = link_rows[:, 1]
    own_link_count[link_rows[:, 0]] = link_rows[:, 2]
    is_p = (tag_code_a == _TAG_CODE["p"]).astype(np.float64)
    sub_chars = subtree(own_chars)
    sub_link = np.minimum(subtree(own_link_chars), sub_chars)
    sub_links = subtree(own_link_count)
    sub_punct = subtree(own_punct)
    sub_nodes = subtree(own_nodes)
    sub_p = subtree(is_p) - is_p
    desc = (end_a - idx_el - 1).astype(np.float64)
    total_chars = max(sub_chars[0], 1.0)

    # Method 2's densities, with link text and link tags as the discounted parts.
    plain = np.maximum(sub_chars - sub_link, 0.0)
    dt = plain / np.maximum(desc + 1.0 - sub_links, 1.0)
    dp = plain / (sub_punct + 1.0)
    ds = dt * np.log10(sub_p + 2.0) * np.log(np.maximum(dp, 1.0))
    best = int(np.argmax(np.where(tag_code_a == _TAG_CODE["body"], -1.0, ds)))
    ds_max = max(ds[best], 1e-6)

    # Same-tag siblings and child counts, per element.
    key = parent_a * len(TAGS) + tag_code_a
    if (n_el + 1) * len(TAGS) <= _BINCOUNT_MAX:  # a direct count; np.unique sorts
        key += len(TAGS)  # the root's parent is -1
        same_tag = np.bincount(key)[key] - 1
    else:
        _, inverse, key_counts = np.unique(key, return_inverse=True, return_counts=True)
        same_tag = key_counts[inverse] - 1
    children = np.bincount(parent_a[1:], minlength=n_el) if n_el > 1 else np.zeros(n_el)
    siblings = children[np.maximum(parent_a, 0)] - 1

    o = owner_a
    po = np.maximum(parent_a[o], 0)
    gpo = np.maximum(parent_a[po], 0)
    co = np.where(cont[o] == o, cont[po], cont[o])  # a text directly in a div: the div above
    max_depth = max(int(depth_a.max()), 1)
    X[:, col["is_only_text"]] = own_nodes[o] == sub_nodes[o]
    X[:, col["depth"]] = depth_a[o]
    X[:, col["rel_depth"]] = depth_a[o] / max_depth
    X[:, col["tag"]] = tag_code_a[o]
    X[:, col["parent_tag"]] = tag_code_a[po]
    X[:, col["grand_tag"]] = tag_code_a[gpo]
    X[:, col["same_tag_siblings"]] = np.log1p(same_tag[o])
    X[:, col["siblings"]] = np.log1p(siblings[o])
    X[:, col["children"]] = np.log1p(children[o])
    X[:, col["owner_text_nodes"]] = np.log1p(own_nodes[o])
    X[:, col["is_heading"]] = _IS_HEADING[tag_code_a[o]]
    X[:, col["rank"]] = np.arange(n) / n
    X[:, col["chars_before"]] = (np.cumsum(chars) - chars) / total_chars

    # The twelve density columns of each level, computed once per element in their column
    # order, then gathered for own element, parent, grandparent and container.
    per_element = np.array((
        sub_link / np.maximum(sub_chars, 1.0), np.log1p(sub_links), sub_chars / total_chars,
        np.log1p(sub_chars), np.log1p(sub_nodes),
        np.log1p(sub_chars / np.maximum(sub_nodes, 1.0)), np.log1p(sub_p), np.log1p(desc),
        sub_punct / np.maximum(sub_chars, 1.0), np.log1p(dt), np.log1p(ds), ds / ds_max,
    )).T  # np.array(...).T: column_stack reshapes each column in Python
    # The four levels' blocks are adjacent too: one gather fills all 48 columns.
    first = col["own_link_density"]
    X[:, first:first + 4 * _DENSITY_COLS] = per_element[np.array((o, po, gpo, co)).T
                                                         ].reshape(n, 4 * _DENSITY_COLS)

    # Neighbours in reading order.
    node_chars = X[:, col["chars"]]
    node_ld = X[:, col["own_link_density"]]
    node_pr = X[:, col["punct_ratio"]]
    for k in (1, 2):
        # Row i sees row i - k (prev) or i + k (next); -1, and not the same container, past
        # either end.
        head, tail = slice(None, max(n - k, 0)), slice(k, None)
        for side, dst, src in (("prev", tail, head), ("next", head, tail)):
            for name, values in (("chars", node_chars), ("link_density", node_ld),
                                 ("punct_ratio", node_pr)):
                column = X[:, col[f"{side}{k}_{name}"]]
                column[:] = -1.0
                column[dst] = values[src]
            X[dst, col[f"{side}{k}_same_cont"]] = co[dst] == co[src]

    # A control's block marks every element holding it: the distance is to the smallest
    # subtree with a control anywhere in it (a sign-up box's text sits beside its form).
    held = (mask_a & _GROUP_BIT["control"]) != 0
    if held.any():
        mask_a[subtree_sums(held.astype(np.float64), end_a) > 0] |= _GROUP_BIT["control"]
    dist = _ancestor_distances(mask_a, parent_a, depth_a, o)
    first = col[f"anc_{GROUPS[0]}"]
    X[:, first:first + len(GROUPS)] = dist[:, :len(GROUPS)]

    # Page-level hints.
    X[:, col["in_best_block"]] = (o >= best) & (o < end_a[best])
    X[:, col["best_block_share"]] = sub_chars[best] / total_chars
    X[:, col["page_chars"]] = np.log1p(total_chars)
    X[:, col["page_nodes"]] = np.log1p(n)
    X[:, col["chars_rel_max"]] = chars / max(chars.max(), 1.0)
    cont_chars = sub_chars[co]
    X[:, col["cont_rel_max"]] = cont_chars / max(cont_chars.max(), 1.0)
    return chars, co, dist[:, len(GROUPS)].astype(np.float32)


def node_features(root: etree._Element, links: dict, meta: Metadata | None = None,
                  max_nodes: int | None = None, url: str | None = None) -> NodeTable:
    """Walk the cleaned tree once and compute every text node's row of ``FEATURE_NAMES``.

    ``links`` maps block elements to (link characters, link count), as counted by ``clean``
    before the links were unwrapped; ``url`` is the page's address.
    """
    meta = meta or Metadata()
    (tag_code, parent, depth, end, masks, texts, owner, tails, cont, link_at, keyed,
     keys) = _tree_walk(root, links)
    n = len(texts)
    if max_nodes is not None and n > max_nodes:
        raise TooManyNodes(f"{n} text nodes, more than {max_nodes}")
    X = np.zeros((n, len(FEATURE_NAMES)), dtype=np.float32)
    X[:, _COL["site_recurrence"]: _COL["site_pages"] + 1] = np.nan  # until ``site`` fills them
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return NodeTable(texts, X, empty, empty, empty, empty, empty, empty, [], empty,
                         np.zeros(0, dtype=np.float32), np.zeros(0, dtype=bool))

    tree = (np.asarray(tag_code, dtype=np.int64), np.asarray(parent, dtype=np.int64),
            np.asarray(depth, dtype=np.int64), np.asarray(end, dtype=np.int64),
            np.asarray(cont, dtype=np.int64), np.asarray(masks, dtype=np.int64))
    owner_a = np.asarray(owner, dtype=np.int64)
    counts, last_cp = (CWALK.char_counts(texts, _CLASS_OF, N_CLASSES) if CWALK is not None
                       else _char_counts(texts))
    link_rows = (np.fromiter(chain.from_iterable(link_at), np.int64, 3 * len(link_at))
                 .reshape(-1, 3) if link_at else np.zeros((0, 3), dtype=np.int64))
    nodes = (counts, last_cp, np.asarray(tails, dtype=np.uint8), owner_a, link_rows)
    if CWALK is not None:
        chars, co, linked = CWALK.node_columns(*nodes, *tree, X, _C_COLUMNS, _CLASS_OF,
                                               _IS_HEADING, _TAG_CODE["p"],
                                               _TAG_CODE["body"], _GROUP_BIT["control"],
                                               len(GROUPS), NO_ANCESTOR)
    else:
        chars, co, linked = _computed_columns(*nodes, *tree, X)
    tag_code_a, parent_a, depth_a, end_a = tree[:4]
    col = _COL
    page_type = (meta.page_type or "").lower()
    X[:, col["page_is_article"]] = any(t in page_type for t in _ARTICLE_TYPES)
    body = text_key(meta.article_body) if meta.article_body else ""
    desc_text = text_key(meta.description) if meta.description else ""
    title = text_key(meta.title) if meta.title else ""
    X[:, col["page_has_body"]] = bool(body)
    normed = [text_key(t) for t in texts]
    seen = Counter(normed)
    X[:, col["duplicates"]] = np.log(np.fromiter(map(seen.__getitem__, normed), np.float64, n))
    in_title = np.zeros(n, dtype=bool)
    if body or desc_text or title:
        long_nodes = np.flatnonzero(chars >= 8).tolist()
        if body:
            X[[j for j in long_nodes if normed[j] in body], col["in_article_body"]] = 1.0
        if desc_text:
            X[[j for j in long_nodes if normed[j] in desc_text or desc_text in normed[j]],
              col["in_description"]] = 1.0
        if title:
            in_title[[j for j in long_nodes if normed[j] in title or title in normed[j]]] = True
            # In a script without case a headline is often under 8 characters (Chinese
            # "台风过境"; a few words respelled in ideographs), so a shorter node matches when
            # it is the whole title. Not in a cased one: a short title there is a word
            # ("Mozilla") that lists and infoboxes repeat.
            if len(title) < 8 and not any(ch.isupper() or ch.islower() for ch in meta.title):
                in_title |= np.fromiter(map(title.__eq__, normed), dtype=bool, count=n)
            X[:, col["matches_title"]] = in_title
    # The headline: the first heading matching the title, else the first h1.
    heading = X[:, col["is_heading"]] > 0
    anchor = np.flatnonzero(in_title & heading)
    if not len(anchor):
        anchor = np.flatnonzero(tag_code_a[owner_a] == _TAG_CODE["h1"])
    if len(anchor):
        X[:, col["after_title"]] = np.arange(n) > anchor[0]
        X[:, col["title_offset"]] = (np.arange(n) - anchor[0]) / n
    else:
        X[:, col["after_title"]] = -1.0
    return NodeTable(texts, X, owner_a, co, parent_a, end_a, depth_a,
                     np.asarray(keyed, dtype=np.int64), keys,
                     np.fromiter(map(hash, normed), dtype=np.int64, count=n), linked,
                     _spelled_addresses(normed, (url, meta.canonical_url, meta.image)))
