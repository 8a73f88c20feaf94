"""The fields read straight from declarations with a little cleaning: language, description,
section, site name, tags, image and URLs.

Each source a field is read from, and each filter that drops or repairs a value, is a named
rule (``site_name.jsonld_publisher``, ``tags.meta:keywords``, ``section.placeholder``): counted
when it decides the field and switched off by ``extract_metadata(off=...)``, like the title's.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit

from lxml import etree
from w3lib.url import safe_url_string

from newscrawl.extraction.decode import readable
from newscrawl.extraction.meta_jsonld import JsonLd
from newscrawl.extraction.metadata.collect import (
    _DESCRIPTION_KEYS,
    _IMAGE_KEYS,
    _LANGUAGE_KEYS,
    _SECTION_KEYS,
    _SITE_KEYS,
    _TAG_KEYS,
    _Collected,
    _plain,
    decided,
    fired,
    first_declared,
    on,
)

_MAX_TAGS = 30
_MAX_TAG_LEN = 80
_LANG_TAG = re.compile(r"^[a-zA-Z]{2,3}(?:[-_][a-zA-Z0-9]{2,8})*$")


_SENTENCE_END = re.compile(r"[.!?]\s+[A-Z]")


def _section(value: str | None) -> str | None:
    """Sentences (a description filed as the section) name no section, nor does a template's
    placeholder (WIRED's ``article:section`` "tags", WordPress's "Uncategorized")."""
    value = _plain(value, 200)
    if not value:
        return value
    if (len(value) > 100 or (len(value.split()) >= 10 and _SENTENCE_END.search(value))) and on(
            "section.not_sentence"):
        return None if fired("section.not_sentence") else value
    if value.casefold() in _NOT_SECTIONS and on("section.placeholder"):
        return None if fired("section.placeholder") else value
    return value


def _section_of(c: _Collected, ld: JsonLd | None) -> str | None:
    """article:section, JSON-LD ``articleSection``, then the first other declaration: the
    first that names a section."""
    for found in (first_declared(c.metas, _SECTION_KEYS[:1], "section"),
                  ("section.jsonld", ld.section) if ld and on("section.jsonld") else None,
                  first_declared(c.metas, _SECTION_KEYS[1:], "section")):
        if found and (value := _section(found[1])):
            return decided(found[0], value)
    return None


_NOT_SECTIONS = frozenset({"tag", "tags", "category", "categories", "uncategorized",
                           "uncategorised", "none", "null", "undefined", "section"})


def _site(value: str | None) -> str | None:
    """A social handle names the site without its "@"."""
    value = _plain(value, 200)
    if value and value.startswith("@") and on("site_name.handle") and fired("site_name.handle"):
        return value[1:] or None
    return value


def _site_name(c: _Collected, ld: JsonLd | None) -> str | None:
    """og:site_name, the JSON-LD publisher, then the other declarations; the first found is
    taken or refused whole."""
    found = first_declared(c.metas, _SITE_KEYS[:1], "site_name")
    if found is None and ld and ld.publisher and on("site_name.jsonld_publisher"):
        found = ("site_name.jsonld_publisher", ld.publisher)
    found = found or first_declared(c.metas, _SITE_KEYS[1:], "site_name")
    return decided(found[0], _site(found[1])) if found else None


def _description(c: _Collected, ld: JsonLd | None) -> str | None:
    found = (("description.jsonld", ld.description)
             if ld and ld.description and on("description.jsonld")
             else first_declared(c.metas, _DESCRIPTION_KEYS, "description"))
    return decided(found[0], _plain(found[1])) if found else None


def _image(c: _Collected, ld: JsonLd | None, url: str | None) -> str | None:
    found = first_declared(c.metas, _IMAGE_KEYS, "image")
    if found is None and ld and ld.image and on("image.jsonld"):
        found = ("image.jsonld", ld.image)
    found = found or first_declared(c.metas, ("image_src",), "image")
    return decided(found[0], _url_or_none(found[1], url)) if found else None


def _canonical(c: _Collected, url: str | None) -> str | None:
    found = ("canonical_url.link", c.canonical) if c.canonical and on(
        "canonical_url.link") else first_declared(c.metas, ("og:url",), "canonical_url")
    return decided(found[0], _url_or_none(found[1], url)) if found else None


def _language(root: etree._Element, c: _Collected) -> str | None:
    html_el = root if root.tag == "html" else root.find(".//html")
    sources = [("language.html_lang", html_el.get("lang") if html_el is not None else None),
               first_declared(c.metas, _LANGUAGE_KEYS, "language")]
    for found in sources:
        if found and on(found[0]) and (tag := normalise_language(found[1])):
            return decided(found[0], tag)
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
_TAG_FIELD = re.compile(r"([A-Za-z][A-Za-z-]*(?: [A-Za-z][A-Za-z-]*){0,2}):(?:(\S)|\s)")
"""A CMS's fields written into its keywords ("displayType: listicle", "contentId: 15cd…",
Medium's "Lite:true", "Tag:Nodejs", Postmedia's "Category: World" and "NLP Entity Tokens:
India"): a key of up to three words, a colon, and no space or a lower-case-initial key, a
key that names a taxonomy, or one of several words starting with "NLP"."""
_TAXONOMY_KEYS = frozenset({"tag", "tags", "topic", "topics", "category", "categories",
                            "keyword", "keywords", "section"})
_MACHINE_KEY = "nlp "
"""Postmedia's papers (National Post, Ottawa Citizen, The Province …) write a text
classifier's output into their keywords ("NLP Category: Politics"): not the editors' tags."""
_TAG_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|"
                     r"(?=[a-z]*[0-9])[0-9a-f]{16,}", re.IGNORECASE)
"""A UUID or a long hex hash among the keywords is a CMS's id of the story, not a tag."""


_TAG_CODE = re.compile(r"[A-Za-z0-9]*_[A-Za-z0-9_]*|.*(?:%\w+%|\{\{|\}\})")
"""A CMS's own labels among the keywords: snake_case flags ("_commerce", "_Prio_3",
"forward_original_content") and template placeholders ("%tags%", "{{ tags }}"). Not a
Chinese tag joined by "_" ("尖石_美樹營地"): its titles use the mark as a separator."""
_TAG_PATH = re.compile(r"[a-z]+/(\S.*)")
"""Expressen's "sections/sverige", "topic/misshandel & överfall": a taxonomy's path."""


def _tag_value(tag: str, host: str | None) -> str | None:
    """The tag a keyword names: a field's value when the field is a tag ("Tag:Nodejs",
    "Category: World", "topic/misshandel"), nothing for other fields, for an id, a CMS's
    flags or the page's own host name ("nationalpost.com"); a topic with a colon ("Brexit:
    the deal", "Star Wars: Episode IV") or a slash ("Technik/Hardware") stays."""
    if not on("tags.cms_field"):
        return tag
    if (_TAG_ID.fullmatch(tag) or _TAG_CODE.fullmatch(tag)
            or (host and tag.casefold().removeprefix("www.") == host)):
        fired("tags.cms_field")
        return None
    if path := _TAG_PATH.fullmatch(tag):
        fired("tags.cms_field")
        return path.group(1)
    m = _TAG_FIELD.match(tag)
    if m is None:
        return tag
    key = m.group(1).lower()
    if not key.startswith(_MACHINE_KEY):
        if key.rsplit(" ", 1)[-1] in _TAXONOMY_KEYS:
            fired("tags.cms_field")
            return tag[m.end(1) + 1:].strip() or None
        if " " in key or not (m.group(2) or key[0] == m.group(1)[0]):
            return tag  # "Brexit: the deal": a topic
    fired("tags.cms_field")
    return None


def _tags(c: _Collected, ld: JsonLd | None, url: str | None) -> tuple[str, ...]:
    # A lone value is often the whole list ("a, b", "a; b", Chinese "甲，乙、丙"), and so is
    # each keywords meta; one of several article:tag values or JSON-LD keywords is one tag
    # ("Mergers, Acquisitions and Divestitures"). Some CMSs escape tags twice ("M&amp;A").
    rule = "tags.meta:article:tag"
    raw = list(c.metas.get("article:tag", ())) if on(rule) else []
    if not raw and ld and ld.keywords and on("tags.jsonld"):
        rule, raw = "tags.jsonld", ld.keywords
    whole_lists = len(raw) == 1
    if not raw:
        for key in _TAG_KEYS[1:]:
            if key in c.metas and on(f"tags.meta:{key}"):
                rule, raw, whole_lists = f"tags.meta:{key}", c.metas[key], True
                break
    values = [readable(v) or "" for v in raw]
    if whole_lists:
        values = [t for v in values for t in _TAG_SEPARATORS.split(v)]
    host = (urlsplit(url).hostname or "").removeprefix("www.") if url else None
    out: list[str] = []
    seen: set[str] = set()
    for value in values:
        tag = _tag_value(" ".join(value.split()), host)
        if tag and len(tag) <= _MAX_TAG_LEN and tag.casefold() not in seen:
            seen.add(tag.casefold())
            out.append(tag)
        if len(out) >= _MAX_TAGS:
            break
    return decided(rule, tuple(out))


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
