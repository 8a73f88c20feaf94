"""Next.js pages that carry their article only in the framework's data, not in the DOM."""

from __future__ import annotations

import json

import pytest

from newscrawl import extract

PARAGRAPHS = [
    "The regional parliament approved the new budget late on Thursday after a debate that "
    "lasted more than eleven hours and ended with a narrow majority of four votes.",
    "Opposition members said the plan cut too deeply into school funding, while the finance "
    "minister argued that the deficit left no other choice this year.",
    "The budget now goes to the upper chamber, which is expected to vote on it next month "
    "after hearing from the mayors of the largest cities.",
]
BODY_HTML = "".join(f'<p class="editor-p">{p}</p>' for p in PARAGRAPHS)
URL = "https://news.example/news/article/A2025031412000001"
HEAD = ("<head><title>Parliament approves budget</title>"
        '<meta property="og:type" content="article"></head>')
SPINNER = '<main><template id="B:0"></template><div class="spinner"></div></main>'


def push(chunk: str) -> str:
    return f"<script>self.__next_f.push({json.dumps([1, chunk])})</script>"


def flight_page(body: str = SPINNER) -> bytes:
    """An App Router page whose article HTML is a text row of the RSC payload, named by the
    dehydrated query state as ``"$24"``, the rows split across pushes mid-row."""
    text_row = BODY_HTML.encode()
    state = json.dumps([["$", "div", None, {"state": {"data": {"detail": {
        "title": "Parliament approves budget", "contentHtml": "$24",
        "subTitle": "A narrow majority<br>after eleven hours"}}}}]])
    flight = (f'1:"$Sreact.fragment"\n3:I[13578,[],""]\n:HL["/font.woff2","font"]\n'
              f"24:T{len(text_row):x},{BODY_HTML}5:{state}\n")
    half = len(flight) // 2
    return (f"<!DOCTYPE html><html>{HEAD}<body>{body}"
            "<script>(self.__next_f=self.__next_f||[]).push([0])</script>"
            f"{push(flight[:half])}{push(flight[half:])}</body></html>").encode()


@pytest.mark.parametrize("as_text", [False, True], ids=["utf8-bytes", "str"])
def test_an_article_only_in_the_rsc_payload_is_extracted(as_text: bool) -> None:
    # Bytes that decode as UTF-8 are searched as bytes; a str (or another codec) as text.
    page = flight_page()
    article = extract(page.decode() if as_text else page, url=URL)
    assert article.reason is None
    assert all(p in article.text for p in PARAGRAPHS)


def test_an_article_only_in_next_data_is_extracted() -> None:
    data = json.dumps({"props": {"pageProps": {"article": {"body": BODY_HTML}}}})
    page = (f"<!DOCTYPE html><html>{HEAD}<body>{SPINNER}"
            f'<script id="__NEXT_DATA__" type="application/json">{data}</script>'
            "</body></html>").encode()
    article = extract(page, url=URL)
    assert all(p in article.text for p in PARAGRAPHS)


def test_a_page_rendered_on_the_server_is_read_once() -> None:
    shown = f"<main><article><h1>Parliament approves budget</h1>{BODY_HTML}</article></main>"
    article = extract(flight_page(body=shown), url=URL)
    assert all(article.text.count(p) == 1 for p in PARAGRAPHS)


def test_a_payload_nested_past_the_stack_is_passed_over() -> None:
    deep = "[" * 200_000 + "]" * 200_000
    row = push("0:" + deep + "\n")
    page = (f"<!DOCTYPE html><html>{HEAD}<body>{SPINNER}"
            f'<script id="__NEXT_DATA__" type="application/json">{deep}</script>'
            f"{row}</body></html>").encode()
    article = extract(page, url=URL)
    assert article.reason in ("no_text", "no_content")
