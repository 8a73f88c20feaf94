"""Page metadata read from the raw tree, before cleaning throws <head> and <script> away.

Sources, most trusted first: JSON-LD (schema.org Article types, ``@graph``, nested Person and
Organization), OpenGraph and ``article:*`` tags, Twitter cards, ``<meta name>``/``itemprop``,
``<time datetime>``, a byline in the DOM near the headline, a date in the URL. Each field takes
the first source that gives a usable value, so a malformed or absurd value in one source falls
through to the next instead of spoiling the page. One XPath pass collects everything the head
and the microdata offer; the DOM is searched for a byline only when no source named an author.

The package holds a module per concern: ``collect`` (the one pass over the tree that gathers
the head's tags and the microdata), ``titles`` and ``headings`` (the headline and the text of
an <h1>), ``walk`` (the texts and elements around the headline, read once per page),
``bylines`` with ``authors`` (who wrote it, from declarations or a byline on the page, and how
a credit line is cleaned into names), ``published`` (dates declared and dates printed near the
headline) and ``fields`` (language, site name, section, tags, image and canonical URLs).
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass

from lxml import etree

from newscrawl.extraction.dates import page_language
from newscrawl.extraction.meta_jsonld import read_jsonld
from newscrawl.extraction.metadata.bylines import _authors
from newscrawl.extraction.metadata.collect import (
    _MODIFIED_KEYS,
    OFF,
    RULES,
    _collect,
    _page_type_declared,
    decided,
    on,
)
from newscrawl.extraction.metadata.fields import (
    _canonical,
    _description,
    _image,
    _language,
    _section_of,
    _site_name,
    _tags,
    normalise_language,
)
from newscrawl.extraction.metadata.published import _date, _printed_update, _published
from newscrawl.extraction.metadata.titles import _choose_title

__all__ = ["Metadata", "extract_metadata", "normalise_language"]

logger = logging.getLogger(__name__)


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


def extract_metadata(root: etree._Element, url: str | None = None,
                     rules: Counter[str] | None = None,
                     off: frozenset[str] = frozenset()) -> Metadata:
    """Read metadata from ``root`` (the uncleaned tree); never raises on malformed input.

    Each field is guarded on its own, so a source that trips one field (a number where a string
    was expected, a recursion in a bad tree) costs that field only; the error is logged with
    its traceback and counted as ``<field>.error``, since it is a bug to fix. ``rules``, when
    given, also counts the rule that decided each of title, authors and published
    (``title.kicker``, ``authors.meta:author``, ``published.time`` ...), to weigh them; the
    rules named in ``off`` are switched off, to ablate them (the field's fallbacks, such as
    ``title.h1`` or ``published.declared``, cannot be).
    """
    token, off_token = RULES.set(rules), OFF.set(off)
    try:
        return _read(root, url, rules)
    finally:
        RULES.reset(token)
        OFF.reset(off_token)


def _read(root: etree._Element, url: str | None, rules: Counter[str] | None) -> Metadata:
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
            logger.warning("metadata: reading %s failed on %s", name, url, exc_info=True)
            if rules is not None:
                rules[f"{name}.error"] += 1
            return
        if value:
            fields[name] = value

    guarded("site_name", _site_name, c, ld)
    site_name = fields.get("site_name")
    guarded("title", _choose_title, root, c, ld, site_name, url)
    guarded("authors", _authors, root, c, ld, site_name)
    guarded("language", _language, root, c)
    with page_language(fields.get("language")):  # type: ignore[arg-type]
        if on("modified.declared"):
            guarded("modified", lambda: decided("modified.declared", _date([
                ld.modified if ld else None,
                *[v for k in _MODIFIED_KEYS for v in c.metas.get(k, ())],
            ])))
        # A page that shows only an update date is dated by it: it is the date readers see.
        guarded("published", _published, root, c, ld, url, fields.get("modified"))
        if "modified" not in fields and on("modified.printed_update"):
            guarded("modified", lambda: decided("modified.printed_update", _printed_update(
                root, c, url, fields.get("published"))))
    guarded("description", _description, c, ld)
    guarded("image", _image, c, ld, url)
    guarded("tags", _tags, c, ld, url)
    guarded("section", _section_of, c, ld)
    guarded("canonical_url", _canonical, c, url)
    guarded("page_type", lambda: decided(*found) if (found := _page_type_declared(c, ld))
            else None)
    guarded("article_body", lambda: ld.body if ld else None)
    return Metadata(**fields)  # type: ignore[arg-type]
