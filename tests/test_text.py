"""The shared definitions of newscrawl.extraction.text: one CJK range, one comparison key,
one meaning of hidden, used by the cleaner, the node features and the metadata alike."""

from __future__ import annotations

from lxml import etree

from newscrawl.extraction.text import (
    CJK_CHAR,
    collapse_spaces,
    hides,
    letters_key,
    screen_reader_only,
    text_key,
)


def test_cjk_char_holds_the_three_scripts_and_compatibility_ideographs() -> None:
    for ch in "日本語ひらがなカタカナ한국어中文\uf900\u3400":
        assert CJK_CHAR.match(ch), hex(ord(ch))
    # Yijing hexagrams sit between Extension A and the unified block: symbols, not writing
    for ch in "a1\u4dc0\u3000。\uff01":
        assert not CJK_CHAR.match(ch), hex(ord(ch))


def test_text_key_ignores_case_and_whitespace_only() -> None:
    assert text_key("  Straße \n und  MEHR ") == text_key("STRASSE und mehr".replace("SS", "ß"))
    assert text_key("Hello, world") != text_key("Hello world")
    assert collapse_spaces(" a \t b\n") == "a b"


def test_letters_key_ignores_punctuation_too() -> None:
    assert letters_key("Ars Technica") == letters_key("ars-technica") == "arstechnica"
    assert letters_key("人民网") == "人民网"


def test_hidden_from_every_reader_versus_screen_readers_only() -> None:
    assert hides(etree.fromstring('<span hidden="">x</span>'))
    assert hides(etree.fromstring('<span style="display: none">x</span>'))
    assert not hides(etree.fromstring('<span class="sr-only">x</span>'))
    assert screen_reader_only(["usa-sr-only", "big"])
    assert not screen_reader_only(["srcset"])
