"""A heading's text as a reader sees it: inline pieces run together, block elements and
``<br>`` break lines, and the controls, hidden parts, label chips and asides that themes put
inside an <h1> are left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lxml import etree

from newscrawl.extraction.text import HIDING_CLASSES, hides, screen_reader_only

# Permalink anchors (Sphinx "¶", "§") and icon-font glyphs (private use area) that themes put
# at the end of a heading: never part of the headline.
_CLOSING = frozenset(",.;:!?)]}”’»%")
_HEADING_GLYPHS = "¶§⋆" + "".join(map(chr, range(0xE000, 0xF900)))
_HEADING_END = _HEADING_GLYPHS + " "
_HEADING_END_SET = frozenset(_HEADING_END)
_HEADING_SKIP = frozenset({"button", "script", "style", "noscript", "template", "select",
                           "svg", "time", "h2", "h3", "h4", "h5", "h6"})
_HEADING_LABELS = frozenset({"label", "badge"})
"""Class tokens of the chips a forum or shop puts before a headline ("News", "[Vocabulary]")."""
_HEADING_HIDDEN = _HEADING_LABELS | HIDING_CLASSES
_HEADING_ASIDES = ("comment", "subtitle", "tagline", "visuallyhidden")
"""Parts of class tokens of what a heading holds beside its headline: a comment count, a
subtitle or tagline set in smaller type ("Night Edition" over "Complete plant-based meal"),
text kept for screen readers ("utils_visuallyHidden__x1" from CSS modules)."""
_BLOCK_TAGS = frozenset({"br", "div", "p", "ul", "ol", "li", "dl", "dt", "dd", "table", "tr",
                         "td", "th", "section", "header", "footer", "blockquote", "figure",
                         "figcaption", "hr", "address", "pre"})
"""Elements that break a heading's line: text on either side does not run together."""
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))
"""Soft hyphens and zero-width characters: in the markup, not in what a reader sees."""


def _rstrip_glyphs(text: str) -> str:
    """``text.rstrip(_HEADING_END)`` only when the text ends in one of them: rstrip builds its
    6,400-character set on every call (2 us), and most headings end in a letter."""
    return text.rstrip(_HEADING_END) if text[-1:] in _HEADING_END_SET else text


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
        if child is not el and (screen_reader_only(classes)
                                or any("visuallyhidden" in c for c in classes)):
            spoken = "".join("".join(child.itertext()).split()).casefold()
            if spoken and spoken in hidden_letters:
                return child
    return el


_SPOKEN_SEPARATOR = re.compile(r"\s*[:|–—-]\s*")
"""Screen-reader text between a kicker and the headline (``<span class="visually-hidden">:
</span>``): the eye sees two lines, a listener hears "Kicker: Headline", as og:title writes it."""
def _class_tokens(el: etree._Element) -> list[str]:
    return ((el.get("class") or "") + " " + (el.get("id") or "")).lower().split()


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
        classes = _class_tokens(child)
        if (screen_reader_only(classes) and not len(child)
                and _SPOKEN_SEPARATOR.fullmatch(spoken := child.text or "")):
            yield spoken
        elif child.tag not in _HEADING_SKIP and not hides(child) and not (
                child.get("aria-hidden") == "true" or _HEADING_HIDDEN & set(classes)
                or screen_reader_only(classes)
                or any(part in c for c in classes for part in _HEADING_ASIDES)):
            block = child.tag in _BLOCK_TAGS
            if block:
                yield None
            yield from _heading_pieces(child)
            if block:
                yield None
        if child.tail:
            yield child.tail
