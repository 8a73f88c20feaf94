"""The Mercury-labelled news set reads each saved page as its site served it."""

from __future__ import annotations

from newscrawl.evaluation.mercury import served
from newscrawl.extraction.extractor import page_nodes

SAVED = b"""<html><head><title>Storm hits coast</title>
<meta value="article" name="og:type"><meta value="Storm hits coast" name="og:title">
<meta value="2016-12-01T10:00:00Z" name="article:published_time">
<meta value="width=device-width" name="viewport"></head>
<body><article><h1>Storm hits coast</h1><p>Heavy rain fell overnight.</p></article></body></html>"""


def test_meta_tags_rewritten_by_the_fixture_saver_declare_the_page_again() -> None:
    page = served(SAVED)
    assert b'<meta content="article" property="og:type">' in page
    assert b'<meta content="width=device-width" name="viewport">' in page
    meta = page_nodes(page, "https://news.example/2016/12/01/storm").meta
    assert meta.page_type == "article"
    assert meta.published and meta.published.startswith("2016-12-01")
    assert page_nodes(SAVED, "https://news.example/2016/12/01/storm").meta.page_type != "article"
