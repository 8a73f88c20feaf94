"""Page metadata read from the raw tree, before cleaning throws <head> and <script> away.

PLACEHOLDER: minimal version; the metadata issue (#4) replaces the body of
``extract_metadata`` and keeps its signature and the ``Metadata`` fields.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from lxml import html


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


def extract_metadata(root: html.HtmlElement, url: str | None = None) -> Metadata:
    """Read metadata from ``root`` (the uncleaned tree); never raises on malformed input."""
    def meta(*names: str) -> str | None:
        for name in names:
            for el in root.iterfind(f".//meta[@property='{name}']"):
                if el.get("content"):
                    return el.get("content").strip()
            for el in root.iterfind(f".//meta[@name='{name}']"):
                if el.get("content"):
                    return el.get("content").strip()
        return None

    page_type = meta("og:type")
    body = None
    for script in root.iterfind(".//script[@type='application/ld+json']"):
        try:
            data = json.loads(script.text or "")
        except ValueError:
            continue
        for item in data if isinstance(data, list) else [data]:
            if isinstance(item, dict):
                t = item.get("@type")
                if isinstance(t, str) and "article" in t.lower():
                    page_type = t
                    body = item.get("articleBody") if isinstance(item.get("articleBody"), str) else body
    title_el = root.find(".//title")
    title = meta("og:title") or (title_el.text_content().strip() if title_el is not None else None)
    return Metadata(
        title=title or None,
        language=root.get("lang"),
        description=meta("description", "og:description"),
        site_name=meta("og:site_name"),
        image=meta("og:image"),
        page_type=page_type.lower() if page_type else None,
        article_body=body,
    )
