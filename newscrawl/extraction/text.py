"""Shared definitions of what the extraction code compares and skips text by.

Each idea has one definition here: which characters are Chinese, Japanese or Korean (scripts
without spaces between words, counted and matched per character), the keys two texts are
compared by, and what hides an element from a reader. The modules that need them import them;
copies drift (four CJK ranges differed in which blocks they held).
"""

from __future__ import annotations

import re

from lxml import etree

KANA = "\u3040-\u30ff"
"""Hiragana and Katakana."""
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
"""CJK Unified Ideographs, Extension A and the Compatibility Ideographs; not the Yijing
hexagram symbols between the first two (U+4DC0-4DFF), which are no writing."""
HANGUL = "\uac00-\ud7a3"
"""Hangul syllables, the assigned ones (U+AC00-D7A3)."""
CJK = KANA + HAN + HANGUL
"""Ranges for a regex character class: the scripts written without spaces between words."""
CJK_CHAR = re.compile(f"[{CJK}]")
_WORD = re.compile(r"\w+")


def word_count(text: str) -> float:
    """Words, with a CJK character as half a word (Chinese words average ~1.7 characters)."""
    cjk = len(CJK_CHAR.findall(text))
    return len(_WORD.findall(CJK_CHAR.sub(" ", text))) + cjk / 2


def collapse_spaces(text: str) -> str:
    """Runs of whitespace to one space, ends stripped.

    A multi-megabyte node goes through in 64K slices: splitting it whole would build a list of
    millions of words (as would ``re.sub``), hundreds of MB for a page we accept.
    """
    if text.isprintable() and "  " not in text and text[:1] != " " and text[-1:] != " ":
        return text  # its only whitespace is single inner spaces (the rest is unprintable)
    if len(text) <= 65536:
        return " ".join(text.split())
    parts: list[str] = []
    gap = False
    for k in range(0, len(text), 65536):
        piece = text[k: k + 65536]
        core = " ".join(piece.split())
        if core:
            if parts and (gap or piece[0].isspace()):
                parts.append(" ")
            parts.append(core)
            gap = piece[-1].isspace()
        else:
            gap = True
    return "".join(parts)


def text_key(text: str) -> str:
    """The key two texts are the same text by, as a reader takes them: whitespace and case
    do not count. ``lower``, not ``casefold``: the node model learnt its title, description
    and duplicate features on these keys, and ``casefold`` changes them on German pages
    ("ß" to "ss")."""
    return collapse_spaces(text).lower()


_NON_ALNUM = re.compile(r"[\W_]+")


def letters_key(text: str) -> str:
    """The key two names or titles are the same by when punctuation does not count either:
    letters and digits only, case folded ("Ars Technica" is "ars-technica.com"'s "arstechnica",
    "BBC News" is "bbcnews")."""
    return _NON_ALNUM.sub("", text.casefold())


HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.I)
"""An inline style that hides an element from every reader."""
SCREEN_READER_CLASSES = ("sr-only", "visually-hidden", "visuallyhidden", "screen-reader-text",
                         "screen-reader-only", "element-invisible", "show-for-sr", "screen-only")
"""The utility classes of Bootstrap, Tailwind, WordPress, Drupal, Foundation, Elementor and
HTML5 Boilerplate that hide text from the eye and leave it to screen readers; a class that
ends with one of them (``usa-sr-only``) counts too."""


def hides(el: etree._Element) -> bool:
    """Whether ``el`` is hidden from every reader by its own markup (the ``hidden`` attribute
    or an inline style); a stylesheet's rules are not read.

    The other two kinds of hidden are narrower: ``aria-hidden="true"`` hides from screen
    readers only (an icon's glyph, a count beside a title), and the screen-reader classes
    (``screen_reader_only``) from the eye only."""
    return el.get("hidden") is not None or HIDDEN_STYLE.search(el.get("style") or "") is not None


def screen_reader_only(tokens: list[str]) -> bool:
    """Whether lower-cased class tokens name text kept for screen readers, out of sight."""
    return any(name.endswith(SCREEN_READER_CLASSES) for name in tokens)


HIDING_CLASSES = frozenset({"hidden", "d-none"})
"""Tailwind's and Bootstrap's class tokens that hide an element from every reader. Read only
where a few elements are judged (a headline's parts): scripts toggle them, so the node model
does not take them for hidden."""
