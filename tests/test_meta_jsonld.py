"""The JSON-LD walk: which typed nodes are found, in what order, how deep."""

from __future__ import annotations

import json

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


def test_every_article_subtype_of_schema_org_is_an_article():
    # schema.org names them "...NewsArticle"; "ReportageNews" was misspelt here, so Folha de
    # S.Paulo's "ReportageNewsArticle" fell through to its microdata, whose author is the paper.
    from newscrawl.extraction.meta_jsonld import read_jsonld

    for kind in ("NewsArticle", "ReportageNewsArticle", "AnalysisNewsArticle",
                 "OpinionNewsArticle", "ReviewNewsArticle", "BackgroundNewsArticle",
                 "AskPublicNewsArticle", "Article", "AdvertiserContentArticle", "Report",
                 "SatiricalArticle", "ScholarlyArticle", "MedicalScholarlyArticle",
                 "SocialMediaPosting", "BlogPosting", "LiveBlogPosting",
                 "DiscussionForumPosting", "TechArticle", "APIReference"):
        script = json.dumps({"@context": "https://schema.org", "@type": kind,
                             "headline": "Tite diz",
                             "author": [{"@type": "Person", "name": "Bruno Rodrigues"}]})
        ld = read_jsonld([script])
        assert ld is not None and ld.authors == ["Bruno Rodrigues"], kind
