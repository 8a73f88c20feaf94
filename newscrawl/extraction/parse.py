"""Text to an lxml tree: a fresh parser per call, and always a tree."""

from __future__ import annotations

import re
from typing import AnyStr

from lxml import etree, html

_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
# Start and end tags, for the rare re-parse of a document nested deeper than libxml2 allows.
_TAG = re.compile(r"<(/?)([a-zA-Z][^\s/>]*)[^>]*>")
_VOID = frozenset({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
    "source", "track", "wbr",
})
# End tags of the document. libxml2 drops everything after ``</html>``; a browser reads on into
# the body (HTML5's "after after body" mode), and so must we: some templates close the document
# early and print the article after it (WCXB page 0310 keeps its whole blog post there).
_DOCUMENT_END = re.compile(r"</(?:body|html)\s*>", re.I)
_DOCUMENT_END_BYTES = re.compile(rb"</(?:body|html)\s*>", re.I)
# libxml2 gives up (and drops the rest of the page) past 256 open elements, 2048 with
# huge_tree; the re-parse keeps nesting well under that.
_MAX_DEPTH = 1000


# Elements are lxml's plain C ``_Element``, not lxml.html's ``HtmlElement``: nothing here uses
# HtmlElement's Python methods, and the feature walk, the cleaner and metadata make a proxy for
# most elements of every page, which for a Python subclass costs more to create and free (whole
# extraction 2.3 % faster, median of per-page ratios on 200 WCXB pages). lxml.html's own lookup
# would also call a Python method per proxy to pick form classes.
_LOOKUP = etree.ElementDefaultClassLookup()


def _parser(encoding: str | None = None) -> html.HTMLParser:
    parser = html.HTMLParser(
        recover=True, remove_comments=True, remove_pis=True, no_network=True,
        default_doctype=False, huge_tree=True, encoding=encoding,
        collect_ids=False,  # no id lookups here; skips libxml2's hash of id attributes
    )
    parser.set_element_class_lookup(_LOOKUP)
    return parser


def _too_deep(parser: html.HTMLParser) -> bool:
    return any("Excessive depth" in e.message for e in parser.error_log)


def _flatten(text: str, max_depth: int = _MAX_DEPTH) -> str:
    """Drop start tags (keeping their text) once more than ``max_depth`` elements are open.

    The count is approximate (it ignores HTML's implied end tags, so it over-counts), which
    only makes it drop more tags on a document that libxml2 already refused. An end tag whose
    start tag was dropped goes too and closes nothing: counted as a close, it let the next
    start tags back in, and 3,000 unclosed ``<font>`` around closed paragraphs stayed over
    libxml2's limit after the re-parse, losing the rest of the page again.
    """
    depth = 0
    dropped: dict[str, int] = {}
    out: list[str] = []
    last = 0
    for m in _TAG.finditer(text):
        closing, name = m.group(1), m.group(2).lower()
        if name in _VOID or m.group(0).endswith("/>"):
            continue
        if closing and dropped.get(name):
            dropped[name] -= 1
            out.append(text[last:m.start()])
            last = m.end()
        elif closing:
            depth = max(depth - 1, 0)
        elif depth >= max_depth:
            dropped[name] = dropped.get(name, 0) + 1
            out.append(text[last:m.start()])
            last = m.end()
        else:
            depth += 1
    out.append(text[last:])
    return "".join(out)


def _fromstring(text: str, utf8: bytes | None = None
                ) -> tuple[etree._Element | None, html.HTMLParser]:
    """Parse ``text`` as UTF-8 bytes with the encoding fixed: libxml2 reads UTF-8 natively,
    while a str reaches it as UTF-16 or UCS-4 to convert (parse 7 % faster on WCXB pages, same
    trees). ``utf8``, when given, is that encoding already. A str that has no UTF-8 form (lone
    surrogates) is parsed as it is."""
    try:
        data: str | bytes = utf8 if utf8 is not None else text.encode("utf-8")
        parser = _parser("utf-8")
    except UnicodeEncodeError:
        data = text
        parser = _parser()
    try:
        return etree.fromstring(data, parser), parser
    except (etree.ParserError, ValueError):
        return None, parser


def _read_on(doc: AnyStr, end: re.Pattern[AnyStr]) -> AnyStr | None:
    """``doc`` without the document's end tags, or None when nothing but more of them follows
    the first (the page as it was)."""
    found = end.search(doc)
    if found is None:
        return None
    rest = end.sub(doc[:0], doc[found.start():])
    return doc[:found.start()] + rest if rest.strip() else None


def parse(text: str, utf8: bytes | None = None) -> etree._Element:
    """Parse HTML leniently; an unparsable document gives an empty ``<html>`` root.

    ``utf8`` may be the exact UTF-8 encoding of ``text`` (``decode_page`` gives it for pages
    that arrived as valid UTF-8): it is read directly, saving an encode and a scan of the
    text for NUL (~0.2 ms on a 180 KB page). The tree is then the bytes' tree: bytes that
    are not exactly the text's encoding would give another page.

    A new parser per call keeps concurrent extractions independent (lxml parsers hold state).
    Comments and processing instructions are dropped while parsing, which is cheaper than
    stripping them afterwards. libxml2 caps nesting depth in C, so nothing recurses in Python;
    but at the cap it stops reading and silently drops the rest of the page (256 unclosed
    ``<font>`` tags are enough without ``huge_tree``), so such a document is parsed again with
    its excess start tags removed. Markup after the document's end tags is read into the body,
    as a browser reads it, where libxml2 would drop it.
    """
    m = _XML_DECLARATION.match(text)
    if m:
        # lxml refuses a str that declares an encoding; the bytes are already decoded.
        text = text[m.end():]
        utf8 = None
    if (b"\x00" in utf8) if utf8 is not None else ("\x00" in text):
        text = text.replace("\x00", "")
        utf8 = None
    if utf8 is not None:
        if (read_on := _read_on(utf8, _DOCUMENT_END_BYTES)) is not None:
            utf8, text = read_on, read_on.decode("utf-8")
    elif (read_on := _read_on(text, _DOCUMENT_END)) is not None:
        text = read_on
    root, parser = _fromstring(text, utf8)
    if _too_deep(parser):
        root, _ = _fromstring(_flatten(text))
    if root is None:
        root = html.fromstring("<html></html>", parser=_parser())
    return root
