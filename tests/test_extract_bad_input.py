"""Extractor.extract on hostile and unusual input: never raises, empty text with a reason when
the page is unusable, the right text when it is usable.

These tests are about the code path around the model, not the model's choices, so they run a
stub model that keeps every text node (built here, in a temporary directory): a usable page must
then give back its paragraph intact, whatever the shipped model would keep.
"""

from __future__ import annotations

import codecs
import gzip
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from modelutil import keep_all_model

from newscrawl.extraction import Extractor
from newscrawl.extraction.extractor import ExtractorOptions

FIXTURES = Path(__file__).parent / "fixtures" / "pages"
REPO = Path(__file__).resolve().parent.parent

ZH = ("北京时间昨天晚上，国家统计局发布了最新的经济数据。数据显示，今年前三个季度全国居民"
      "人均可支配收入比上年同期名义增长百分之六点三，扣除价格因素实际增长百分之五点九。")
AR = ("أعلنت وزارة الصحة اليوم عن إطلاق حملة وطنية جديدة للتطعيم ضد الإنفلونزا الموسمية "
      "في جميع المحافظات، وقال المتحدث باسم الوزارة إن الحملة تستهدف كبار السن والأطفال.")
EN = ("The harbour authority said on Tuesday that the new breakwater would be finished by "
      "spring, two years later than first planned, after storms damaged the wall twice.")


@pytest.fixture(scope="module")
def stub_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return keep_all_model(tmp_path_factory.mktemp("model") / "keep-all.ubj")


@pytest.fixture(scope="module")
def extractor(stub_model: Path) -> Extractor:
    return Extractor(stub_model)


def page(text: str, *, head: str = "", lang: str = "") -> str:
    lang_attr = f' lang="{lang}"' if lang else ""
    return (f"<!DOCTYPE html>\n<html{lang_attr}><head>{head}<title>News</title></head>\n"
            f"<body><article><p>{text}</p></article></body></html>\n")


def one_line(text: str) -> str:
    return " ".join(text.split())


# --------------------------------------------------------------------------- usable pages

@pytest.mark.parametrize("case", sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()))
def test_fixture_pages_give_their_text(extractor: Extractor, case: str) -> None:
    folder = FIXTURES / case
    info = json.loads((folder / "meta.json").read_text("utf-8"))
    expected = json.loads((folder / "expected.json").read_text("utf-8"))
    article = extractor.extract((folder / "page.html").read_bytes(), info["url"],
                                content_type=info.get("content_type"))
    assert article.reason is None
    for snippet in expected["contains"]:
        assert one_line(snippet) in one_line(article.text)


@pytest.mark.parametrize(("body", "content_type", "expected"), [
    (page(ZH, head='<meta charset="gbk">').encode("gbk"), None, ZH),
    (page(ZH).encode("gbk"), None, ZH),
    (page(ZH).encode("gbk"), "text/html; charset=utf-8", ZH),
    (page(AR, lang="ar").encode("cp1256"), None, AR),
    (page(AR, head='<meta charset="windows-1256">', lang="ar").encode("cp1256"), None, AR),
    (codecs.BOM_UTF16_LE + page(ZH).encode("utf-16-le"), None, ZH),
    (codecs.BOM_UTF8 + page(EN).encode(), "text/html; charset=iso-8859-1", EN),
    (('<text id="http://news.example.cn/1.html" title="数据" encoding="gb2312">\n'
      + page(ZH) + "</text>").encode("gb2312"), None, ZH),
], ids=["gbk-meta", "gbk-undeclared", "gbk-header-says-utf8", "cp1256-undeclared",
        "cp1256-meta", "utf16-bom", "utf8-bom-vs-latin1-header", "zh-wrapper"])
def test_encoded_pages_give_their_sentence_intact(
    extractor: Extractor, body: bytes, content_type: str | None, expected: str
) -> None:
    article = extractor.extract(body, "http://example.test/a", content_type=content_type)
    assert article.reason is None
    assert expected in article.text


def test_invalid_utf8_keeps_the_valid_text(extractor: Extractor) -> None:
    good = page(EN + " " + ZH, head='<meta charset="utf-8">').encode()
    cut = good.index(ZH.encode())
    article = extractor.extract(good[:cut] + b"\xff\xc3\x28\xe2\x82 " + good[cut:], None)
    assert EN in article.text and ZH in article.text


def test_nul_bytes_in_text(extractor: Extractor) -> None:
    article = extractor.extract(page("Hello\x00 world, " + EN).encode(), None)
    assert "\x00" not in article.text
    assert "Hello world, " + EN in one_line(article.text)


def test_xml_declaration_with_encoding_on_str_input(extractor: Extractor) -> None:
    article = extractor.extract('<?xml version="1.0" encoding="iso-8859-1"?>\n'
                                + page("Déjà vu. " + EN), None)
    assert "Déjà vu. " + EN in one_line(article.text)


def test_broken_markup(extractor: Extractor) -> None:
    body = (b"<html><body><p>First <b>bold <i>both</b> italic</i></p></div></div>"
            b"<p><div>inside a paragraph</div></p><ul><li>one<li>two</body>")
    article = extractor.extract(body, None)
    assert article.reason is None
    text = one_line(article.text)
    for piece in ("First bold both italic", "inside a paragraph", "one", "two"):
        assert piece in text


@pytest.mark.parametrize("tag", ["div", "b", "font"])
def test_50000_deep_nesting_keeps_the_paragraph(extractor: Extractor, tag: str) -> None:
    body = ("<html><body>" + f"<{tag}>" * 50_000 + "<p>" + EN + "</p>"
            + f"</{tag}>" * 50_000 + "</body></html>").encode()
    article = extractor.extract(body, None)
    assert EN in one_line(article.text)


# --------------------------------------------------------------------------- unusable pages

def _png() -> bytes:
    return b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4


@pytest.mark.parametrize(("body", "reason"), [
    (b"", "empty"),
    (b"   \r\n\t \n", "empty"),
    ("", "empty"),
    (" \n ", "empty"),
    (codecs.BOM_UTF8 + b"  ", "empty"),
    (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\n", "binary"),
    (_png(), "binary"),
    (gzip.compress(page(EN).encode()), "binary"),
    (random.Random(1).randbytes(10_000), "binary"),
], ids=["empty", "whitespace", "empty-str", "whitespace-str", "bom-only", "pdf", "png", "gzip",
        "random"])
def test_not_text_gives_empty_article_with_reason(
    extractor: Extractor, body: bytes | str, reason: str
) -> None:
    article = extractor.extract(body, "http://example.test/x", content_type="text/html")
    assert article.text == ""
    assert article.reason == reason
    assert not article.ok


@pytest.mark.parametrize("body", [
    b"<html><head><title>Only a title</title></head><body></body></html>",
    b"<html><body><script>var a = 1;</script><style>p{}</style></body></html>",
    b"<!-- nothing but a comment -->",
    b"<html><frameset><frame src='a.html'></frameset></html>",
], ids=["title-only", "script-only", "comment-only", "frameset"])
def test_markup_without_text_gives_a_reason(extractor: Extractor, body: bytes) -> None:
    article = extractor.extract(body, None)
    assert article.text == ""
    assert article.reason


def test_body_over_max_bytes_is_refused(extractor: Extractor) -> None:
    limit = extractor.options.max_bytes
    body = b"<html><body>" + b"<p>word</p>" * (limit // 11 + 1)
    assert len(body) > limit
    article = extractor.extract(body, None)
    assert (article.text, article.reason) == ("", "too_large")
    assert article.nodes_total == 0  # refused before the tree was built


def test_page_with_more_text_nodes_than_max_nodes_is_refused(stub_model: Path) -> None:
    extractor = Extractor(stub_model, ExtractorOptions(max_nodes=100))
    at_limit = extractor.extract("<html><body>" + "<p>word</p>" * 100, None)
    assert at_limit.reason is None and at_limit.text.split() == ["word"] * 100
    over = extractor.extract("<html><body>" + "<p>word</p>" * 101, None)
    assert (over.text, over.reason, over.nodes_total) == ("", "too_many_nodes", 0)


_RSS_CHILD = """
import resource, sys
from newscrawl.extraction import Extractor
from newscrawl.extraction.extractor import ExtractorOptions
extractor = Extractor(sys.argv[1])
size = int(sys.argv[2])
para = b"<p>" + b"word " * 200 + b"</p>\\n"
body = b"<html><body>" + para * ((size - 40) // len(para)) + b"</body></html>"
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
article = extractor.extract(body, None)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) / 1024, len(body), article.reason, len(article.text))
"""


def test_page_just_under_max_bytes_does_not_blow_memory(stub_model: Path) -> None:
    """A page the extractor accepts must fit the 300 MB RSS budget of a whole crawl process.

    Run in a child so the peak is this page's alone.
    """
    size = Extractor(stub_model).options.max_bytes - 1000
    env = dict(os.environ, OMP_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH"))
                                          if p))
    out = subprocess.run([sys.executable, "-c", _RSS_CHILD, str(stub_model), str(size)],
                         capture_output=True, text=True, env=env, timeout=120, check=True)
    growth_mb, length, reason, text_len = out.stdout.split()
    assert int(length) <= size and reason == "None" and int(text_len) > 0
    assert float(growth_mb) < 300, (
        f"extracting a {int(length) / 1e6:.1f} MB page grew RSS by {float(growth_mb):.0f} MB"
    )


@pytest.mark.parametrize("body", [
    b"<html><body><pre>one\x0ctwo\nthree</pre><p>four<br>five\x0b six</p></body></html>",
    b"<html><body><p>seven<br>\x01eight</p></body></html>",
], ids=["pre-and-br", "br-tail"])
def test_control_characters_where_clean_edits_text_keep_the_text(
    extractor: Extractor, body: bytes
) -> None:
    """lxml refuses to store a form feed; the text around a <br> or in a <pre> must survive."""
    article = extractor.extract(body, None)
    words = [w for w in (b"one", b"two", b"three", b"four", b"five", b"six", b"seven", b"eight")
             if w in body]
    assert all(w.decode() in article.text for w in words), article.text


def test_text_swallowed_by_an_unclosed_button_is_kept(extractor: Extractor) -> None:
    # An unclosed <div> inside a <button> makes libxml2 ignore </button>: the rest of the page
    # ends up inside the button.
    page = (f"<html><body><header><div><button class=menu><span>Menu</span><div class=inner>"
            f"<div> </button></div></header>"
            f"<main><article><h1>Breakwater late</h1><p>{EN}</p><p>{EN[::-1]}</p></article>"
            f"</main></body></html>").encode()
    text = extractor.extract(page, "http://example.test/a").text
    assert EN in text and "Breakwater late" in text


def test_posts_served_in_noscript_are_kept_and_small_noscripts_dropped(
        extractor: Extractor) -> None:
    # Discourse and Flarum put the thread in <noscript> for clients without JavaScript.
    page = (f"<html><body><noscript><img src=pixel.gif>Enable JavaScript</noscript>"
            f"<button>Log in</button><div id=app></div><noscript><div class=post><p>{EN}</p>"
            f"</div><div class=post><p>{ZH}</p></div></noscript></body></html>").encode()
    text = extractor.extract(page, "http://example.test/t/1").text
    assert EN in text and ZH in text
    assert "Enable JavaScript" not in text and "Log in" not in text


@pytest.mark.parametrize("as_text", [False, True], ids=["utf8-bytes", "str"])
@pytest.mark.parametrize("swap", ['<script>$RC("B:0","S:0")</script>', ""])
def test_react_streamed_segments_are_read_in_place(extractor: Extractor, swap: str,
                                                   as_text: bool) -> None:
    # React 18 streaming SSR: the finished content arrives hidden at the end of the body and a
    # script (or, minified, only the shared number) says which boundary it fills. UTF-8 bytes
    # are searched for it as bytes, a str as text.
    page = (f"<html><body><header><p>Site header line</p></header><!--$?-->"
            f"<template id=\"B:0\"></template><!--/$--><footer><p>Footer line</p></footer>"
            f"<div hidden id=\"S:0\"><article><p>{EN}</p></article></div>{swap}"
            f"</body></html>")
    text = extractor.extract(page if as_text else page.encode(), "http://example.test/a").text
    assert EN in text
    assert text.index("Site header line") < text.index(EN) < text.index("Footer line")


def test_text_around_a_moved_react_segment_stays_where_it_was(extractor: Extractor) -> None:
    page = (f"<html><body><div><p>Site header line</p><template id=\"B:0\"></template>Words "
            f"after the boundary<p>Middle paragraph</p>Words before the segment"
            f"<div hidden id=\"S:0\"><article><p>{EN}</p></article></div>Words after the "
            f"segment<p>Last paragraph</p></div></body></html>").encode()
    text = one_line(extractor.extract(page, "http://example.test/a").text)
    order = ["Site header line", EN, "Words after the boundary", "Middle paragraph",
             "Words before the segment", "Words after the segment", "Last paragraph"]
    assert [text.index(piece) for piece in order] == sorted(text.index(p) for p in order), text
