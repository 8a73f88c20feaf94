"""The JSON-LD walk: which typed nodes are found, in what order, how deep."""

from __future__ import annotations

from newscrawl.extraction.meta_jsonld import _walk


def test_walk_is_top_down_in_document_order():
    data = {"@graph": [
        {"@type": "WebPage", "@id": "p", "breadcrumb": {"@type": "BreadcrumbList",
                                                       "itemListElement": [{"@type": "ListItem"}]}},
        {"@type": "NewsArticle", "author": [{"@type": "Person"}, "x", 3],
         "articleBody": {"@type": "Skipped"}},
    ]}
    assert [n["@type"] for n in _walk(data)] == [
        "WebPage", "BreadcrumbList", "ListItem", "NewsArticle", "Person"]


def test_walk_stops_six_levels_down():
    node: dict = {"@type": "Leaf"}
    for _ in range(8):
        node = {"@type": "Level", "child": node}
    assert len(_walk(node)) == 7  # levels 0..6
