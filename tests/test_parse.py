"""parse: always a tree, never an exception, and no text silently lost to broken markup."""

from __future__ import annotations

import sys

import pytest
from lxml import etree

from newscrawl.extraction.parse import parse


def text_of(root: etree._Element) -> str:
    return " ".join(" ".join(root.itertext()).split())


@pytest.mark.parametrize("text", ["", " ", "\x00\x00", "<", "</div>", "<!-- only a comment -->",
                                  "<?xml version='1.0'?>", "plain words, no markup"])
def test_always_returns_an_html_root(text: str) -> None:
    root = parse(text)
    assert isinstance(root, etree._Element)
    assert root.tag == "html"


def test_plain_text_is_kept() -> None:
    assert text_of(parse("plain words, no markup")) == "plain words, no markup"


def test_nul_characters_are_removed_not_truncating() -> None:
    root = parse("<p>Hello\x00 world</p><p>after the NUL</p>")
    assert text_of(root) == "Hello world after the NUL"


@pytest.mark.parametrize("decl", [
    '<?xml version="1.0" encoding="iso-8859-1"?>',
    "<?XML VERSION='1.0' ENCODING='UTF-8'?>",
    '\n  <?xml version="1.0" encoding="gb2312" standalone="yes"?>\n',
])
def test_xml_declaration_with_encoding_on_str(decl: str) -> None:
    """lxml refuses a str that declares an encoding; parse must not fall back to an empty tree."""
    root = parse(decl + "<html><body><p>Déjà vu, 中文</p></body></html>")
    assert text_of(root) == "Déjà vu, 中文"


def test_xhtml_with_doctype_and_namespace() -> None:
    root = parse('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html PUBLIC '
                 '"-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">'
                 '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>Namespaced</p></body></html>')
    assert text_of(root) == "Namespaced"


def test_comments_and_processing_instructions_are_dropped() -> None:
    root = parse("<p>kept<!-- hidden --> text<?php echo 1; ?></p>")
    assert text_of(root) == "kept text"


def test_misnested_and_unclosed_markup_keeps_all_text() -> None:
    root = parse("<html><body><p>First <b>bold <i>both</b> italic</i></p></div></div>"
                 "<p><div>inside</div></p><ul><li>one<li>two</ul><table><tr><td>cell"
                 "<p>unclosed paragraph</body>")
    assert text_of(root) == "First bold both italic inside one two cell unclosed paragraph"


def test_stray_end_tags_before_content() -> None:
    root = parse("</div></span></p></body></html><p>still here</p>")
    assert "still here" in text_of(root)


@pytest.mark.parametrize("end", ["</body></html>", "</BODY>\n</HTML >", "</html>"])
@pytest.mark.parametrize("as_bytes", [False, True])
def test_a_document_closed_early_reads_on_as_a_browser_does(end: str, as_bytes: bool) -> None:
    """libxml2 drops everything after ``</html>``; some templates close the page before
    printing the article."""
    text = (f"<html><body><nav>Home · Blog</nav>{end}\n<div class=post><h1>Title</h1>"
            "<p>The article, after the end tags. 文章</p></div>\n</body></html>\n")
    root = parse(text, text.encode() if as_bytes else None)
    assert text_of(root) == "Home · Blog Title The article, after the end tags. 文章"
    assert root.find("body").xpath("string(.//p)").startswith("The article")


def test_end_tags_followed_by_nothing_leave_the_text_alone() -> None:
    text = "<html><body><p>só</p></body>\n</html>\n\n"
    assert text_of(parse(text, text.encode())) == "só"


def test_each_call_gets_a_fresh_tree() -> None:
    a = parse("<p>one</p>")
    b = parse("<p>one</p>")
    a.find(".//p").text = "changed"
    assert text_of(b) == "one"


@pytest.mark.parametrize("depth", [255, 300, 2047, 3000])
def test_unclosed_inline_tags_do_not_drop_the_rest_of_the_page(depth: int) -> None:
    """libxml2 stops at 256 open elements (2048 with huge_tree) and drops what follows."""
    root = parse("<html><body>" + "<font>" * depth + "<p>content after the nesting</p>"
                 + "</body></html>")
    assert "content after the nesting" in text_of(root)


def test_unclosed_tags_around_closed_paragraphs_do_not_drop_the_rest_of_the_page() -> None:
    """Each paragraph closes and its <font> does not: the re-parse must count only what
    stays open, or the page is cut again past libxml2's depth limit."""
    doc = "<html><body>" + "<font size=2><p>para</p>" * 3000 + "<p>TAIL after</p></body></html>"
    text = "".join(parse(doc).itertext())
    assert text.count("para") == 3000 and "TAIL after" in text


@pytest.mark.parametrize("tag", ["div", "span", "b", "table"])
def test_50000_deep_nesting_keeps_text_without_recursion(tag: str) -> None:
    inner = "<tr><td>" if tag == "table" else ""
    doc = ("<html><body>" + f"<{tag}>{inner}" * 50_000 + "deep text"
           + f"</{tag}>" * 50_000 + "<p>after it</p></body></html>")
    limit = sys.getrecursionlimit()
    root = parse(doc)
    assert sys.getrecursionlimit() == limit
    assert "deep text" in text_of(root)
    assert "after it" in text_of(root)


def test_parse_after_a_pathological_document_is_unaffected() -> None:
    parse("<div>" * 5000)
    assert text_of(parse("<p>ordinary</p>")) == "ordinary"


def test_large_flat_document() -> None:
    doc = "<html><body>" + "<p>word word word word word</p>\n" * 200_000 + "</body></html>"
    root = parse(doc)
    assert len(root.findall(".//p")) == 200_000


@pytest.mark.parametrize("charset", ["iso-8859-1", "gb2312", "utf-16", "shift_jis"])
def test_declared_charset_in_decoded_text_is_ignored(charset: str) -> None:
    """The text is already decoded; a <meta charset> inside it must not re-decode it."""
    words = "café – naïve 中文 ünïcode 😀"
    root = parse(f'<html><head><meta charset="{charset}"></head><body><p>{words}</p></body></html>')
    assert text_of(root) == words


def test_lone_surrogates_still_parse() -> None:
    root = parse("<p>before \udc80 after</p>")
    assert "before" in text_of(root) and root.tag == "html"


@pytest.mark.parametrize("text", [
    "<html><body><p>café – 中文 😀</p></body></html>",
    "<p>a\x00b</p><p>after the NUL</p>",
    '<?xml version="1.0" encoding="utf-8"?><html><body><p>declared</p></body></html>',
    "\u00a0<?xml version='1.0'?><p>after a no-break space</p>",
])
def test_parsing_the_utf8_bytes_gives_the_texts_tree(text: str) -> None:
    from lxml import etree

    assert (etree.tostring(parse(text, text.encode("utf-8")))
            == etree.tostring(parse(text)))
