"""Training copies of pages respelled in ideographs, without spaces.

WCXB is almost all spaced, cased, Latin-script text, so a model trained on it alone leans on
cues that hold only there: spaces per character, the share of capitals, letters that have a
case at all. Respelling every word of the same pages (same markup, same nodes, same labels)
shows what that costs: out of fold, the model trained on WCXB alone lost 0.024 to 0.038 of
page F1 on the pages respelled in ideographs without spaces, and 0.010 to 0.023 on them
respelled in an uncased alphabet with spaces (Arabic letters). With a copy of every training
page in ideographs, labelled as its original, both came within 0.003 of the pages as
written, which lost about 0.002 (``docs/tried.md``). The copies stand in for other
scripts' character classes and lengths only; the markup, and so the layout, is still WCXB's.

A word is a run of letters and becomes one to three ideographs (a Chinese word is one to three
characters; an English one averages five letters and a space), the same ones wherever it
occurs, so repeated text stays repeated and the title still matches the headline. Digits stay,
and sentence punctuation becomes full-width.
"""

from __future__ import annotations

import dataclasses
import re
import zlib

from lxml import etree

from ..extraction.metadata import Metadata

_WORD = re.compile(r"[^\W\d_]+")
_SPACES = re.compile(r"\s+")
_FULL_WIDTH = str.maketrans({".": "。", ",": "，", "!": "！", "?": "？", ":": "：", ";": "；",
                             "(": "（", ")": "）"})
_NOT_XML = dict.fromkeys([*(c for c in range(32) if c not in (9, 10, 13)), 0xFFFE, 0xFFFF])
"""Characters lxml refuses in text it is given (libxml2's parser let some of them in)."""
_SKIP = frozenset({"script", "style"})


def _ideographs(match: re.Match) -> str:
    word = match.group(0)
    h = zlib.crc32(word.lower().encode("utf-8", "surrogatepass"))
    n = 1 if len(word) <= 3 else 2 if len(word) <= 8 else 3
    return "".join(chr(0x4E00 + (h >> (5 * k)) % 20000) for k in range(n))


def respell_text(text: str) -> str:
    """``text`` with its words respelled in ideographs and its spaces gone.

    Whitespace at either end stays where it breaks a line (source layout), so text still
    lines up as the markup wrote it; a space between two inline pieces is a space between
    words, and goes.
    """
    if not text or text.isspace():
        return text
    lead, trail = text[: len(text) - len(text.lstrip())], text[len(text.rstrip()):]
    core = _SPACES.sub("", _WORD.sub(_ideographs, text.strip()).translate(_FULL_WIDTH))
    lead, trail = ("" if "\n" not in edge else edge for edge in (lead, trail))
    return (lead + (core or "。") + trail).translate(_NOT_XML)


def respell(root: etree._Element, meta: Metadata) -> Metadata:
    """The hook ``page_nodes`` runs between reading metadata and cleaning: respells the
    tree's text in place, and the metadata fields the features compare node text with."""
    # Text that stays as it is (white space) is not set again: lxml would refuse the
    # control characters its parser let into some of it.
    for el in root.iter():
        text, tail = el.text, el.tail
        if text and not text.isspace() and isinstance(el.tag, str) and el.tag not in _SKIP:
            el.text = respell_text(text)
        if tail and not tail.isspace():
            el.tail = respell_text(tail)
    return dataclasses.replace(meta, **{
        name: respell_text(value)
        for name in ("title", "description", "article_body") if (value := getattr(meta, name))})
