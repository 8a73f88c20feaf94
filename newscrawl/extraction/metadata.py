"""Page metadata read from the raw tree, before cleaning throws <head> and <script> away.

Sources, most trusted first: JSON-LD (schema.org Article types, ``@graph``, nested Person and
Organization), OpenGraph and ``article:*`` tags, Twitter cards, ``<meta name>``/``itemprop``,
``<time datetime>``, a byline in the DOM near the headline, a date in the URL. Each field takes
the first source that gives a usable value, so a malformed or absurd value in one source falls
through to the next instead of spoiling the page. One XPath pass collects everything the head
and the microdata offer; the DOM is searched for a byline only when no source named an author.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from copy import deepcopy
from dataclasses import dataclass
from datetime import date as calendar_date
from functools import lru_cache
from itertools import chain, islice
from urllib.parse import unquote, urljoin, urlsplit

from lxml import etree
from w3lib.url import safe_url_string

from newscrawl.extraction.authors import (
    AUTHOR_LABEL,
    AUTHOR_LABEL_START,
    AUTHOR_LABELLED,
    BY_ONLY,
    BY_PREFIX,
    CJK_CREDIT_LEAD,
    CJK_POSTED_BY,
    cjk_credit,
    clean_authors,
    invert_name,
    names_nobody,
)
from newscrawl.extraction.clean import SCREEN_READER_CLASSES, hides
from newscrawl.extraction.dates import (
    page_language,
    parse_date,
    swapped_date,
    url_date,
    word_trie,
    zone_days,
)
from newscrawl.extraction.decode import readable
from newscrawl.extraction.meta_jsonld import JsonLd, read_jsonld


@dataclass(frozen=True, slots=True)
class Metadata:
    title: str | None = None
    authors: tuple[str, ...] = ()
    published: str | None = None
    modified: str | None = None
    language: str | None = None
    """Declared language (html@lang, og:locale, content-language), BCP 47."""
    description: str | None = None
    site_name: str | None = None
    image: str | None = None
    tags: tuple[str, ...] = ()
    section: str | None = None
    canonical_url: str | None = None
    page_type: str | None = None
    """JSON-LD @type or og:type, lower-cased (``newsarticle``, ``article``, ``website`` ...)."""
    article_body: str | None = None
    """JSON-LD articleBody when the page embeds one: a hint for the node classifier."""


_TAGS = ("meta", "title", "h1", "time", "link", "script")
"""The elements metadata is read from, besides microdata properties."""
_ITEMPROP = etree.XPath("/descendant::*/@itemprop/..")
_PROPERTY_VALUES = frozenset({"datepublished", "datemodified", "headline", "articlesection"})
"""Microdata properties: an attribute axis, not a predicate tested on every element."""
_NODES = etree.XPath(
    "/descendant::meta | /descendant::title | /descendant::h1 | /descendant::time"
    " | /descendant::link[@rel] | /descendant::script[@type] | /descendant::*/@itemprop/.."
)
"""Both in one document-ordered union, for the rare page that needs their order."""
_BYLINE = etree.XPath(
    "(//@class[contains(.,'byline') or contains(.,'Byline') or contains(.,'author')"
    " or contains(.,'Author') or contains(.,'writer')] | //@id[contains(.,'byline')]"
    " | //@rel[.='author'] | //@itemprop[.='author'])/parent::*[not(self::meta)"
    " and not(self::link) and not(self::script) and not(self::style)]"
)
"""Byline boxes, in document order. Read along the attribute axis, as ``_ITEMPROP``: testing
the predicates on every element took twice as long (1.1 against 2.2 ms on a WCXB page)."""
_AUTHOR_PAGE = re.compile(
    r"/(?:authors?|writers?|contributors?|columnists?|reporters?)/[^/?#]+/?(?:[?#]|$)"
    r"|[?&_]author=[^&#]", re.I)
"""A link to a writer's page ("/author/jane-doe/", "/articles/authors/jane-doe",
"?_author=Jane%20Doe"): a byline that themes mark by its target, not by a class."""
_ITEMPROP_NAME = etree.XPath(".//*[@itemprop='name']")
_TEXT_CONTENT = etree.XPath("string()")
"""An element's text, descendants included: what lxml.html's ``text_content()`` runs."""
_BYLINE_SKIP = frozenset({"meta", "link", "script", "style", "img", "svg", "picture", "source",
                          "noscript", "template", "input", "button", "form"})
_BYLINE_AFTER = 150
_BYLINE_BEFORE = 40
_BYLINE_TEXTS = 25
_BYLINE_TEXTS_BEFORE = 4
_FAR_TEXTS = 400
_FAR_DATE_TRIES = 8
"""Texts below the headline searched for a labelled byline or date (an article's length)."""
_LABEL_STARTS = re.compile("\0" + AUTHOR_LABEL_START.pattern, AUTHOR_LABEL_START.flags)
"""AUTHOR_LABEL_START at the start of a text, in texts joined by NUL."""
_LABEL_LOOKAHEAD = 8
_LABEL_TRIES = 3
_CJK_CREDIT_HINT = re.compile(r"记者|記者|报道|報道|報導|报导|作者|撰|文[/／・]|讯员|訊員|实习|實習"
                              r"|筆者|笔者|기자|특파원|" + CJK_POSTED_BY.pattern)
"""Words one of which a Chinese, Japanese or Korean credit line holds: only texts with one are
parsed."""
_CJK_CREDIT_TRIES = 12
_KO_DATELINE = 60
_CJK_CHAR = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3]")
_FOLLOWING_TEXTS = etree.XPath("following::text()[normalize-space()][position() <= $n]")
_FOLLOWING_ALL = etree.XPath("following::text()", smart_strings=False)
_XPATH_SPACE = " \t\r\n"
# Parenthesised, so the position counts over the whole body: "//body//text()[...][position()
# <= $n]" counts per parent element, which let every text of a long page through.
_BODY_STRINGS = etree.XPath("(//body//text()[normalize-space()])[position() <= $n]",
                            smart_strings=False)
_BODY_TEXTS = etree.XPath("(//body//text()[normalize-space()])[position() <= $n]")
_DATE_LABEL = re.compile(r"(?i)\b(?:posted|published|updated|written|post (?:time|date)"
                         r"|date posted)\b|publié|veröffentlicht|publicado|pubblicato"
                         r"|gepubliceerd|publicerad|opublikowano|опубликовано|yayınlan"
                         r"|发布|发表|發佈|發表|更新时间|时间[：:]|日期[：:]|公開日|投稿日|掲載日"
                         r"|작성일|등록일|입력")
_CJK_STAMP = re.compile(r"\d{4}\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日\s*\d{1,2}[:：]\d{2}")
"""A day written out in Chinese or Japanese with the time to the minute ("2024年3月5日 08:19"):
a publication stamp, as a date mentioned in prose carries no clock time."""
_DATE_HINTS = ("date", "publish", "posted", "byline", "author", "time")
_NOT_DATE_HINTS = ("review", "card", "stock", "sale", "event")
"""Classes of dates that are not the page's: a review's, a teaser card's, a sale's."""
_CONNECTORS = frozenset({",", "&", "and", "und", "et", "y", "e", "og", "och", "en", "i", "и",
                         "和", "、"})
# "By clicking / submitting / signing up ...": a consent line, not a byline.
_BY_GERUND = re.compile(r"\s*[Bb]y\s+[a-z]+ing\b")
# Visible text just after (and a little before) the headline, where bylines and dates sit.
_YEAR = re.compile(r"(?<!\d)(?:199\d|20[0-4]\d|25[3-8]\d|259[0-2]|1369|13[7-9]\d|14[01]\d|1420)"
                   r"(?!\d)")
"""1990 to 2049 in the common era, in the Buddhist era of Thai pages (2533 to 2592) and in the
solar calendar of Persian ones (1369 to 1420)."""
_ASCII_DIGITS = {zero + i: ord("0") + i for zero in (0x660, 0x6F0, 0x966, 0x9E6, 0xE50, 0xFF10)
                 for i in range(10)}
"""Arabic-Indic, Persian, Devanagari, Bengali, Thai and full-width digits."""


def _has_year(text: str, pos: int = 0) -> bool:
    """Whether ``text`` holds a plausible year, in ASCII digits or another script's."""
    return _YEAR.search(text, pos) is not None or (
        not text.isascii() and _YEAR.search(text.translate(_ASCII_DIGITS), pos) is not None)


# An update, not the publication: "Updated", "Last post" / "Last reply" on forum threads.
_UPDATED = re.compile("(?i)" + word_trie((
    "updated", "modified", "modifié", "modificato", "aktualisiert", "mis à jour", "actualizado",
    "aggiornato", "aktualizacj", "güncelleme", "atualizad", "actualitzat", "bijgewerkt",
    "geüpdatet", "zaktualizowan", "aktualizován", "aktualizovan", "frissítve", "actualizat",
    "обновлен", "оновлен", "güncellen", "uppdaterad", "opdateret", "oppdatert", "päivitetty",
    "ενημερώθηκε", "diperbarui", "cập nhật", "עודכן", "تحديث", "تم التحديث", "به‌روز", "更新",
    "수정", "dernier message", "letzter beitrag", "último mensaje", "ultimo messaggio"))
    + r"|\b(?:last|latest|laatste)\s+update\b|\bupdate\s*:|\blast (?:post|reply|activity)")
"""An update's label in the languages of the month names (Portuguese, Catalan, Dutch, Polish,
Czech, Slovak, Hungarian, Romanian, Russian, Ukrainian, Turkish, the Nordic ones, Greek,
Indonesian, Vietnamese, Hebrew, Arabic, Persian, Chinese and Japanese, Korean)."""
_LINE_PUNCTUATION = " -–—|·•,;(["
"""What separates a date from the update's label after it on one line."""
_OPAQUE = frozenset({"svg", "script", "style", "noscript", "template", "math", "select"})
_NOT_PUBLISHED = re.compile(r"(?i)\bjoined\b|member since|\bregistered\b|\bfounded\b"
                            r"|beigetreten|inscrit")
_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_SKIP_TEXT_PARENTS = frozenset({"script", "style", "noscript", "template", "option", "textarea"})

_MAX_TEXT = 2000
_MAX_TITLE = 400
_MAX_TAGS = 30
_MAX_TAG_LEN = 80
_MAX_BYLINE_TEXT = 200
_H1_SCAN = 5
_DATE_TEXT_MAX = 80
_TEXT_WINDOW_AFTER = 60
_TEXT_WINDOW_BEFORE = 12
_H2_SCAN = 10
_TIME_SCAN = 5
_H2_AGREEMENT = 0.6
_BYLINE_DATE_TEXTS = 12
"""Text nodes below the headline that make its byline area (author, date, reading time)."""
_BYLINE_DATE_LEN = 40

# Meta keys (property, name or itemprop, lower-cased) per field, most trusted first.
_TITLE_KEYS = ("og:title", "twitter:title", "headline", "sailthru.title", "parsely-title",
               "dc.title", "dcterms.title", "citation_title", "title", "fb_title", "rbtitle",
               "shareaholic:title")
_AUTHOR_KEYS = ("article:author", "author", "parsely-author", "sailthru.author", "dc.creator",
                "dcterms.creator", "citation_author", "byl", "byline", "article.author",
                "og:article:author", "creator", "authors", "og:author",
                "dc.creator.aut", "dcterms.creator.aut", "rbauthors", "dcsext.author",
                "atc-metaauthor", "shareaholic:article_author_name")
_PUBLISHED_KEYS = (
    "article:published_time", "og:article:published_time", "article:published",
    "og:published_time", "datepublished", "published_time", "publishdate", "publish-date",
    "publish_date", "published-date", "published", "pubdate", "parsely-pub-date",
    "sailthru.date", "article.published", "dc.date.issued", "dcterms.issued", "dcterms.created",
    "dc.date.created", "citation_publication_date", "citation_date", "original-publish-date",
    "article_date_original", "release_date",
    # Fewer sites: WordPress and Drupal themes, Korean and Chinese CMSs ("og:regDate", "ptime"),
    # analytics tags, and creation dates, which a news CMS stamps when the story is first saved.
    "article:post_date", "field-name-post-date", "dateposted", "dc.date.publication",
    "displaydate", "og:regdate", "pdate", "ptime", "analyticsattributes.articledate",
    "video:release_date", "content_create_date", "article.created", "date_created", "dc.created",
)
_PUBLISHED_NAME = re.compile(r"(?:publish(?:ed)?(?:date|time|at)|published|publication(?:date|time)"
                             r"|pubdate|datepub(?:lished)?)$")
"""Any other meta name that ends by naming the publication ("w-published-date",
"og:publish_date", "cxenseparse:publishtime", "article:first_published_time"), its
punctuation dropped: vendors prefix the names they copy."""
_NOT_PUBLISHED_NAME = re.compile(r"last|modif|updat")
_NAMESPACED_DATE = re.compile(r"[a-z]+[.:_]date$")
"""A vendor's plain date ("ms.date", "cludo:date"): as generic as ``date``, read after it."""
_GENERIC_DATE_KEYS = ("dc.date", "dcterms.date", "date", "datecreated", "created", "timestamp")
"""A date that does not say what of: often a record's or a build's. Read after the named
publication dates, and overruled by a date printed next to the headline."""
_MODIFIED_KEYS = ("article:modified_time", "og:updated_time", "datemodified",
                  "article:modified", "dcterms.modified", "dc.date.modified", "last-modified",
                  "lastmod", "modified_time", "article.updated", "og:modified_time",
                  "og:article:modified_time", "article:modified_date", "article:post_modified",
                  "updated_time", "dc.modified", "lastmodified", "modificationdate", "bt:moddate",
                  "revision_date")
_DESCRIPTION_KEYS = ("og:description", "description", "twitter:description", "dc.description",
                     "dcterms.description", "sailthru.description", "dcterms.abstract")
_SITE_KEYS = ("og:site_name", "application-name", "apple-mobile-web-app-title",
              "publisher", "twitter:site", "dc.publisher", "dcterms.publisher",
              "sailthru.publisher", "rbpubname")
_IMAGE_KEYS = ("og:image", "og:image:url", "og:image:secure_url", "twitter:image",
               "twitter:image:src", "image", "thumbnailurl")
# Not "tags": of the eight pages in the three sets whose tags it would give, four hold an
# analytics tagger's labels ("foo,money,m_food"), record ids or the site's name.
_TAG_KEYS = ("article:tag", "news_keywords", "keywords", "parsely-tags", "sailthru.tags",
             "shareaholic:keywords", "dcterms.subject", "citation_keywords")
_SECTION_KEYS = ("article:section", "section", "parsely-section", "category", "articlesection")
_LANGUAGE_KEYS = ("content-language", "og:locale", "language", "dc.language", "inlanguage")

# Between a headline and the site name in <title> and og:title.
_TITLE_SEPARATORS = (" | ", " - ", " – ", " — ", " :: ", " · ", " • ", " / ", " « ", " » ",
                     " ~ ", ": ", "｜", " – ", " _ ", "：")
# Separators a headline does not contain itself, so a third piece between them is a section.
_GENERIC_PAGE_TYPES = frozenset({
    "website", "webpage", "collectionpage", "faqpage", "aboutpage", "contactpage",
    "searchresultspage", "itempage", "medicalwebpage", "profilepage"})
"""schema.org page types and og:type values that say "a page", not "an article"."""
_ELLIPSES = ("…", "...")
_DESCRIPTOR_SEPARATORS = (" | ", "｜")
"""After the headline in a title only: what follows is a descriptor or a section."""
_SECTION_SEPARATORS = frozenset({" | ", " :: ", " · ", " • ", " / ", " « ", " » ", "｜", " _ "})
# Permalink anchors (Sphinx "¶", "§") and icon-font glyphs (private use area) that themes put
# at the end of a heading: never part of the headline.
_CLOSING = frozenset(",.;:!?)]}”’»%")
_HEADING_GLYPHS = "¶§⋆" + "".join(map(chr, range(0xE000, 0xF900)))
_HEADING_END = _HEADING_GLYPHS + " "
_HEADING_END_SET = frozenset(_HEADING_END)
_HEADING_SKIP = frozenset({"button", "script", "style", "noscript", "template", "select",
                           "svg", "time", "h2", "h3", "h4", "h5", "h6"})
_SCREEN_READER_ONLY = frozenset(SCREEN_READER_CLASSES) | {"hidden", "d-none"}
"""Class tokens of headings, or of their parts, that a reader does not see: screen-reader
text, and the utility classes that hide an element."""
_HEADING_LABELS = frozenset({"label", "badge"})
"""Class tokens of the chips a forum or shop puts before a headline ("News", "[Vocabulary]")."""
_HEADING_HIDDEN = _HEADING_LABELS | _SCREEN_READER_ONLY
_HEADING_ASIDES = ("comment", "subtitle", "tagline", "visuallyhidden")
"""Parts of class tokens of what a heading holds beside its headline: a comment count, a
subtitle or tagline set in smaller type ("Night Edition" over "Complete plant-based meal"),
text kept for screen readers ("utils_visuallyHidden__x1" from CSS modules)."""
_SOURCE_DOMAIN = re.compile(r"\s+\(((?:[\w-]+\.)+[a-z]{2,})\)$", re.I)
"""A link aggregator's source after a headline: "Grads Find No Jobs (latimes.com)"."""
_BLOCK_TAGS = frozenset({"br", "div", "p", "ul", "ol", "li", "dl", "dt", "dd", "table", "tr",
                         "td", "th", "section", "header", "footer", "blockquote", "figure",
                         "figcaption", "hr", "address", "pre"})
"""Elements that break a heading's line: text on either side does not run together."""
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))
"""Soft hyphens and zero-width characters: in the markup, not in what a reader sees."""
_NON_ALNUM = re.compile(r"[\W_]+")
_WORD = re.compile(r"\w+")
_SLUG_WORD = re.compile(r"[^\W_]+")
_DIGITS = re.compile(r"\d+")
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")
_SLUG_MARGIN = 0.15
"""Share of the slug's words the declared title must lack for the slug's <h1> to win."""
_SITE_EXTRA = 6
"""Characters a title piece may add to the site's name and still be only its name."""
_H1_AGREEMENT = 0.3
"""Share of an <h1>'s words found in the declared titles for it to count as the headline."""
_H1_SOLE_AGREEMENT = 0.1
"""The same when the page has a single <h1>: one shared word is enough."""
_H1_HEADER_AGREEMENT = 0.8
"""The same for an <h1> in a page <header> outside any article (a banner, a title bar)."""
_SECTION_H1S = 4
"""<h1>s on a page that uses them for its sections (a post's subheads, a sidebar's boxes, a
store's menus): one of them sharing a single word with the declared title is chance."""
_FUNCTION_WORDS = frozenset({
    "a", "an", "the", "and", "or", "of", "in", "on", "at", "to", "for", "with", "by", "from",
    "is", "are", "be", "what", "how", "why", "your", "you", "our", "we", "it", "its", "this",
    "that", "de", "la", "le", "les", "et", "des", "du", "el", "los", "las", "y", "en", "di",
    "il", "e", "der", "die", "das", "und", "zu", "von"})
"""Words every title has: an <h1> sharing only these with the declared title does not agree
with it ("Notes and Resources" against "Tidepools: What Lives There and How to Visit
Them")."""
_RDFA_PREFIX = re.compile(r"^(dc|dcterms):")
_LANG_TAG = re.compile(r"^[a-zA-Z]{2,3}(?:[-_][a-zA-Z0-9]{2,8})*$")


def _clip(value: str | None, limit: int = _MAX_TEXT) -> str | None:
    if not value:
        return None
    value = " ".join(value.split())
    return value[:limit] if value else None


_MARKUP = re.compile(r"<[a-zA-Z/!][^<>]{0,500}>")
_CLOSING_TAG = re.compile(r"</[a-zA-Z][a-zA-Z0-9]{0,10}>")
_SPACE_BEFORE_STOP = re.compile(r"\s+(?=[,.;:!?])")


def _plain(value: str | None, limit: int = _MAX_TEXT) -> str | None:
    """A declared text as a reader would see it: some CMSs put escaped HTML in the meta
    description or section ("<p>We're excited to introduce <strong>X</strong>", "Home &amp;
    Garden"). Tags are cut only from text that closes one: a lone "<table>" is a page about
    the tag, or an address in brackets."""
    if value and "</" in value and _CLOSING_TAG.search(value):
        value = _SPACE_BEFORE_STOP.sub("", _MARKUP.sub(" ", value))
    return _clip(readable(value), limit)


_SENTENCE_END = re.compile(r"[.!?]\s+[A-Z]")


def _section(value: str | None) -> str | None:
    """A URL in the section's place (the page's own, on some sites) names no section, and
    neither do sentences (a description filed as the section) nor a template's placeholder
    (WIRED's ``article:section`` "tags", WordPress's "Uncategorized")."""
    value = _plain(value, 200)
    if value and (value.startswith(("http://", "https://")) or len(value) > 100 or (
            len(value.split()) >= 10 and _SENTENCE_END.search(value))
            or value.casefold() in _NOT_SECTIONS):
        return None
    return value


_NOT_SECTIONS = frozenset({"tag", "tags", "category", "categories", "uncategorized",
                           "uncategorised", "none", "null", "undefined", "section"})


_NOT_SITE_NAMES = frozenset({"home", "homepage", "home page", "index", "welcome", "untitled"})


def _site(value: str | None) -> str | None:
    """Some sites declare their address as their name ("http://www.tmz.com"), which still
    names them; a social handle names them without its "@", and made into an address
    ("http://@handle") names nothing; nor does a template's "Homepage"."""
    value = _plain(value, 200)
    if value and value.startswith(("http://", "https://")) and (
            "@" in value or not _hostname(value)):
        return None
    if value and value.casefold() in _NOT_SITE_NAMES:
        return None
    return value[1:] or None if value and value.startswith("@") else value


@lru_cache(maxsize=1024)
def _key(text: str) -> str:
    """Cached: the title rules key the same few pieces (the site's names, each side of each
    separator) a dozen times a page, and a regex substitution costs ~1 us a call."""
    return _NON_ALNUM.sub("", text.casefold())


@lru_cache(maxsize=64)
def _hostname(url: str) -> str | None:
    """``urlsplit(url).hostname``, which re-parses the netloc on every read (~2 us); the
    title rules ask it of the page's URL three times."""
    return urlsplit(url).hostname


def _rstrip_glyphs(text: str) -> str:
    """``text.rstrip(_HEADING_END)`` only when the text ends in one of them: rstrip builds its
    6,400-character set on every call (2 us), and most headings end in a letter."""
    return text.rstrip(_HEADING_END) if text[-1:] in _HEADING_END_SET else text


@dataclass(slots=True)
class _Collected:
    metas: dict[str, list[str]]
    scripts: list[str]
    title: str | None
    h1s: list[etree._Element]
    times: list[etree._Element]
    canonical: str | None
    author_els: list[etree._Element]
    anchor: etree._Element | None | bool = False
    """The headline element, once _headline has looked (False: not yet)."""
    after: _Walk | None = None
    """Texts after the headline, as far as read."""
    before: _Walk | None = None
    """Texts before the headline, nearest first, as far as read."""
    below: list | None = None
    """Plain strings of the ~400 texts below the headline, once read."""
    byline: list[str] | None = None
    """Plain strings of the byline area under the headline, once read (_byline_strings)."""


def _collect(root: etree._Element) -> _Collected:
    """The head's and the microdata's metadata, in two reads: lxml's C iterator over six tag
    names, then one XPath for microdata properties (an attribute, so no tag iterator finds
    it). 0.36 -> 0.26 ms median on WCXB pages against one XPath union of both."""
    c = _Collected({}, [], None, [], [], None, [])
    top = root.getroottree().getroot()
    for branch in (*reversed(list(top.itersiblings(preceding=True))), top, *top.itersiblings()):
        for el in branch.iter(*_TAGS):
            _take_tagged(c, el)
    props = [el for el in _ITEMPROP(root) if el.tag != "meta"]
    if any(prop in c.metas and prop in _PROPERTY_VALUES
           for prop in ((el.get("itemprop") or "").strip().lower() for el in props)):
        # A visible property and a <meta> share a name ("datePublished" in both): values
        # must come in document order, which only the union gives.
        c = _Collected({}, [], None, [], [], None, [])
        for el in _NODES(root):
            if el.tag in _TAGS:
                _take_tagged(c, el)
            if el.tag != "meta":
                _take_property(c, el)
        return c
    for el in props:
        _take_property(c, el)
    return c


def _take_tagged(c: _Collected, el: etree._Element) -> None:
    tag = el.tag
    if tag == "meta":
        content = el.get("content")
        if content is None or not content.strip():
            return
        for attr in ("property", "name", "itemprop", "http-equiv"):
            name = el.get(attr)
            if not name:
                continue
            key = name.strip().lower()
            if attr == "property" and " " in key:
                # RDFa: a property may list several ("og:title twitter:title").
                for one in key.split():
                    c.metas.setdefault(_RDFA_PREFIX.sub(r"\1.", one), []).append(
                        content.strip())
            else:
                # Dublin Core is "dc:title" in RDFa and in some names, "dc.title" in most.
                if key.startswith("dc"):
                    key = _RDFA_PREFIX.sub(r"\1.", key)
                c.metas.setdefault(key, []).append(content.strip())
    elif tag == "script":
        if "ld+json" in (el.get("type") or "").lower() and el.text:
            c.scripts.append(el.text)
    elif tag == "title":
        if c.title is None and el.text:
            c.title = el.text
    elif tag == "h1":
        if len(c.h1s) < _H1_SCAN:
            c.h1s.append(el)
    elif tag == "time":
        c.times.append(el)
    elif tag == "link":
        rel = (el.get("rel") or "").lower()
        if rel == "canonical" and c.canonical is None:
            c.canonical = el.get("href")
        elif rel == "image_src" and el.get("href"):
            c.metas.setdefault("image_src", []).append(el.get("href"))


def _take_property(c: _Collected, el: etree._Element) -> None:
    """A microdata property outside <meta>: an author element, or a date, headline or section
    given as content, datetime or text."""
    prop = el.get("itemprop")
    if not prop:
        return
    prop = prop.strip().lower()
    if prop == "author" or prop == "creator":
        c.author_els.append(el)
    elif prop in ("datepublished", "datemodified") and _in_reply(el):
        pass  # a comment's or an answer's date, not the page's
    elif prop in _PROPERTY_VALUES:
        value = el.get("content") or el.get("datetime") or _TEXT_CONTENT(el)
        if value and value.strip():
            c.metas.setdefault(prop, []).append(value.strip())


_REPLY_TYPES = ("comment", "answer", "review")
"""Microdata items (``itemtype`` or the ``itemprop`` that holds them) that are replies to the
page, not the page: a comment's ``datePublished`` on a Q&A page is not the question's."""


def _item_author(c: _Collected) -> list[str]:
    """The author of the page's first microdata article or posting (``itemtype`` Article,
    BlogPosting, DiscussionForumPosting, Question ...): structured data, as JSON-LD is. Forum
    themes declare the thread's opening post so, with its writer in a hidden block above the
    title, while the replies below carry authors of their own; the byline nearest the title
    can be a reply's."""
    for el in c.author_els:
        item = next((a for a in el.iterancestors() if a.get("itemscope") is not None), None)
        if item is None:
            continue
        kind = (item.get("itemtype") or "").rstrip("/").rsplit("/", 1)[-1].lower()
        if kind.endswith(("article", "posting")) or kind == "question":
            return _byline_texts(el)
    return []


def _in_reply(el: etree._Element) -> bool:
    for a in el.iterancestors():
        if a.get("itemscope") is not None:
            kind = ((a.get("itemtype") or "").rsplit("/", 1)[-1] + " "
                    + (a.get("itemprop") or "")).lower()
            return any(t in kind for t in _REPLY_TYPES)
    return False


def _first(metas: dict[str, list[str]], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        for value in metas.get(key, ()):
            if value:
                return value
    return None


def _site_names(site_name: str | None, url: str | None) -> list[str]:
    names = [_key(site_name)] if site_name else []
    if names and len(names[0]) >= 3 and names[0].endswith("网"):
        # "腾讯网" (Tencent's site) signs its news pages "腾讯新闻": the name without its "网".
        names.append(names[0][:-1])
    host = _hostname(url) if url else None
    if host:
        labels = [x for x in host.removeprefix("www.").split(".") if x]
        if len(labels) >= 2:
            names.append(_key(labels[-2] if len(labels[-2]) > 3 or len(labels) < 3
                              else labels[-3]))
            names.append(_key(".".join(labels)))
    return [n for n in names if len(n) >= 3 or (len(n) == 2 and _CJK_CHAR.match(n))]


_CJK_SITE = re.compile(r"(?=..)[\u3400-\u4dbf\u4e00-\u9fff]{0,10}(?:网|網|网站|網站|新闻|新聞"
                       r"|频道|頻道|日报|日報|晚报|晚報|时报|時報|在线|在線|门户|門戶)")
"""A Chinese site's or channel's name, by the words such names end with ("巴彦淖尔市人民政府网",
"腾讯新闻", "教育频道", "人民日报", a bare "新闻") after a title's last separator
("标题_频道_网站"), when the page declares no site name and its host is pinyin or an
abbreviation that matches nothing. Only there: a headline may end the same way
("中国正式接入国际互联网")."""


def _is_site(piece: str, sites: list[str]) -> bool:
    """The piece names the site: it is the site's name, part of it ("Times"), or the name with
    a word or two around it ("BBC News", "The FreeBSD Forums"). A piece that only *mentions*
    the site ("Docker Hardened Images", "Corti introduces GIM") is a headline about it."""
    k = _key(piece)
    if not k:
        return True
    return any(k == s or (len(k) >= 4 and (k in s or (s in k and (
        len(s) * 2 >= len(k) or len(k) - len(s) <= _SITE_EXTRA)))) for s in sites)


def _strip_site(title: str, sites: list[str], leading: bool = True,
                headings: Sequence[str] = ()) -> str:
    """``Headline | Site`` or ``Site - Headline`` to ``Headline`` when a side names the site.

    ``Headline | Section | Site``: once the site is cut from one end, what remains on the far
    side of the same separator is a section or category, when the separator is one headlines
    do not use themselves (a pipe, a slash, a bullet; not a dash or a colon).

    A leading piece that an <h1> (``headings``, keys) opens with is the headline's start, not
    the site, unless it is the site's very name: "Ridge Wallet - Royal Black" on The Ridge's
    page whose <h1> is "Ridge Wallet", "Nintendo Switch – OLED Model - Nintendo - Official Site".
    """
    for sep in _TITLE_SEPARATORS:
        if sep not in title:
            continue
        head, _, tail = title.rpartition(sep)
        if head and _is_site(tail, sites):
            if sep in _SECTION_SEPARATORS and sep in head:
                head = head.partition(sep)[0]
            return _strip_site(head.strip(), sites, leading, headings)
        if head and _CJK_SITE.fullmatch(_key(tail)):
            # "标题 - 要闻云南 - 云南日报网": the pieces between are channels, shorter than it
            pieces = head.split(sep)
            if len(pieces) > 1 and len(pieces[0]) > max(map(len, pieces[1:])):
                head = pieces[0]
            return _strip_site(head.strip(), sites, leading, headings)
        head, _, tail = title.partition(sep)
        if ((leading or sep in _SECTION_SEPARATORS) and tail and _is_site(head, sites)
                and not _opens_heading(head, sites, headings)):
            if sep in _SECTION_SEPARATORS and sep in tail:
                tail = tail.rpartition(sep)[2]
            return _strip_site(tail.strip(), sites, leading, headings)
    return title


def _opens_heading(piece: str, sites: list[str], headings: Sequence[str]) -> bool:
    k = _key(piece)
    return k not in sites and any(h.startswith(k) for h in headings)


def _strip_host(title: str, url: str | None) -> str:
    """``example.com Headline`` to ``Headline``: the page's own host name run into a title
    without a separator names the site (one with a separator is _strip_site's)."""
    host = (_hostname(url) or "").removeprefix("www.") if url else ""
    first, _, rest = title.partition(" ")
    if host and _WORD.match(rest) and first.lower().removeprefix("www.") == host:
        return rest
    return title


def _strip_site_tail(heading: str, sites: list[str]) -> str:
    """``Headline | Site`` in an <h1> (some themes print the <title> there) to ``Headline``.

    Only a trailing site name and not after a colon: in a heading, "Brand: what it did" is the
    headline itself."""
    for sep in _TITLE_SEPARATORS:
        if sep != ": " and sep in heading:
            head, _, tail = heading.rpartition(sep)
            if head.strip() and _is_site(tail, sites):
                return head.strip()
    return heading


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.casefold()))


def _cut_source(heading: str, h1: etree._Element) -> str:
    """``Headline (latimes.com)`` to ``Headline`` when the <h1> links to that host: a link
    aggregator names the story's source. Not "Server rendering (Next.js)", which links nowhere
    of that name."""
    found = _SOURCE_DOMAIN.search(heading)
    if found:
        domain = found.group(1).lower()
        for a in h1.iter("a"):
            try:
                host = urlsplit(a.get("href") or "").hostname or ""
            except ValueError:  # "http://[" and other broken hrefs
                continue
            if host == domain or host.endswith("." + domain):
                return heading[:found.start()]
    return heading


_MAX_HEADLINE = 150
_SENTENCE_STOP = re.compile(r"[.!?](?=\s|$)|[。！？]")
"""An <h1> longer than a long headline that holds two sentences or more is a paragraph set
in the heading's type ("Learn which renovations ...? Get expert tips ... We'll help you ...")."""


def _h1_ok(h1: etree._Element, text: str, sites: list[str], site_words: set[str]) -> bool:
    """Not the logo or site name that some themes wrap in an <h1> (also a short form of it:
    "Garden News" on "Garden Update News", or the text beside a logo image), nor a
    page-header <h1> outside any article, nor a paragraph."""
    if _is_site(text, sites) or len(text) < 3 or h1.get("hidden") is not None:
        return False
    if len(text) > _MAX_HEADLINE and len(_SENTENCE_STOP.findall(text)) >= 2:
        return False
    if site_words and _words(text) <= site_words:
        return False
    if any("logo" in (img.get("class") or "").lower() for img in h1.iter("img", "svg")):
        return False
    if _SCREEN_READER_ONLY & set((h1.get("class") or "").lower().split()):
        return False
    parent = h1.getparent()
    for el in (h1, parent) if parent is not None else (h1,):
        # Class tokens, not substrings: "tag-sustainable-brands" on an <article> is a tag list.
        for token in ((el.get("class") or "") + " " + (el.get("id") or "")).lower().split():
            if ("logo" in token or "site-title" in token or "site-name" in token
                    or token.startswith("brand") or token.endswith("brand")):
                return False
    ancestors = {a.tag for a in h1.iterancestors()}
    return bool(ancestors & {"article", "main"}) or not ancestors & {"nav", "footer"}


_CJK_NEIGHBOUR = "\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3\uff01-\uff60“”"
_CJK_SEPARATOR = re.compile(
    f"(?<=[{_CJK_NEIGHBOUR}])\\s*(_+|\\|+|-+)\\s*(?=\\S)"
    f"|(?<=\\S)\\s*(_+|\\|+|-+)\\s*(?=[{_CJK_NEIGHBOUR}])")
"""Chinese titles join headline, channel and site with a bare "_", "-" or "|"
("北京今冬首场降雪来了_网易新闻", "…来了--人民网"): where either side is CJK, the mark (or a run
of it) is a separator."""


def _spaced_separators(title: str) -> str:
    return _CJK_SEPARATOR.sub(lambda m: f" {(m.group(1) or m.group(2))[0]} ", title)


def _shown_piece(root: etree._Element, title: str) -> str | None:
    """The part of ``Headline _ Channel _ Site`` that the page shows as a text of its own,
    when it holds the title's longest piece and is not the whole title: the headline as a
    reader sees it, where the site's name is neither declared nor the host's ("云南日报网" on
    yndaily.com), so it cannot be cut by name. Site and channel names are short pieces, and
    what the banner, menu or footer shows is the site's own ("Acme Widgets International"
    in "Contact - Acme Widgets International")."""
    parts = _SEPARATOR_SPLIT.split(title)
    pieces = parts[::2]
    if len(pieces) < 2 or len(pieces) > _SHOWN_PIECES:
        return None
    longest = max(range(len(pieces)), key=lambda i: len(pieces[i]))
    if len(pieces[longest]) < _SHOWN_MARGIN * max(
            len(p) for i, p in enumerate(pieces) if i != longest):
        return None
    runs: dict[str, str] = {}
    for first in range(longest + 1):
        for last in range(longest, len(pieces)):
            if (first, last) != (0, len(pieces) - 1):
                run = "".join(parts[2 * first: 2 * last + 1]).strip()
                runs[_NON_ALNUM.sub("", run.casefold())] = run
    whole = _NON_ALNUM.sub("", title.casefold())
    shortest = min(map(len, runs))
    found: str | None = None
    body = next(root.iter("body"), root)
    for text in _SHOWN_TEXTS(body):
        if len(text) < shortest:
            continue
        key = _NON_ALNUM.sub("", text.casefold())
        if key == whole:
            return None
        if key in runs and (found is None or len(runs[key]) > len(found)) and not (
                _in_template(text.getparent())):
            found = runs[key]
    return found


def _in_template(el: etree._Element) -> bool:
    """In the page's banner, menu or footer, where a site shows its own name."""
    return el.tag in _TEMPLATE_TAGS or next(el.iterancestors(*_TEMPLATE_TAGS), None) is not None


_TEMPLATE_TAGS = ("header", "nav", "footer")


_SHOWN_PIECES = 6
_SHOWN_TEXTS = etree.XPath(".//text()[not(parent::title or parent::script or parent::style)]")
_SHOWN_MARGIN = 1.5
_SEPARATOR_SPLIT = re.compile("(" + "|".join(map(re.escape, sorted(
    set(_TITLE_SEPARATORS) - {": ", "："}, key=len, reverse=True))) + ")")
"""Not at colons: "How to Make a Good Game: 5 Mistakes" is one headline, and its page may
show the part after the colon on its own."""


def _in_page_header(h1: etree._Element) -> bool:
    """Inside a <header> that is not within the article: the site's banner, or a category
    page's title bar. Taken only when it agrees closely with the declared title."""
    ancestors = {a.tag for a in h1.iterancestors()}
    return "header" in ancestors and not ancestors & {"article", "main"}


def _declared_titles(c: _Collected, ld: JsonLd | None) -> list[str]:
    # og:title before the JSON-LD headline: Google asks for headlines of at most 110
    # characters, so some CMSs cut them, and some put the article's first lines there.
    return [t for t in map(readable, (
        _clip(_first(c.metas, _TITLE_KEYS), _MAX_TITLE),
        _clip(ld.headline, _MAX_TITLE) if ld else None,
        _clip(c.title, _MAX_TITLE),
    )) if t]


def _choose_title(root: etree._Element, c: _Collected, ld: JsonLd | None,
                  site_name: str | None, url: str | None) -> str | None:
    """:func:`_chosen_title`, with the bare separators of a Chinese title as the page wrote
    them where they stay in the headline ("新竹尖石_美樹營地賞楓 @ 史蒂文的家")."""
    declared = _declared_titles(c, ld)
    title = _chosen_title(root, c, ld, declared, site_name, url)
    if not title or any(title in d for d in declared):
        return title
    written = re.compile(_SPACED_MARK.sub(
        lambda m: rf"\s*(?:{m.group(1)})+\s*", re.escape(title)))
    return next((m.group() for d in declared if (m := written.search(d))), title)


_SPACED_MARK = re.compile(r"\\ (_|\\\||\\-)\\ ")
"""A separator as :func:`_spaced_separators` wrote it, in ``re.escape``'s spelling."""


def _chosen_title(root: etree._Element, c: _Collected, ld: JsonLd | None, declared: list[str],
                  site_name: str | None, url: str | None) -> str | None:
    """The headline as a reader sees it: the <h1> that agrees with the declared title (or the
    only <h1> there is), else the declared title with the site's name cut off."""
    # A "site name" that is a whole "Headline | Site" title is the page's title misfiled.
    if site_name and any(sep in site_name for sep in _SECTION_SEPARATORS):
        site_name = None
    sites = _site_names(site_name, url)
    site_words = _words(site_name) if site_name else set()
    declared = [_spaced_separators(t) for t in declared]
    h1s: list[tuple[str, etree._Element]] = []
    header_h1s: list[tuple[str, etree._Element]] = []
    title_words = (c.title or "").split()
    for h in c.h1s:
        text = _clip(readable(_inline_text(h)), _MAX_TITLE)
        text = _cut_source(_rstrip_glyphs(text), h) if text else text
        if (text and len(title_words) >= 2 and text == title_words[-1] and _CJK_CHAR.match(text)
                and len("".join(title_words[:-1])) >= 2 * len(text)):
            # "土豆不“土” 土豆无“土” 松花江网" over an <h1> "松花江网": the site's name, set
            # after the headline with a space as Chinese titles may; a headline is the longer
            # part ("松花江网 北京今冬首场降雪来了" over its headline is the other order).
            sites.append(_key(text))
            declared = [d.removesuffix(text).rstrip() for d in declared]
            continue
        if text and _h1_ok(h, text, sites, site_words):
            text = _strip_site_tail(text, sites)
            (header_h1s if _in_page_header(h) else h1s).append((text, h))
    headings = [_key(text) for text, _ in h1s + header_h1s]
    # The site's name in "Headline - Site" agrees with any <h1> that names the site.
    stripped = [_strip_site(d, sites, headings=headings) for d in declared]
    declared_words = set().union(*map(_words, stripped))
    best, best_overlap = None, 0.0
    declared_keys = {_key(s) for s in stripped}
    sections = len(c.h1s) >= _SECTION_H1S
    for text, h in h1s:
        words = _words(text)
        shared = words & declared_words
        content = len(shared - _FUNCTION_WORDS)
        if sections and content == 1 and _key(text) not in declared_keys:
            content = 0
        overlap = len(shared) / len(words) if content else 0.0
        if overlap > best_overlap:
            best, best_overlap = (text, h), overlap
    # A banner <h1> (a blog's name) is also in <title> ("Blog Name: Post"), so it is held to
    # the most specific declared title only (og:title, else the headline, else <title>).
    # One that is a whole declared title (the JSON-LD headline) is the headline all the same.
    first_words = _words(declared[0]) if declared else set()
    for text, h in header_h1s if best_overlap < _H1_AGREEMENT else ():
        words = _words(text)
        overlap = len(words & first_words) / len(words) if words else 0.0
        if _key(text) in declared_keys:
            overlap = 1.0
        if overlap >= _H1_HEADER_AGREEMENT and overlap > best_overlap:
            best, best_overlap = (text, h), overlap
    heading = None
    if best is not None and best_overlap >= _H1_AGREEMENT:
        heading = best
    elif len(h1s) == 1 and (not declared or best_overlap >= _H1_SOLE_AGREEMENT):
        heading = h1s[0]
    # A home page names itself "Brand – what it does" or "Brand: what it does": the brand is
    # part of that name. Only a repeated site name at the end, or a brand before a pipe, is cut.
    home = _is_home(url)
    names = []
    for d, s in zip(declared, stripped, strict=True):
        if home:
            s = _strip_site(d, sites, False)
        elif (hostless := _strip_host(d, url)) != d:
            s = _strip_site(hostless, sites, headings=headings)
        if t := _cut_descriptors(_rstrip_glyphs(s)):
            names.append(t)
    # og:title is sometimes only the site's name ("Robomow") while <title> names the page.
    named = next((t for t in names if not _is_site(t, sites)), None)
    slug = _slug_words(c.canonical or _first(c.metas, ("og:url",)) or url) if (
        h1s or header_h1s) else set()
    slugged = _slug_heading(slug, h1s + header_h1s, named or (names[0] if names else None))
    if slugged is not None:
        return _cut_descriptors(slugged)
    if heading is None:
        # Declared titles that only name the site say nothing of the page: its only <h1> does.
        if named is None and len(h1s) == 1:
            return _cut_descriptors(h1s[0][0])
        named = named or (names[0] if names else None)
        if named and not home and (shown := _shown_piece(root, named)):
            return shown
        return named or (_cut_descriptors(h1s[0][0]) if h1s else None)
    named = named or (names[0] if names else None)
    text = _cut_descriptors(heading[0])
    # The URL's slug made from the <h1> says the <h1> names this page, not its book.
    page_part = None if len(slug) >= 2 and slug <= _slug_words_of(text) else (
        _part_before_heading(c.title, text, sites))
    if page_part:
        return page_part
    # "Thread: <title>", "Blog: <title>", "<Product line> <title>": an <h1> that only puts a
    # label or kicker before the whole declared title shows that title with a lead-in.
    if named and _WORD.search(named) and len(_words(named)) >= 2:
        k, n = _key(text), _key(named)
        if k != n and k.endswith(n):
            return named
    # "8 Recent Trends in Photography" declared, "Recent Trends in Photography" in the <h1>:
    # a declared title that only adds numbers (a count, a year) is the same headline with
    # what the theme's shorter <h1> leaves out.
    if named and _adds_only_numbers(named, text):
        return named
    # A page that calls itself a generic web page (schema.org WebPage, og:type website), with
    # its <h1> outside any <article>, is a landing page: its <h1> is a hero line ("One
    # workspace. Zero busywork.") and the declared title names the page. An <h1> that only
    # shortens or lengthens the declared title, or changes its numbers (a year the page was
    # updated to, the meta tags were not), is still the headline.
    if (named and not named.endswith(_ELLIPSES) and _page_type(c, ld) in _GENERIC_PAGE_TYPES
            and not any(a.tag == "article" for a in heading[1].iterancestors())):
        k, n = _key(_DIGITS.sub("", text)), _key(_DIGITS.sub("", named))
        if k not in n and n not in k:
            return named
    credit = _lines_after_titles(_inline_lines(heading[1]), declared_words)
    if credit and text.endswith(credit) and len(credit) < len(text):
        return text[: -len(credit)].rstrip()
    return text


def _adds_only_numbers(longer: str, shorter: str) -> bool:
    k, n = _key(shorter), _key(longer)
    return (k != n and _DIGITS.sub("", k) == _DIGITS.sub("", n)
            and set(_DIGITS.findall(shorter)) <= set(_DIGITS.findall(longer)))


def _part_before_heading(title: str | None, heading: str, sites: list[str]) -> str | None:
    """``Page - Book`` in <title> with an <h1> that is ``Book``: the <h1> is the name of the
    book, manual or forum the page belongs to (documentation themes print it on every page),
    and the part before it names this page. Not when that part is itself the site's name
    (``Site - Headline``), nor after a colon, which headlines use themselves."""
    title = readable(_clip(title, _MAX_TITLE))
    if not title:
        return None
    for sep in _TITLE_SEPARATORS:
        if sep != ": " and sep in title:
            head, _, tail = title.rpartition(sep)
            head = head.strip()
            if head and _key(tail) == _key(heading) and not _is_site(head, sites):
                return _strip_site(head, sites) or None
            return None
    return None


def _slug_words(url: str | None) -> set[str]:
    """Words of the URL's last path segment ("/2025/06/storm-hits-the-coast.html"), without
    tokens that mix letters and digits (ids such as "a1b2c3", "n-5xtnr")."""
    if not url:
        return set()
    segment = unquote(urlsplit(url).path).rstrip("/").rpartition("/")[2]
    segment = _EXTENSION.sub("", segment)
    return {w for w in _SLUG_WORD.findall(segment.casefold())
            if w.isdigit() or not any(map(str.isdigit, w))}


def _slug_heading(slug: set[str], h1s: list[tuple[str, etree._Element]],
                  named: str | None) -> str | None:
    """The <h1> that the URL's slug was made from, when the declared title has drifted from it.

    CMSs build the slug from the headline as first written; an SEO title is often rewritten
    later. An <h1> holding every word of a slug of two or more words, while the declared title
    holds clearly fewer of them, is the headline the page was published under."""
    if len(slug) < 2:
        return None
    declared_share = len(slug & _slug_words_of(named)) / len(slug) if named else 0.0
    if declared_share > 1.0 - _SLUG_MARGIN:
        return None
    return next((text for text, _ in h1s if slug <= _slug_words_of(text)), None)


def _slug_words_of(text: str) -> set[str]:
    """Words as a slug spells them: "Men's" is "mens"."""
    return set(_SLUG_WORD.findall(text.casefold().replace("'", "").replace("’", "")))


def _page_type(c: _Collected, ld: JsonLd | None) -> str:
    return (ld.type if ld else None) or (_first(c.metas, ("og:type",)) or "").strip().lower()


def _is_home(url: str | None) -> bool:
    if not url:
        return False
    parts = urlsplit(url)
    return bool(_hostname(url)) and parts.path in ("", "/") and not parts.query


def _cut_descriptors(title: str) -> str:
    """``Headline | Top 19 Companies`` to ``Headline``: a pipe is not punctuation a headline
    uses, so what follows it is a descriptor, a section or a site the page did not name."""
    for sep in _DESCRIPTOR_SEPARATORS:
        head = title.partition(sep)[0].strip()
        if head != title and _WORD.search(head):
            title = head
    return title


_CONNECTOR_LINE = re.compile(r"\n\s*(,|&|and|und|et|y|e|og|och|en|i|и|和|、)\s*\n", re.I)


_LINE = "\x00"  # a line break in a heading; no text node holds NUL


def _inline_text(el: etree._Element) -> str:
    """A heading's text as it renders, its lines read as one (see :func:`_inline_lines`)."""
    return " ".join(_inline_lines(el))


def _inline_lines(el: etree._Element) -> list[str]:
    """A heading's lines as they render: inline pieces run on as the markup writes them
    ("Harvest <span>C</span>ycle", "Acme<sup>®</sup>"), and a block element or ``<br>`` breaks
    the line. Where the markup runs a word into a capitalised word or a bracket ("Night
    Edition<span>Complete meal</span>", "Equipment<span>(102+)</span>"), a style lays them
    apart, so they are read apart too; a single letter before is a drop cap. No space before
    punctuation that closes a phrase ("<a>Metroid</a> , One")."""
    out = ""
    for piece in _heading_pieces(_spoken_heading(el)):
        if piece is None:
            out += _LINE  # not "\n": the source's own newlines are spaces
            continue
        piece = piece.translate(_INVISIBLE)
        head = piece.lstrip()[:1]
        if not head:
            out += piece
        elif head in _CLOSING:
            out, piece = out.rstrip().rstrip(_LINE).rstrip(), piece.lstrip()
        elif (head == piece[:1] and out[-1:].isalnum() and (head.isupper() or head in "([{")
              and out[-2:-1].isalnum()):
            out += " "
        out += piece
    return [line for line in (" ".join(part.split()) for part in out.split(_LINE)) if line]


_ARIA_HIDDEN = etree.XPath(".//*[@aria-hidden='true']")


def _spoken_heading(el: etree._Element) -> etree._Element:
    """A heading that animates its words in parts hidden from screen readers ("The product",
    "development", ... in ``aria-hidden`` spans, shown per breakpoint) and says the headline
    once in screen-reader text: that text is the headline, the parts would read it twice."""
    hidden = "".join("".join(h.itertext()) for h in _ARIA_HIDDEN(el)).split()
    if not hidden:
        return el
    hidden_letters = "".join(hidden).casefold()
    for child in el.iter():
        classes = (child.get("class") or "").lower().split()
        # Screen-reader classes as `clean` reads them ("usa-sr-only"), and CSS modules'
        # "utils_visuallyHidden__x1".
        if child is not el and any(c.endswith(SCREEN_READER_CLASSES) or "visuallyhidden" in c
                                   for c in classes):
            spoken = "".join("".join(child.itertext()).split()).casefold()
            if spoken and spoken in hidden_letters:
                return child
    return el


def _lines_after_titles(lines: list[str], declared_words: set[str]) -> str:
    """The lines of an <h1> after the last one a declared title shares a word with: a credit
    or a kicker the page sets under the headline in the same <h1> ("米朝首脳直通電話
    習氏に挑むトランプ戦術の成否" / "編集委員 中沢克二"); "" when there are none."""
    agree = [bool((_words(line) & declared_words) - _FUNCTION_WORDS) for line in lines]
    if len(lines) < 2 or not agree[0] or all(agree):
        return ""
    last = max(i for i, a in enumerate(agree) if a)
    after = lines[last + 1:]
    # A line that opens in lower case goes on with the headline ("... for teams" / "and agents").
    if after[0][:1].islower() or not any(_words(line) for line in after):
        return ""
    return " ".join(after)


def _heading_pieces(el: etree._Element) -> Iterator[str | None]:
    """The heading's text nodes, without the controls and code some themes put inside it
    (rustdoc's "Copy item path" <button>, inline <style>, <script>), a dateline <time>, a
    heading nested in it, ``hidden`` and ``aria-hidden`` elements (an icon's glyph, a count
    "(102+)"), label chips, comment counts (a bubble with "87" after a story's title) and
    the asides named by a class or id ("productSubtitle"); None where a block element or
    ``<br>`` breaks the line."""
    if el.text:
        yield el.text
    for child in el:
        classes = ((child.get("class") or "") + " " + (child.get("id") or "")).lower().split()
        if child.tag not in _HEADING_SKIP and not hides(child) and not (
                child.get("aria-hidden") == "true" or _HEADING_HIDDEN & set(classes)
                or any(part in c for c in classes for part in _HEADING_ASIDES)):
            block = child.tag in _BLOCK_TAGS
            if block:
                yield None
            yield from _heading_pieces(child)
            if block:
                yield None
        if child.tail:
            yield child.tail


_STYLED_OR_HIDDEN = etree.XPath(".//*[@hidden or @style]")


def _visible_strings(el: etree._Element) -> list[str]:
    """The texts of ``el`` a reader sees: a byline box may hide the outlet's name for search
    engines ("The Plain Dealer" in ``display:none``). ``el`` itself may be hidden: microdata
    kept out of sight still names the writer."""
    if any(map(hides, _STYLED_OR_HIDDEN(el))):
        el = deepcopy(el)
        for hidden in filter(hides, _STYLED_OR_HIDDEN(el)):
            for e in hidden.iter():
                e.text = None
                if e is not hidden:
                    e.tail = None
    return [s for t in el.itertext() if (s := t.strip())]


def _texts(el: etree._Element) -> str:
    return _lines(_visible_strings(el))


def _lines(strings: list[str]) -> str:
    """Text with a line between elements: ``<b>By</b><a>Jane</a>`` must not read "ByJane",
    and "Jane Doe" above "Updated 2 hours ago" must not become one name. A line that is only
    "and" or "," joins its neighbours back into one byline."""
    return _CONNECTOR_LINE.sub(r" \1 ", "\n".join(strings))


def _byline_texts(el: etree._Element) -> list[str]:
    """What an author-hinted element says, or, when it holds a whole author box (name, bio,
    links), its first few short lines: the name comes first in such boxes."""
    value = el.get("content")
    if value:
        return [value.strip()]
    names = _ITEMPROP_NAME(el)
    if names:
        return [" and ".join((n.get("content") or _texts(n)) for n in names[:10])]
    strings = _visible_strings(el)
    text = _lines(strings)
    if 0 < len(text) <= _MAX_BYLINE_TEXT:
        return [text]
    return [t for t in strings[:4] if len(t) <= _MAX_BYLINE_TEXT]


def _in_comments(el: etree._Element) -> bool:
    """Whether a byline candidate sits among comments or in page furniture. An ``<aside>``
    holds other articles' bylines (a sidebar of stories), except a ``rel="author"`` link: a
    page names its own writer so, and some lay the byline beside the text in an ``<aside>``
    (The Guardian's article meta column)."""
    aside_is_furniture = not _is_rel_author(el)
    for a in el.iterancestors():
        cls = (a.get("class") or "") + " " + (a.get("id") or "")
        if ("comment" in cls.lower() or a.tag in ("footer", "nav", "head")
                or (a.tag == "aside" and aside_is_furniture)):
            return True
    return False


def _is_rel_author(el: etree._Element) -> bool:
    rel = el.get("rel")
    return rel is not None and "author" in rel.lower().split()


def _is_byline(el: etree._Element) -> bool:
    """Called on ~190 elements around the headline: attributes are read only when present and
    the hints tested with ``in`` (no generator), 0.39 -> 0.30 ms median per page."""
    tag = el.tag
    if tag in _BYLINE_SKIP or not isinstance(tag, str):
        return False
    if _is_rel_author(el):
        return True
    if tag == "a":
        href = el.get("href")
        if href is not None and _AUTHOR_PAGE.search(href):
            return True
    prop = el.get("itemprop")
    if prop is not None and prop.lower() == "author":
        return True
    # React sites name their parts for tests, not styles: BBC's <div data-testid="byline">.
    cls, id_, test_id = el.get("class"), el.get("id"), el.get("data-testid")
    if cls is None and id_ is None and test_id is None:
        return False
    hint = f"{cls or ''} {id_ or ''} {test_id or ''}".lower()
    return ((("author" in hint or "byline" in hint or "writer" in hint
             or "contributor" in hint) and "authori" not in hint)  # authorization
            or (("aut" in hint or "yazar" in hint or "penulis" in hint)
                and _AUTHOR_CLASS_WORD.search(hint) is not None))


_AUTHOR_CLASS_WORD = re.compile(
    r"(?<![a-z])(?:autor(?:e|es|en|in|a|as)?|auteur|auteurs|yazar|penulis)(?![a-z])")
"""The author in other languages' class names ("autor", "autore", "auteur", Turkish "yazar",
Indonesian "penulis"), as a whole word: "autorefresh" and "autoresize" are not."""


# Walks from the headline, nearest first. XPath's following::/preceding:: axes read the whole
# rest of the document even when only the first few nodes are wanted; these stop early.

class _Text(str):
    """A text node's string, with the element that holds it (``getparent`` as in lxml)."""

    holder: etree._Element | None = None

    def getparent(self) -> etree._Element | None:
        return self.holder


def _text(text: str, holder: etree._Element | None) -> _Text:
    t = _Text(text)
    t.holder = holder
    return t


def _iter_after(el: etree._Element) -> Iterator[tuple[str, etree._Element | None]]:
    """Non-blank texts after ``el`` (not inside it) in document order, with their holders."""
    node: etree._Element | None = el
    while node is not None:
        parent = node.getparent()
        if node.tail and not node.tail.isspace():
            yield node.tail, parent
        for sib in node.itersiblings():
            yield from _iter_subtree(sib)
            if sib.tail and not sib.tail.isspace():
                yield sib.tail, parent
        node = parent


def _iter_subtree(el: etree._Element) -> Iterator[tuple[str, etree._Element | None]]:
    """Non-blank texts inside ``el`` (its own tail excluded), document order, with holders.
    Scripts, styles and SVG drawings are skipped whole: their text is never a byline."""
    stack: list[etree._Element] = []
    walker = etree.iterwalk(el, events=("start", "end"))
    for event, e in walker:
        if event == "start":
            tag = e.tag
            if not isinstance(tag, str) or tag in _OPAQUE:
                walker.skip_subtree()
                stack.append(e)  # its "end" still comes
                continue
            stack.append(e)
            text = e.text
            if text and not text.isspace():
                yield text, e
        else:
            stack.pop()
            tail = e.tail
            if stack and tail and not tail.isspace():
                yield tail, stack[-1]


class _Walk:
    """A walk away from the headline, read only as far as asked: the byline wants 25 texts,
    the date 60, and the second request continues where the first stopped."""

    __slots__ = ("rest", "texts")

    def __init__(self, walk: Iterator[tuple[str, etree._Element | None]]) -> None:
        self.texts: list[_Text] = []
        self.rest: Iterator[tuple[str, etree._Element | None]] | None = walk

    def first(self, n: int) -> list[_Text]:
        wanted = n - len(self.texts)
        if wanted > 0 and self.rest is not None:
            more = [_text(t, h) for t, h in islice(self.rest, wanted)]
            self.texts += more
            if len(more) < wanted:
                self.rest = None
        return self.texts[:n]


def _after_headline(c: _Collected, h1: etree._Element, n: int) -> list[_Text]:
    """The first ``n`` texts after the headline, walked once per page for byline and date."""
    if c.after is None:
        c.after = _Walk(_iter_after(h1))
    return c.after.first(n)


def _before_headline(c: _Collected, h1: etree._Element, n: int) -> list[_Text]:
    """The last ``n`` texts before the headline, nearest first, walked once per page."""
    if c.before is None:
        c.before = _Walk(_iter_before(h1))
    return c.before.first(n)


def _reversed_iter(el: etree._Element) -> Iterator[etree._Element]:
    """``reversed(list(el.iter()))`` without listing the whole subtree first: a walk back from
    the headline that wants a few texts must not read every link of a mega-menu above it."""
    stack = [(el, reversed(el))]
    while stack:
        node, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            yield node
        else:
            stack.append((child, reversed(child)))


def _iter_before(el: etree._Element) -> Iterator[tuple[str, etree._Element | None]]:
    """Non-blank texts before ``el`` (not inside it), nearest first, with their holders."""
    node: etree._Element | None = el
    while node is not None:
        parent = node.getparent()
        for sib in node.itersiblings(preceding=True):
            if sib.tail and not sib.tail.isspace():
                yield sib.tail, parent
            for e in _reversed_iter(sib):
                if e is not sib and e.tail and not e.tail.isspace():
                    yield e.tail, e.getparent()
                if e.text and isinstance(e.tag, str) and not e.text.isspace():
                    yield e.text, e
        if parent is not None and parent.text and not parent.text.isspace():
            yield parent.text, parent
        node = parent


def _bylines_after(el: etree._Element, limit: int) -> Iterator[etree._Element]:
    """The bylines (_is_byline) among the first ``limit`` elements after ``el``, in document
    order. One loop over lxml's element-only iterator, not a generator under islice and filter:
    the window is ~150 elements, each of which paid three Python layers."""
    node: etree._Element | None = el
    while node is not None:
        for sib in node.itersiblings():
            for e in sib.iter(etree.Element):
                if limit <= 0:
                    return
                limit -= 1
                if _is_byline(e):
                    yield e
        node = node.getparent()


def _iter_elements_before(el: etree._Element) -> Iterator[etree._Element]:
    """Elements before ``el``, nearest first (XPath's ``preceding::*``, which reads the whole
    start of the document for its first 40: 0.14 -> 0.08 ms median)."""
    node: etree._Element | None = el
    while node is not None:
        for sib in node.itersiblings(preceding=True):
            for e in _reversed_iter(sib):
                if isinstance(e.tag, str):
                    yield e
        node = node.getparent()


def _headline(root: etree._Element, c: _Collected) -> etree._Element | None:
    """The element bylines and dates are looked for around: the first <h1> with text, else
    (forum threads, some blogs) the first <h2> whose words are mostly in the declared title,
    else an empty <h1>. Found once per page and kept on ``c``."""
    if c.anchor is not False:
        return c.anchor  # type: ignore[return-value]
    found = next((h for h in c.h1s if len(_inline_text(h)) >= 3), None)
    if found is None:
        title_words = _words(" ".join(t for t in (c.title, _first(c.metas, _TITLE_KEYS)) if t))
        for h2 in islice(root.iter("h2"), _H2_SCAN):
            words = _words(_inline_text(h2))
            if words and len(words & title_words) >= _H2_AGREEMENT * len(words):
                found = h2
                break
    if found is None and c.h1s:
        found = c.h1s[0]  # an empty <h1> (filled in by script) still marks the headline's place
    c.anchor = found
    return found


def _dom_authors(root: etree._Element, c: _Collected) -> tuple[str, ...]:
    """Names from the byline closest to the headline (microdata authors count as bylines).

    With a headline, only a window of elements around it is looked at, in order of distance
    (below it first: that is where bylines sit); without one, the whole page.
    """
    h1 = _headline(root, c)
    candidates: Iterable[etree._Element]
    if h1 is not None and (starter := _thread_starter(c, h1)):
        return starter
    if h1 is not None:
        # Lazily: a byline found just below the headline spares the rest of both windows.
        after = _bylines_after(h1, _BYLINE_AFTER)
        before = filter(_is_byline, islice(_iter_elements_before(h1), _BYLINE_BEFORE))
        candidates = chain(islice(after, 6), islice(before, 3), c.author_els)
    else:
        candidates = c.author_els + _BYLINE(root)
    outlet: tuple[str, ...] = ()
    for el in islice(candidates, 12):
        if _in_comments(el):
            continue
        for text in _byline_texts(el):
            names = _byline_names(text.split("\n"))
            if names and all(_OUTLET_NAME.search(n) for n in names):
                outlet = outlet or names  # a source credit ("中国新闻网"): a writer's line wins
            elif names:
                return names
    return (_text_byline(root, c, h1) or outlet
            or _forum_poster(_elements_after(h1) if h1 is not None else root.iter(etree.Element)))


_MEMBER_PAGE = re.compile(
    r"memberlist\.php\?mode=viewprofile|member\.php\?(?:\d|(?:[^#]*&)?u=\d)|profile\.php\?id=\d"
    r"|[?;&]action=profile;u=\d|/members/[^/?#]+\.\d+/?(?:[?#]|$)", re.I)
"""A link to a forum member's profile: phpBB's ``memberlist.php?mode=viewprofile``,
vBulletin's ``member.php?u=``, FluxBB's ``profile.php?id=``, SMF's ``action=profile;u=``,
XenForo's ``/members/jane.123/``."""
_MEMBER_STAT = re.compile(r"(?i)\s*(?:join(?:ed)?(?:\s+date)?|registered|posts)\s*(?::|$)")
_POSTER_WINDOW = 300
_POSTER_GAP = 12
_STAT_CHARS = 40
"""A statistic is a label and a value ("Join Date: Mar 2016"), not a paragraph."""


def _forum_poster(elements: Iterator[etree._Element]) -> tuple[str, ...]:
    """The first post's writer on a classic forum (phpBB, vBulletin, FluxBB, SMF): a link to a
    member's profile followed, within a few elements, by the member's statistics ("Posts:",
    "Joined:", "Registered:", "Join Date"). Such a link alone is no byline: off forums it is
    an account or sign-up link (measured: +1 forum page, -2 articles)."""
    link, since = None, 0
    for el in islice(elements, _POSTER_WINDOW):
        if el.tag == "a" and _MEMBER_PAGE.search(el.get("href") or ""):
            link, since = el, 0
        elif link is not None:
            since += 1
            if since > _POSTER_GAP:
                link = None
            elif el.text and len(el.text) <= _STAT_CHARS and _MEMBER_STAT.match(el.text):
                return clean_authors([_TEXT_CONTENT(link)])
    return ()


def _elements_after(el: etree._Element) -> Iterator[etree._Element]:
    """Elements after ``el`` in document order (not its descendants)."""
    node: etree._Element | None = el
    while node is not None:
        for sib in node.itersiblings():
            yield from sib.iter(etree.Element)
        node = node.getparent()


_STARTER_LABEL = re.compile(r"(?i)(?:thread|topic)\s+(?:starter|author)|started\s+by")
_STARTER_BADGE = re.compile(r"(?i)discussion\s+starter")
_STARTER_TEXTS = 40
"""How far below a thread's title its starter is looked for (phpBB's author box comes after
the page's pagination): further down, "Started by" heads the similar threads' lines. The texts
are the walk from the headline that bylines and dates share."""


def _thread_starter(c: _Collected, h1: etree._Element) -> tuple[str, ...]:
    """A forum thread's author, as the engines label the opening post: "Thread starter" before
    the name (XenForo), "Topic author" (phpBB), "Started by" (vBulletin), or a "Discussion
    starter" badge after it. The bylines nearest the title can be replies' (their posts mark
    the writer with microdata or classes the opening post lacks)."""
    texts = [t.strip() for t in _after_headline(c, h1, _STARTER_TEXTS)]
    for i, text in enumerate(texts):
        if m := _STARTER_LABEL.fullmatch(text.rstrip(":： ")):
            name = texts[i + 1] if i + 1 < len(texts) else ""
        elif (m := _STARTER_LABEL.match(text)) and text[m.end():].strip(":： "):
            name = text[m.end():]
        elif _STARTER_BADGE.fullmatch(text) and i:
            name = texts[i - 1]
        else:
            continue
        return clean_authors([name])
    return ()


def _byline_names(lines: list[str]) -> tuple[str, ...]:
    """Names from the lines of a byline box. A line after "By" (or starting with it) names the
    writer; the lines before it are a kicker or a date ("Guide / by / Will Judd", "Post / by /
    galitsyn", "Originally published ... / By / April Fulton"). Without one, the first line
    that holds a name, unless a line of page text comes first ("Coming Soon!" / a product's
    name)."""
    for i, line in enumerate(lines):
        if (BY_ONLY.match(line) or AUTHOR_LABEL.match(line)) and i + 1 < len(lines):
            names = clean_authors([lines[i + 1]])
        elif i and (BY_PREFIX.match(line) or AUTHOR_LABELLED.match(line)):
            names = clean_authors([line])
        else:
            continue
        if names:
            return names
    for line in lines:
        names = clean_authors([line])
        if names:
            return names
        if names_nobody(line):
            return ()
    return ()


def _text_byline(root: etree._Element, c: _Collected,
                 h1: etree._Element | None) -> tuple[str, ...]:
    """A line that starts with "By" ("Von", "Par", "作者：" ...) just below the headline or just
    above it; failing that, a line labelled "Written by", "Author:", "Posted by" ... further down
    the article, where author boxes sit (comments, navigation and the page footer skipped)."""
    # Chinese, Japanese and Korean credit lines are looked for only on a page whose <title> or
    # headline is written in Han, kana or Hangul: scanning every page's texts cost 0.6 ms.
    cjk = bool(_CJK_CHAR.search(c.title or "")) or (
        h1 is not None and bool(_CJK_CHAR.search(_TEXT_CONTENT(h1))))
    if h1 is None:
        return _cjk_byline(_strings_down(root, c, h1)) if cjk else ()
    return (_labelled_byline(_after_headline(c, h1, _BYLINE_TEXTS), near=True)
            or _labelled_byline(_before_headline(c, h1, _BYLINE_TEXTS_BEFORE)[::-1], near=True)
            or _far_byline(c, h1)
            or (_cjk_byline(_strings_below(c, h1)) if cjk else ()))


def _strings_down(root: etree._Element, c: _Collected, h1: etree._Element | None) -> list[str]:
    """The ~400 texts below the headline, or from the top of the body on a page without one."""
    if h1 is not None:
        return _strings_below(c, h1)
    if c.below is None:
        c.below = _BODY_STRINGS(root, n=_FAR_TEXTS)
    return c.below


def _cjk_byline(strings: list[str]) -> tuple[str, ...]:
    """A Chinese or Japanese credit line ("记者 张三", "（张三 上海报道）", "作者：张三"), under
    the headline or at the article's end, where such pages put it; on old table layouts without
    an <h1>, anywhere from the top. A credit's label may stand alone with the names in the next
    text ("本报记者" / "张三 李四"), so up to four texts are read as one line.

    One scan of the joined texts for credit words finds the few texts worth parsing."""
    joined = "\0".join(strings)
    tries = 0
    for m in _CJK_CREDIT_HINT.finditer(joined):
        i = joined.count("\0", 0, m.start())
        tries += 1
        if tries > _CJK_CREDIT_TRIES:
            break
        text = strings[i]
        # A long text is a credit only in a closing bracket, or as a Korean story's opening
        # dateline: "(서울=연합뉴스) 홍길동 기자 = ...".
        if (len(text) > _MAX_BYLINE_TEXT and not text.rstrip().endswith(("）", ")"))
                and "=" not in text[:_KO_DATELINE]):
            continue
        credit = cjk_credit(text)
        if credit is None and CJK_CREDIT_LEAD.fullmatch(text.strip()):
            for n in (4, 2):
                credit = cjk_credit(" ".join(s.strip() for s in strings[i:i + n]))
                if credit:
                    break
        if credit:
            names = clean_authors([credit])
            if names:
                return names
    return ()


def _strings_below(c: _Collected, h1: etree._Element) -> list[str]:
    """The ~400 texts below the headline as plain strings, read once for byline and date."""
    if c.below is None:
        c.below = _following_strings(h1, _FAR_TEXTS)
    return c.below


def _following_strings(el: etree._Element, n: int) -> list[str]:
    """The first ``n`` non-blank texts after ``el`` as plain strings: ``_FOLLOWING_TEXTS``
    without the element objects, so an index into one is an index into the other.

    All the texts to the end of the document are fetched without a predicate and the first
    ``n`` non-blank ones picked here: libxml2 cannot stop an axis early at ``position() <= n``
    (only at a literal ``[n]``), so any predicate is evaluated on every text to the end, and
    that costs more than turning them all into strings (0.13 -> 0.06 ms median on WCXB pages).
    """
    return list(islice((t for t in _FOLLOWING_ALL(el) if t.strip(_XPATH_SPACE)), n))


def _far_byline(c: _Collected, h1: etree._Element) -> tuple[str, ...]:
    """A labelled byline ("Written by", "Author:") in the ~400 texts below the headline. They
    are read as plain strings (one XPath call, no element objects); only at a line that starts
    like a label are the next few texts fetched with their elements."""
    strings = _strings_below(c, h1)
    # One search over the texts joined by NUL (no text holds one, and it is neither a space
    # nor a label letter, so a match cannot straddle two texts) instead of a match per text.
    joined = "\0" + "\0".join(strings)
    tries = 0
    for m in _LABEL_STARTS.finditer(joined):
        i = joined.count("\0", 0, m.start())
        if len(strings[i]) <= _MAX_BYLINE_TEXT:
            texts = _FOLLOWING_TEXTS(h1, n=i + _LABEL_LOOKAHEAD)[i:]
            names = _labelled_byline(texts, near=False)
            tries += 1
            if names or tries >= _LABEL_TRIES:
                return names
    return ()


def _labelled_byline(texts: list, near: bool) -> tuple[str, ...]:  # noqa: C901
    # Neither a label nor the name after it is a <style>'s or a <script>'s text (CSS-in-JS
    # puts <style> in the body, right after an "Authors" heading).
    texts = [t for t in texts if len(t) <= _MAX_BYLINE_TEXT and (
        (holder := t.getparent()) is not None and holder.tag not in _SKIP_TEXT_PARENTS)]
    for i, text in enumerate(texts):
        parent = text.getparent()
        label_only = AUTHOR_LABEL.match(text) or (near and BY_ONLY.match(text))
        if label_only and i + 1 < len(texts):
            line = texts[i + 1]
            # "<a>Jane Doe</a> and <a>John Roe</a>": names joined by a connector line
            j = i + 2
            while j + 1 < len(texts) and texts[j].strip().lower() in _CONNECTORS:
                line += f" {texts[j].strip()} {texts[j + 1]}"
                j += 2
        elif m := AUTHOR_LABELLED.match(text):
            line = text[m.end():]
        elif near and BY_PREFIX.match(text) and not _BY_GERUND.match(text):
            line = text
        else:
            continue
        if _outside_article(parent, bool(label_only), near):
            continue
        names = clean_authors([line])
        if names:
            return names
    return ()


def _outside_article(el: etree._Element, cell: bool, near: bool) -> bool:
    """In a form ("By submitting ...", a review form's "Author" field); unless ``near`` the
    headline, also in comments, navigation or the page's own footer (a footer inside an article
    is the article's, and often holds its author box), and with ``cell`` in a table or
    definition list: an "Author" cell there (an infobox, a book's details) is about the subject.
    """
    in_article = False
    for a in el.iterancestors():
        if a.tag in ("form", "fieldset", "button", "label"):
            return True
        if near:
            continue
        if cell and a.tag in ("table", "dl"):
            return True
        if a.tag in ("article", "main"):
            in_article = True
        cls = (a.get("class") or "") + " " + (a.get("id") or "")
        if "comment" in cls.lower() or a.tag in ("nav", "head") or (
                a.tag == "footer" and not in_article):
            return True
    return False


def _times_by_headline(c: _Collected, h1: etree._Element | None) -> list[etree._Element]:
    """The ``<time>``s to date a page by, in order: one marked as the publication's
    (``pubdate``, ``class=*publish*``, itemprop ``datePublished``), then one in the byline just
    under or just above the headline, then any other that is not above the headline; not one
    labelled as an update, which dates the page only after the printed dates (_published)."""
    times = [t for t in c.times if (t.get("pubdate") is not None
             or "publish" in (t.get("class") or "").lower()
             or (t.get("itemprop") or "").lower() == "datepublished") and not _in_reply(t)]
    if h1 is not None and len(c.times) > len(times):
        near = chain(_after_headline(c, h1, _BYLINE_DATE_TEXTS),
                     _before_headline(c, h1, _BYLINE_TEXTS_BEFORE))
        times += [p for t in near if (p := t.getparent()) is not None and p.tag == "time"]
    return [t for t in times + [t for t in c.times if not _above(t, h1)]
            if not _labelled_time_update(t)]


def _labelled_time_update(time: etree._Element) -> bool:
    """A ``<time>`` that an update label stands just before ("<span>Updated</span> <time>"):
    the page's update, not its publication."""
    previous = time.getprevious()
    if previous is None:
        parent = time.getparent()
        before = parent.text if parent is not None else None
    elif previous.tail and not previous.tail.isspace():
        before = previous.tail
    else:
        # a label element's own text ("<span>Updated</span>"): not a whole block's string
        before = previous.text if len(previous) == 0 else None
    return bool(before) and len(before) <= 40 and _UPDATED.search(before) is not None


def _above(el: etree._Element, h1: etree._Element | None) -> bool:
    """On a source line before the headline's: a header's clock, a sidebar's list of posts.
    (A page minified onto one line keeps plain document order.)"""
    line = h1.sourceline if h1 is not None else None
    return bool(line and el.sourceline and el.sourceline < line)


def _time_date(c: _Collected, url: str | None, times: list[etree._Element]) -> str | None:
    """The date of the first of ``times`` that gives one."""
    for el in times:
        value = el.get("datetime") or _TEXT_CONTENT(el)
        date = parse_date(value)
        if date:
            return _day_month(c, url, value, date)
    return None


def _day_month(c: _Collected, url: str | None, text: str, date: str) -> str:
    """``date`` as read from ``text``, or the other reading of an ambiguous numeric date
    (02-12-2025, 03/10/2023) when only that one is among the page's unambiguous dates: an ISO
    ``<time datetime>`` or the day its URL spells."""
    other = swapped_date(text, date)
    if other is None:
        return date
    days = {v[:10] for t in c.times if _ISO_DAY.match(v := t.get("datetime") or "")}
    days.add(url_date(url) or "")
    return other if other in days and date[:10] not in days else date


@dataclass(frozen=True, slots=True)
class _Shown:
    """A date printed next to the headline, and whether it is labelled as an update."""

    date: str
    updated: bool


def _short_dates(texts: list) -> Iterator[tuple[int, str, str]]:
    """``(index, text, date)`` for each text short enough to be a date line that parses as a
    date; the year test first spares the date parser most texts."""
    for i, text in enumerate(texts):
        if (len(text) <= _DATE_TEXT_MAX or len(text.strip()) <= _DATE_TEXT_MAX) and _has_year(
                text):
            date = parse_date(text) or _line_date(text)
            if date:
                yield i, text, date


def _line_date(text: str) -> str | None:
    """The first date of a line that holds more than one, which the date parser refuses: the
    part before an update label ("March 5, 2024 · Updated March 6, 2024", "Published: 05.03.2024,
    updated: 06.03.2024"); a line of several labelled fields ("作者： 来源： 发布日期： 9/17/2004
    5:54:13 AM", "Author: X · Published: DATE") read from its last date label on."""
    update = _UPDATED.search(text)
    if update and _has_year(text[:update.start()]):
        text = text[:update.start()].rstrip(_LINE_PUNCTUATION)
        if date := parse_date(text):
            return date
    if ":" in text or "：" in text:
        labels = list(_DATE_LABEL.finditer(text))
        if labels and labels[-1].start() and _has_year(text, labels[-1].end()):
            return parse_date(text[labels[-1].end():])
    return None


def _date_label(text: str, previous: str) -> str:
    """A date's text with its label: the label may be its own node just before it ("<span>
    Updated</span> <time>..."), a short text without a year."""
    return text if _has_year(previous) or len(previous) > 40 else text + " " + previous


def _shown_date(c: _Collected, h1: etree._Element | None, url: str | None = None,
                n_after: int = _TEXT_WINDOW_AFTER, n_before: int = _TEXT_WINDOW_BEFORE,
                ) -> _Shown | None:
    """A date written out next to the headline ("Published March 5, 2024"), as a reader sees it.

    Texts right below the headline come first, then the few just above it; a date labelled as
    an update is used only when no other date is there.
    """
    if h1 is None:
        return None
    updated: _Shown | None = None
    after = _after_headline(c, h1, n_after)
    texts = after + _before_headline(c, h1, n_before) if n_before else after
    for i, text, date in _short_dates(texts):
        parent = text.getparent()
        if parent is not None and parent.tag in _SKIP_TEXT_PARENTS:
            continue
        label = _date_label(text, texts[i - 1] if 0 < i <= len(after) else "")
        if _NOT_PUBLISHED.search(label):
            continue  # a member's join date on a forum, an event's date
        if _labelled_update(text, label):
            updated = updated or _Shown(_day_month(c, url, text, date), True)
            continue
        return _Shown(_day_month(c, url, text, date), False)
    return updated


def _printed_update(root: etree._Element, c: _Collected, url: str | None,
                    published: str | None) -> str | None:
    """The update date printed in the byline area under the headline ("Updated March 6, 2024",
    "<span>Updated</span> <time>…", "March 5, 2024 · Updated March 6, 2024"), for a page that
    declares none; not one before the publication. The texts are read as plain strings, and
    parsed only when an update label is among them: most pages have none."""
    h1 = _headline(root, c)
    if h1 is None:
        return None
    strings = _byline_strings(c, h1)
    # only lines short enough to be a date's or its label's are searched (prose, a script's
    # text, is not)
    short = "\0".join(t for t in strings
                       if len(t) <= _DATE_TEXT_MAX or len(t.strip()) <= _DATE_TEXT_MAX)
    if _UPDATED.search(short) is None:
        return None
    for i, text in enumerate(strings):
        if len(text.strip()) > _DATE_TEXT_MAX:
            continue
        label = _date_label(text, strings[i - 1] if i else "")
        update = _UPDATED.search(label)
        if update is None or _NOT_PUBLISHED.search(label):
            continue
        # the label in the text itself: the date after it (a publication may come before it)
        dated = text[update.end():] if update.start() < len(text) else text
        if not _has_year(dated) or not (date := parse_date(dated)):
            continue
        date = _day_month(c, url, dated, date)
        return None if published and date[:10] < published[:10] else date
    return None


def _labelled_update(text: str, label: str) -> bool:
    """Whether the date ``text`` gives is labelled as an update: by a label before it, or in
    the node before; not by one that follows it on the same line ("입력 2024.11.22 10:15 수정
    2024.11.23", "March 5, 2024 · Updated March 6"), whose first date is the publication's."""
    m = _UPDATED.search(text)
    if m is None:
        return label != text and _UPDATED.search(label, len(text)) is not None
    return not any(ch.isdigit() for ch in text[: m.start()])


def _update_or_caption(el: etree._Element | None) -> bool:
    """The element or one of its near ancestors is a caption or is classed as an update date
    ("updated", "modified", "date-modified")."""
    for _ in range(4):
        if el is None:
            return False
        if el.tag in ("figure", "figcaption", "caption"):
            return True
        cls = (el.get("class") or "").lower()
        if "updat" in cls or "modif" in cls or "caption" in cls:
            return True
        el = el.getparent()
    return False


def _same_day_swapped(a: str, b: str) -> bool:
    """``a`` is ``b`` with day and month read the other way round (09.10.2024 vs 2024-09-10)."""
    return a[:4] == b[:4] and a[5:7] == b[8:10] and a[8:10] == b[5:7]


def _days_apart(a: str, b: str) -> int:
    return abs((calendar_date.fromisoformat(a[:10]) - calendar_date.fromisoformat(b[:10])).days)


def _same_instant_day(day: str, declared: str) -> bool:
    """``day`` may be the declared moment's day in another time zone: a day off a declared
    timestamp with an offset only when some zone (UTC-12 to UTC+14) puts the moment on that
    day (2025-11-13T22:47Z is the 13th or the 14th, never the 12th); a day either way when the
    declaration gives no offset."""
    span = zone_days(declared)
    if span is None:
        return _days_apart(day, declared) <= 1
    return span[0] <= calendar_date.fromisoformat(day[:10]) <= span[1]


def _byline_override(c: _Collected, h1: etree._Element, declared: str,
                     modified: str | None) -> str | None:
    """The date printed in the byline area when it overrules the declared one (see
    _published). The texts are read as plain strings; the element behind a date is fetched
    only when that date would overrule, to check it is not a script's, a caption's or one
    classed as an update."""
    strings = _byline_strings(c, h1)
    for i, text, date in _short_dates(strings):
        label = _date_label(text, strings[i - 1] if i else "")
        if _NOT_PUBLISHED.search(label) or _labelled_update(text, label):
            continue
        if (len(text.strip()) > _BYLINE_DATE_LEN or date[:10] == declared[:10]
                or (modified and date[:10] == modified[:10])
                or _same_instant_day(date, declared) or _same_day_swapped(date, declared)):
            return None
        node = next((t for t in _after_headline(c, h1, _BYLINE_DATE_TEXTS) if t == text), None)
        parent = node.getparent() if node is not None else None
        if parent is None or parent.tag in _SKIP_TEXT_PARENTS:
            continue
        return None if _update_or_caption(parent) else date
    return None


def _byline_strings(c: _Collected, h1: etree._Element) -> list[str]:
    """The first texts after the headline, where a byline prints its dates; read once for the
    three readers of printed dates that need them."""
    if c.byline is None:
        c.byline = _strings_after(h1, _BYLINE_DATE_TEXTS)
    return c.byline


def _strings_after(el: etree._Element, limit: int) -> list[str]:
    """The first ``limit`` non-blank texts after ``el`` as plain strings (script text included),
    read by lxml's C iterator: no element objects."""
    out: list[str] = []
    node: etree._Element | None = el
    while node is not None:
        tail = node.tail
        if tail and not tail.isspace():
            out.append(tail)
        for sib in node.itersiblings():
            if isinstance(sib.tag, str):
                for t in sib.itertext():
                    if not t.isspace():
                        out.append(t)
                        if len(out) >= limit:
                            return out[:limit]
            tail = sib.tail
            if tail and not tail.isspace():
                out.append(tail)
        node = node.getparent()
    return out[:limit]


def _published(root: etree._Element, c: _Collected, ld: JsonLd | None, url: str | None,
               modified: str | None) -> str | None:
    """The declared publication date, unless the byline under the headline prints another one
    that is neither the declared modification date nor the same day in another time zone or
    day/month order: then the declared date is a CMS's (an import, a re-save) and the printed
    one is the date readers see. Two declarations that disagree are settled by the printed
    date. Without a declared date: a marked or byline <time>, the printed date, any other
    <time>, URL, a labelled date further down, modified."""
    declared = _date([ld.published if ld else None,
                      *[v for k in _PUBLISHED_KEYS for v in c.metas.get(k, ())]])
    h1 = _headline(root, c)
    if not declared:
        declared = _date([v for k, values in c.metas.items() if _publication_name(k)
                          for v in values])
    if not declared:
        declared = _date([*[v for k in _GENERIC_DATE_KEYS for v in c.metas.get(k, ())],
                          *[v for k, values in c.metas.items() if k.endswith("date")
                            and k not in _GENERIC_DATE_KEYS and _NAMESPACED_DATE.match(k)
                            for v in values]])
        shown = _shown_date(c, h1, url) if declared else None
        if shown and not shown.updated:
            return shown.date
    if declared and h1 is not None:
        declared = _printed_declaration(c, ld, h1, declared)
    if declared:
        # A URL dated one day off the declared date: the CMS wrote the URL on the site's own
        # clock, the declared timestamp in UTC ("/2025/12/18/" and 2025-12-19T02:41Z).
        day = url_date(url)
        if day and _days_apart(day, declared) == 1:
            return day
        # A <time> on the page that shows the declared day: nothing to overrule.
        if any((t.get("datetime") or "")[:10] == declared[:10] for t in c.times[:_TIME_SCAN]):
            return declared
        return (_byline_override(c, h1, declared, modified) if h1 is not None else None) or declared
    time = _post_timestamp(h1) or _time_date(c, url, _times_by_headline(c, h1))
    if time:
        return time
    shown = _shown_date(c, h1, url)
    return ((shown.date if shown else None)
            or _time_date(c, url, [t for t in c.times if _labelled_time_update(t)])
            or _time_date(c, url, [t for t in c.times if _above(t, h1)])
            or url_date(url) or _far_date(root, c, h1) or modified)


def _post_timestamp(h1: etree._Element | None) -> str | None:
    """Reddit's post element (``<shreddit-post>``) holds the headline and its creation time in
    an attribute, ``created-timestamp``; the page prints only "2 mo. ago" and has no <time>."""
    for el in h1.iterancestors() if h1 is not None else ():
        if stamp := el.get("created-timestamp"):
            return parse_date(stamp)
    return None


def _printed_declaration(c: _Collected, ld: JsonLd | None, h1: etree._Element,
                         declared: str) -> str:
    """When the JSON-LD ``datePublished`` and the first publication meta tag disagree (2018 in
    one, 2025 in the other), the one the byline under the headline prints, with whatever
    label: the page stands by the date it shows. (Microdata ``datePublished``, repeated once
    per post on a forum thread, is not a second declaration.)"""
    meta = next((c.metas[k][0] for k in _PUBLISHED_KEYS if k != "datepublished" and k in c.metas),
                None)
    if ld is None or not ld.published or meta is None:
        return declared
    dates = [d for v in (ld.published, meta) if (d := parse_date(v))]
    if len(dates) < 2 or _same_instant_day(dates[1], dates[0]):
        return declared
    first_printed = next(_short_dates(_byline_strings(c, h1)), None)
    if first_printed is None:
        return declared
    return next((d for d in dates if d[:10] == first_printed[2][:10]), declared)


def _publication_name(key: str) -> bool:
    """A meta name not in _PUBLISHED_KEYS that names the publication date (_PUBLISHED_NAME)."""
    if "pub" not in key:
        return False
    key = _NON_ALNUM.sub("", key)
    return bool(_PUBLISHED_NAME.search(key)) and not _NOT_PUBLISHED_NAME.search(key)


def _far_date(root: etree._Element, c: _Collected, h1: etree._Element | None) -> str | None:
    """A labelled date further down ("Posted on April 13, 2023" under the article, "Published
    On:" in a footer line), or one in an element classed as a date; below the headline, or from
    the top of the body on a page without one (a forum thread's first post). Read as plain
    strings; the element is fetched only for a text that parses as a date."""
    strings = _strings_down(root, c, h1)
    texts: list | None = None
    tries = 0
    for i, t, date in _short_dates(strings):
        tries += 1
        if tries > _FAR_DATE_TRIES:
            return None  # a list of dated items (archives, comments): none is the page's
        if texts is None:
            texts = (_FOLLOWING_TEXTS(h1, n=len(strings)) if h1 is not None
                     else _BODY_TEXTS(root, n=len(strings)))
        if len(texts) <= i:
            return None
        holder = texts[i].getparent()
        if holder is None or holder.tag in _SKIP_TEXT_PARENTS or _outside_article(
                holder, False, False):
            continue
        label = t if i == 0 or len(strings[i - 1]) > 40 else strings[i - 1] + " " + t
        if _NOT_PUBLISHED.search(label):
            continue
        if _DATE_LABEL.search(label) or _date_classed(holder) or _CJK_STAMP.search(t) or (
                h1 is not None and _after_byline(strings, i)):
            return date
    return None


def _after_byline(strings: list[str], i: int) -> bool:
    """The date follows a labelled byline ("Written by" / "Jane Doe" / "April 8, 2024") below
    the headline: it is the article's date, as a reader takes it."""
    return any(AUTHOR_LABEL.match(t) or AUTHOR_LABELLED.match(t) or BY_PREFIX.match(t)
               or BY_ONLY.match(t) for t in strings[max(0, i - 2):i])


def _date_classed(el: etree._Element) -> bool:
    for a in (el, el.getparent()):
        if a is None:
            return False
        cls = ((a.get("class") or "") + " " + (a.get("id") or "")).lower()
        if any(h in cls for h in _NOT_DATE_HINTS):
            return False
        if a.tag == "time" or any(h in cls for h in _DATE_HINTS):
            return True
    return False


def _language(root: etree._Element, c: _Collected, ld: JsonLd | None) -> str | None:
    html_el = root if root.tag == "html" else root.find(".//html")
    values = []
    if html_el is not None:
        values += [html_el.get("lang"), html_el.get("xml:lang")]
    values += [_first(c.metas, _LANGUAGE_KEYS), ld.language if ld else None]
    for value in values:
        tag = normalise_language(value)
        if tag:
            return tag
    return None


def normalise_language(value: str | None) -> str | None:
    """``en_us``/``EN-us`` to BCP 47 ``en-US``; None for what is not a language tag."""
    if not value:
        return None
    value = value.strip().split(",")[0].strip().replace("_", "-")
    if not _LANG_TAG.match(value) or value.lower() in ("und", "xx", "x-default"):
        return None
    parts = value.split("-")
    out = [parts[0].lower()]
    for part in parts[1:]:
        if len(part) == 2 or (len(part) == 3 and part.isdigit()):
            out.append(part.upper())
        elif len(part) == 4 and part.isalpha():
            out.append(part.title())
        else:
            out.append(part.lower())
    return "-".join(out)


_TAG_SEPARATORS = re.compile(r"[,;，；、]")
_TAG_FIELD = re.compile(r"([A-Za-z][A-Za-z-]*):(?:(\S)|\s)")
"""A CMS's fields written into its keywords ("displayType: listicle", "contentId: 15cd…",
Medium's "Lite:true", "Tag:Nodejs"): a key, a colon, and no space or a lower-case-initial key."""


def _tag_value(tag: str) -> str | None:
    """The tag a keyword names: a field's value when the field is a tag ("Tag:Nodejs"), nothing
    for other fields; a topic with a colon ("Brexit: the deal", "Star Wars: Episode IV") stays."""
    m = _TAG_FIELD.match(tag)
    if m is None or not (m.group(2) or m.group(1)[0].islower()):
        return tag
    return tag[m.end(1) + 1:].strip() or None if m.group(1).lower() in ("tag", "topic") else None


def _tags(c: _Collected, ld: JsonLd | None) -> tuple[str, ...]:
    # A lone value is often the whole list ("a, b", "a; b", Chinese "甲，乙、丙"), and so is
    # each keywords meta; one of several article:tag values or JSON-LD keywords is one tag
    # ("Mergers, Acquisitions and Divestitures"). Some CMSs escape tags twice ("M&amp;A").
    raw = list(c.metas.get("article:tag", ()))
    if not raw and ld and ld.keywords:
        raw = ld.keywords
    whole_lists = len(raw) == 1
    if not raw:
        for key in _TAG_KEYS[1:]:
            if key in c.metas:
                raw, whole_lists = c.metas[key], True
                break
    values = [readable(v) or "" for v in raw]
    if whole_lists:
        values = [t for v in values for t in _TAG_SEPARATORS.split(v)]
    out: list[str] = []
    seen: set[str] = set()
    for value in values:
        tag = _tag_value(" ".join(value.split()))
        if tag and len(tag) <= _MAX_TAG_LEN and tag.casefold() not in seen:
            seen.add(tag.casefold())
            out.append(tag)
        if len(out) >= _MAX_TAGS:
            break
    return tuple(out)


_GLUED_ORIGIN = re.compile(r"https?://[^/?#]+/?(?=https?://)", re.I)
_UNSAFE_URL_CHAR = re.compile(r"[\x00-\x20\"<>\\^`{|}\x7f]")


def _url_or_none(value: str | None, base: str | None) -> str | None:
    """An absolute URL as Scrapy writes a request's ("Reventals Logo.png" → "Reventals%20Logo
    .png", a non-ASCII path percent-encoded, the host in IDNA), so the item's ``url`` and its
    ``canonical_url`` compare as strings."""
    if not value:
        return None
    value = value.strip()
    if not value or value.startswith(("data:", "javascript:")) or len(value) > 2048:
        return None
    glued = _GLUED_ORIGIN.match(value)
    if glued:  # a CMS put the site's address before an absolute URL ("https://a.mehttps://cdn…")
        value = value[glued.end():]
    try:
        url = urljoin(base, value) if base else value
        # safe_url_string costs ~30 us a URL; most are already safe (ASCII, nothing to quote,
        # a lower-case host)
        end = url.find("/", url.find("//") + 2)
        origin = url[:end] if end > 0 else url
        if url.isascii() and not _UNSAFE_URL_CHAR.search(url) and origin.islower():
            return url
        return safe_url_string(url)
    except ValueError:
        return None


def _twitter_author(c: _Collected) -> list[str]:
    """``twitter:label1 = "Written by"`` with the name in ``twitter:data1`` (Yoast and others)."""
    for i in ("1", "2"):
        label = _first(c.metas, (f"twitter:label{i}",)) or ""
        if BY_PREFIX.match(label) or "author" in label.lower() or "written" in label.lower():
            data = _first(c.metas, (f"twitter:data{i}",))
            return [data] if data else []
    return []


def _names_site(name: str, sites: set[str]) -> bool:
    """The author is the site or its publisher, or a piece of its name ("USA" of "USA TODAY",
    "Clemson" of "Clemson News" once the cleaner has cut the role word)."""
    k = _key(name)
    return bool(k) and any(k == s or (len(k) >= 3 and k in s) for s in sites)


_OUTLET_NAME = re.compile(
    r"(?:网|網|日报|日報|晚报|晚報|时报|時報|新闻|新聞|通讯社|通訊社|新华社|新華社|电视台|電視台"
    r"|电台|電台|杂志|雜誌)$|^[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}$"
)
"""An outlet's name in an author field, not a person's: Chinese outlets end in 网 (site), 日报
(daily), 新闻 (news), 新华社 …; or a domain name ("example.com")."""


def _authors(root: etree._Element, c: _Collected, ld: JsonLd | None,
             site_name: str | None) -> tuple[str, ...]:
    """The first source that names someone; the site's own name is only a last resort, since
    many sites put it in ``author`` while the byline on the page names the writer."""
    sources: list[list[str]] = []
    if ld:
        sources.append(ld.authors)
    for key in _AUTHOR_KEYS:
        values = [v for v in c.metas.get(key, ()) if "://" not in v]
        if key in ("citation_author", "dc.creator", "dcterms.creator"):
            values = [invert_name(v) for v in values]
        if values:
            sources.append(values)
    sources.append(_twitter_author(c))
    sources.append(_item_author(c))
    sites = {_key(n) for n in (site_name, ld.publisher if ld else None) if n}
    fallback: tuple[str, ...] = ()
    for values in sources:
        names = clean_authors(values)
        if names and all(_names_site(n, sites) or _OUTLET_NAME.search(n) for n in names):
            fallback = fallback or names
        elif names:
            return names
    names = _dom_authors(root, c)
    if names:
        return names
    if fallback:
        return fallback
    # An organisation credited as the author (a company blog) is still the page's author.
    if ld and ld.author_orgs:
        return clean_authors(ld.author_orgs)
    return ()


def _date(values: list[str | None]) -> str | None:
    for value in values:
        date = parse_date(value)
        if date:
            return date
    return None


def extract_metadata(root: etree._Element, url: str | None = None) -> Metadata:
    """Read metadata from ``root`` (the uncleaned tree); never raises on malformed input.

    Each field is guarded on its own, so a source that trips one field (a number where a string
    was expected, a recursion in a bad tree) costs that field only.
    """
    try:
        c = _collect(root)
    except (ValueError, TypeError, etree.LxmlError):
        return Metadata()
    try:
        ld = read_jsonld(c.scripts)
    except (ValueError, TypeError, AttributeError, RecursionError):
        ld = None
    fields: dict[str, object] = {}

    def guarded(name: str, fn, *args) -> None:  # noqa: ANN001
        try:
            value = fn(*args)
        except (ValueError, TypeError, AttributeError, IndexError, KeyError, RecursionError,
                etree.LxmlError):
            return
        if value:
            fields[name] = value

    guarded("site_name", lambda: _site(
        _first(c.metas, _SITE_KEYS[:1]) or (ld.publisher if ld else None)
        or _first(c.metas, _SITE_KEYS[1:])))
    site_name = fields.get("site_name")
    guarded("title", _choose_title, root, c, ld, site_name, url)
    guarded("authors", _authors, root, c, ld, site_name)
    guarded("language", _language, root, c, ld)
    with page_language(fields.get("language")):  # type: ignore[arg-type]
        guarded("modified", lambda: _date([
            ld.modified if ld else None,
            *[v for k in _MODIFIED_KEYS for v in c.metas.get(k, ())],
        ]))
        # A page that shows only an update date is dated by it: it is the date readers see.
        guarded("published", _published, root, c, ld, url, fields.get("modified"))
        if "modified" not in fields:
            guarded("modified", _printed_update, root, c, url, fields.get("published"))
    guarded("description", lambda: _plain(
        (ld.description if ld else None) or _first(c.metas, _DESCRIPTION_KEYS)))
    guarded("image", lambda: _url_or_none(
        _first(c.metas, _IMAGE_KEYS) or (ld.image if ld else None)
        or _first(c.metas, ("image_src",)), url))
    guarded("tags", _tags, c, ld)
    guarded("section", lambda: next(filter(None, map(_section, (
        _first(c.metas, _SECTION_KEYS[:1]), ld.section if ld else None,
        _first(c.metas, _SECTION_KEYS[1:])))), None))
    guarded("canonical_url", lambda: _url_or_none(
        c.canonical or _first(c.metas, ("og:url",)) or (ld.url if ld else None), url))
    guarded("page_type", lambda: _page_type(c, ld) or None)
    guarded("article_body", lambda: ld.body if ld else None)
    return Metadata(**fields)  # type: ignore[arg-type]
