"""Every field's rules are named, counted and can be switched off; the ablation weighs them."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from newscrawl.evaluation.metadata_ablate import ablate, format_ablation, held_out_delta
from newscrawl.extraction.metadata import extract_metadata
from newscrawl.extraction.parse import parse

URL = "https://blog.example/2024/05/ein-beitrag"
LEAD = "<p>" + "Der Bundestag hat am Donnerstag lange über den Antrag beraten. " * 4 + "</p>"
LD = ('<script type="application/ld+json">{"@type": "NewsArticle", "headline": "Ein Beitrag",'
      ' "publisher": {"@type": "Organization", "name": "Das Blog"}}</script>')
HEAD = ('<meta name="application-name" content="Blog-App">'
        '<meta name="keywords" content="Politik, Haushalt">'
        '<meta property="og:image" content="/bild.jpg">'
        '<meta name="description" content="Worum es geht.">'
        '<meta property="article:section" content="Uncategorized">'
        '<meta name="category" content="Inland">')
PAGE = (f'<html lang="de_de"><head>{HEAD}{LD}</head>'
        f"<body><h1>Ein Beitrag</h1>{LEAD}</body></html>")


def test_the_declared_fields_name_the_rule_that_decided_them():
    fired: Counter[str] = Counter()
    found = extract_metadata(parse(PAGE), URL, rules=fired)
    assert (found.site_name, found.language, found.tags) == (
        "Das Blog", "de-DE", ("Politik", "Haushalt"))
    assert found.image == "https://blog.example/bild.jpg"
    # a template's placeholder names no section: the next declaration does
    assert found.section == "Inland"
    for rule in ("site_name.jsonld_publisher", "language.html_lang", "tags.meta:keywords",
                 "image.meta:og:image", "description.meta:description",
                 "section.placeholder", "section.meta:category", "page_type.jsonld"):
        assert fired[rule] == 1, rule


def test_a_source_or_a_filter_switched_off_leaves_the_field_to_the_next():
    off = frozenset({"site_name.jsonld_publisher", "section.placeholder", "tags.meta:keywords",
                     "language.html_lang"})
    fired: Counter[str] = Counter()
    found = extract_metadata(parse(PAGE), URL, rules=fired, off=off)
    assert found.site_name == "Blog-App" and fired["site_name.meta:application-name"] == 1
    assert found.section == "Uncategorized"
    assert found.tags == () and found.language is None
    assert not fired.keys() & off


def _readability_set(root: Path) -> None:
    """Two pages in Readability's layout: one whose site name only JSON-LD gives, one without."""
    pages = {"a": (PAGE, {"title": "Ein Beitrag", "siteName": "Das Blog"}),
             "b": (f"<html><head>{HEAD}</head><body><h1>Zweiter</h1>{LEAD}</body></html>",
                   {"title": "Zweiter", "siteName": "Blog-App"})}
    for name, (markup, meta) in pages.items():
        (root / name).mkdir()
        (root / name / "source.html").write_text(markup, "utf-8")
        (root / name / "expected-metadata.json").write_text(json.dumps(meta), "utf-8")


def test_the_ablation_weighs_each_rule_with_it_switched_off(tmp_path):
    _readability_set(tmp_path)
    result = ablate([str(tmp_path)])
    assert result["sets"][tmp_path.name]["pages"] == 2
    publisher = result["rules"]["site_name.jsonld_publisher"][tmp_path.name]
    # decided page a rightly; off, application-name's "Blog-App" is wrong there
    assert (publisher["decided"], publisher["right"], publisher["lost"]) == (1, 1, 1)
    app = result["rules"]["site_name.meta:application-name"][tmp_path.name]
    assert (app["decided"], app["right"], app["lost"]) == (1, 1, 1)
    # a set of Readability's is no held-out set: nothing counts as held out
    assert held_out_delta(result, "site_name.jsonld_publisher") == 0
    assert "site_name.jsonld_publisher" in format_ablation(result)


def test_held_out_pages_are_fundus_dev_and_one_half_of_wcxb_by_domain():
    from newscrawl.evaluation.datasets import Page
    from newscrawl.evaluation.metadata_ablate import split_of

    news = Page("x", b"", url="https://a.example/1", meta={"publisher": "A"})
    assert split_of("fundus-dev", news) == ("fundus-dev", True)
    halves = {split_of("wcxb-dev", Page(str(i), b"", url=f"https://site{i}.example/p"))
              for i in range(40)}
    assert halves == {("wcxb-dev:A", False), ("wcxb-dev:B", True)}
    # a domain's pages share a half, whatever their path
    one = {split_of("wcxb-dev", Page(str(i), b"", url=f"https://www.site7.example/{i}"))
           for i in range(5)}
    assert len(one) == 1
    assert split_of("readability-pages", Page("r", b"", url="http://fakehost/r/")) == (
        "readability-pages", False)


def test_tags_are_scored_as_sets():
    from newscrawl.evaluation.metadata_eval import _score

    assert _score("tags", ("Politik", "Haushalt"), ["haushalt", "politik"]) == (1.0, 1.0)
    exact, f1 = _score("tags", ("Politik",), ["Politik", "Haushalt"])
    assert exact == 0.0 and abs(f1 - 2 / 3) < 1e-9
    assert _score("tags", (), ["Politik"]) == (0.0, 0.0)


def test_a_date_is_scored_on_the_golds_calendar():
    from newscrawl.evaluation.metadata_eval import _score

    # the same moment written in UTC is the gold's day in the gold's zone
    assert _score("published", "2017-02-24T01:18:13+00:00", "2017-02-23T17:18:13-08:00")[0] == 1
    assert _score("published", "2017-02-24T09:00:00+00:00", "2017-02-23T17:18:13-08:00")[0] == 0
    assert _score("published", "2017-02-23", "2017-02-23T17:18:13-08:00")[0] == 1
    # a gold date given to the month is matched to the month, not never
    assert _score("published", "1996-06-12", "1996-6")[0] == 1
    assert _score("published", "1996-07-12", "1996-6")[0] == 0
    assert _score("published", None, "1996-6")[0] == 0
