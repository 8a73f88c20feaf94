"""Text to an lxml tree: a fresh parser per call, and always a tree."""

from __future__ import annotations

import re

from lxml import etree, html

_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)


def parse(text: str) -> html.HtmlElement:
    """Parse HTML leniently; an unparsable document gives an empty ``<html>`` root.

    A new parser per call keeps concurrent extractions independent (lxml parsers hold state).
    Comments and processing instructions are dropped while parsing, which is cheaper than
    stripping them afterwards. libxml2 caps nesting depth, so pathological documents are
    truncated in C rather than recursing in Python.
    """
    parser = html.HTMLParser(
        recover=True, remove_comments=True, remove_pis=True, no_network=True, default_doctype=False
    )
    text = _XML_DECLARATION.sub("", text[:512], count=1) + text[512:]
    if "\x00" in text:
        text = text.replace("\x00", "")
    try:
        root = etree.fromstring(text, parser)
    except (etree.ParserError, ValueError):
        root = None
    if root is None:
        root = html.fromstring("<html></html>", parser=parser)
    return root
