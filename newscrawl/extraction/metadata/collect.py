"""The one collecting pass over the raw tree, and the small text helpers every field uses.

``_collect`` reads the head's tags (meta, title, link, ld+json scripts), the <h1>s, <time>s and
microdata properties once per page into a ``_Collected``; each field's reader looks things up
there instead of searching the tree again. The meta keys per field live here, most trusted
first.
"""

from __future__ import annotations

import re
from collections import Counter
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, TypeVar
from urllib.parse import urlsplit

from lxml import etree

from newscrawl.extraction.compiled import CWALK
from newscrawl.extraction.decode import readable
from newscrawl.extraction.meta_jsonld import JsonLd
from newscrawl.extraction.text import letters_key

if TYPE_CHECKING:
    from newscrawl.extraction.metadata.walk import _Walk


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
_TEXT_CONTENT = etree.XPath("string()")
"""An element's text, descendants included: what lxml.html's ``text_content()`` runs."""
_CJK_CHAR = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3]")

_MAX_TEXT = 2000
_MAX_TITLE = 400
_H1_SCAN = 5

# Meta keys (property, name or itemprop, lower-cased) per field, most trusted first.
_TITLE_KEYS = ("og:title", "twitter:title", "headline", "sailthru.title", "parsely-title",
               "dc.title", "dcterms.title", "citation_title", "title", "fb_title", "rbtitle",
               "shareaholic:title")
_AUTHOR_KEYS = ("article:author", "author", "parsely-author", "dc.creator")
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
_GENERIC_DATE_KEYS = ("dc.date", "dcterms.date", "date", "datecreated", "created", "timestamp")
"""A date that does not say what of: often a record's or a build's. Read after the named
publication dates."""
_MODIFIED_KEYS = ("article:modified_time", "og:updated_time", "datemodified",
                  "article:modified", "dcterms.modified", "dc.date.modified", "last-modified",
                  "lastmod", "modified_time", "article.updated", "og:modified_time",
                  "og:article:modified_time", "article:modified_date", "article:post_modified",
                  "updated_time", "dc.modified", "lastmodified", "modificationdate", "bt:moddate",
                  "revision_date")
_DESCRIPTION_KEYS = ("og:description", "description")
_SITE_KEYS = ("og:site_name", "application-name", "apple-mobile-web-app-title", "twitter:site")
_IMAGE_KEYS = ("og:image", "twitter:image")
# Not "tags": of the eight pages in the three sets whose tags it would give, four hold an
# analytics tagger's labels ("foo,money,m_food"), record ids or the site's name.
_TAG_KEYS = ("article:tag", "news_keywords", "keywords", "parsely-tags", "sailthru.tags")
_SECTION_KEYS = ("article:section", "section", "parsely-section", "category", "articlesection")
_LANGUAGE_KEYS = ("content-language", "og:locale")
_WORD = re.compile(r"\w+")
_RDFA_PREFIX = re.compile(r"^(dc|dcterms):")


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


@lru_cache(maxsize=1024)
def _key(text: str) -> str:
    """Cached: the title rules key the same few pieces (the site's names, each side of each
    separator) a dozen times a page, and a regex substitution costs ~1 us a call."""
    return letters_key(text)


@lru_cache(maxsize=64)
def _hostname(url: str) -> str | None:
    """``urlsplit(url).hostname``, which re-parses the netloc on every read (~2 us); the
    title rules ask it of the page's URL three times."""
    return urlsplit(url).hostname


RULES: ContextVar[Counter[str] | None] = ContextVar("metadata_rules", default=None)
"""Where the page being read counts the rules that decided its fields; None unless a caller of
``extract_metadata`` asked for the counts."""
OFF: ContextVar[frozenset[str]] = ContextVar("metadata_rules_off", default=frozenset())
"""Rules switched off for the page being read (``extract_metadata(..., off=...)``), to ablate
them on pages they were not written for."""
_T = TypeVar("_T")


def on(rule: str) -> bool:
    """Whether ``rule`` may decide its field: not switched off."""
    return rule not in OFF.get()


def fired(rule: str) -> bool:
    """Count ``rule`` as having decided its field (a filter that dropped a value); True."""
    counts = RULES.get()
    if counts is not None:
        counts[rule] += 1
    return True


def first_declared(metas: dict[str, list[str]], keys: tuple[str, ...],
                   field: str) -> tuple[str, str] | None:
    """The first value of the first of ``keys`` that is not switched off, with its rule's name
    (``site_name.meta:og:site_name``): each meta key a field is read from is a rule."""
    for key in keys:
        rule = f"{field}.meta:{key}"
        if not on(rule):
            continue
        for value in metas.get(key, ()):
            if value:
                return rule, value
    return None


def decided(rule: str, value: _T) -> _T:
    """``value``, counted for ``rule`` when it is something: each rule is named ``field.rule``
    ("title.kicker_above") so that it can be weighed on pages it was not written for."""
    if value:
        counts = RULES.get()
        if counts is not None:
            counts[rule] += 1
    return value


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
    if CWALK is not None:
        tagged, props = CWALK.metadata_elements(root, _TAGS)
        for el in tagged:
            _take_tagged(c, el)
        props = [el for el in props if el.tag != "meta"]
    else:
        top = root.getroottree().getroot()
        for branch in (*reversed(list(top.itersiblings(preceding=True))), top,
                       *top.itersiblings()):
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


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.casefold()))


def _page_type(c: _Collected, ld: JsonLd | None) -> str:
    found = _page_type_declared(c, ld)
    return found[1] if found else ""


def _page_type_declared(c: _Collected, ld: JsonLd | None) -> tuple[str, str] | None:
    """(rule, type): JSON-LD's ``@type``, else og:type, lower-cased."""
    if ld and ld.type and on("page_type.jsonld"):
        return "page_type.jsonld", ld.type
    found = first_declared(c.metas, ("og:type",), "page_type")
    return (found[0], found[1].strip().lower()) if found else None
