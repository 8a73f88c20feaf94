"""News pages: a headline under its kicker, agencies and outlets in bylines (issue 32).

Pages written here for the patterns, not copied from any publisher."""

from __future__ import annotations

import gzip
import json
import logging
from collections import Counter
from pathlib import Path

from newscrawl.evaluation.datasets import load_pages
from newscrawl.evaluation.metadata_eval import _author_set
from newscrawl.extraction.metadata import Metadata, extract_metadata
from newscrawl.extraction.metadata.authors import clean_authors
from newscrawl.extraction.parse import parse

URL = "https://zeitung.example/politik/story-123.html"
LEAD = "<p>" + "Der Bundestag hat am Donnerstag lange über den Antrag beraten. " * 4 + "</p>"


def meta(head: str, body: str) -> Metadata:
    markup = (f'<html lang="de"><head>{head}</head>'
              f"<body><article>{body}{LEAD}</article></body></html>")
    return extract_metadata(parse(markup), URL)


def og(title: str) -> str:
    return f'<meta property="og:title" content="{title}">'


def test_kicker_and_headline_read_as_the_page_speaks_them():
    # the eye sees two lines; screen readers hear "Kicker: Headline", as og:title writes it
    h1 = ('<h1><span class="article-heading__kicker">Haushalt</span><span class="visually-hidden">'
          ': </span><span class="article-heading__title">Streit um die Schuldenbremse</span></h1>')
    assert meta(og("Haushalt: Streit um die Schuldenbremse"), h1).title == (
        "Haushalt: Streit um die Schuldenbremse")
    # a declared title without the kicker: the headline alone
    assert meta("<title>Streit um die Schuldenbremse</title>", h1).title == (
        "Streit um die Schuldenbremse")


def test_kicker_the_declared_title_leaves_out_is_left_out():
    h1 = ('<h1><span class="headline-kicker">Eskalation im Nahen Osten</span>'
          '<span class="headline-text">Die Zurückhaltung hat ein Ende</span></h1>')
    assert meta(og("Die Zurückhaltung hat ein Ende"), h1).title == "Die Zurückhaltung hat ein Ende"


def test_plain_first_span_is_a_kicker_only_when_the_declared_title_is_the_rest():
    h1 = "<h1><span>Exklusiv</span> <span>Der Minister tritt zurück</span></h1>"
    assert meta(og("Der Minister tritt zurück"), h1).title == "Der Minister tritt zurück"
    # a product name in a span is part of the name
    h1 = "<h1><span>KALLAX</span> <span>Regal, weiß, 77x147 cm</span></h1>"
    assert meta(og("KALLAX Regal, weiß, 77x147 cm"), h1).title == "KALLAX Regal, weiß, 77x147 cm"


def test_overline_above_the_h1_joins_the_headline_as_the_declared_title_does():
    body = '<div class="overline">Kenia</div><h1>Nairobi von unten</h1>'
    assert meta(og("Kenia: Nairobi von unten"), body).title == "Kenia: Nairobi von unten"
    # a breadcrumb's link above the <h1> is no kicker, nor a section before a dash
    body = '<nav><a href="/kenia/">Kenia</a></nav><h1>Nairobi von unten</h1>'
    assert meta(og("Kenia: Nairobi von unten"), body).title == "Nairobi von unten"
    body = '<div class="overline">Kenia</div><h1>Nairobi von unten</h1>'
    assert meta(og("Kenia - Nairobi von unten"), body).title == "Nairobi von unten"


def test_kicker_in_title_before_the_h1_is_not_the_page_name_when_og_title_is_the_h1():
    head = (og("Nordmann dømt til livstid")
            + "<title>«Evnukkmakeren»: - Nordmann dømt til livstid</title>")
    body = ('<div class="kicker">«Evnukkmakeren»:</div>'
            "<h1>Nordmann dømt <span>til livstid</span></h1>")
    assert meta(head, body).title == "Nordmann dømt til livstid"


def test_a_kicker_in_capitals_before_a_pipe_gives_way_to_the_headline():
    title = "HAUSHALT 2.0 | Bund streicht Förderung für neue Radwege"
    head = og(title) + f"<title>{title}</title>"
    assert meta(head, f"<h1><span>{title}</span></h1>").title == (
        "Bund streicht Förderung für neue Radwege")
    # a descriptor after the headline is still cut
    head = og("Streit um die Schuldenbremse | Politik")
    assert meta(head, "<h1>Streit um die Schuldenbremse | Politik</h1>").title == (
        "Streit um die Schuldenbremse")


PROSE = ["Der Stadtrat hat am Dienstag nach langer Debatte beschlossen, die alte Brücke über den "
         "Fluss im Frühjahr zu schließen, weil Gutachter Risse in zwei Pfeilern gefunden haben.",
         "Der Verkehr soll über die nördliche Ringstraße umgeleitet werden, was die Fahrzeit für "
         "Pendler nach Angaben des Verkehrsamts um etwa zehn Minuten verlängern dürfte.",
         "Geschäftsleute auf beiden Ufern befürchten, während der Bauarbeiten Kundschaft zu "
         "verlieren, und fordern einen Ausgleich für die Monate bis zum Ende des Sommers."]


def signed(signature: str, where: str = "above", declared: str = "article") -> Metadata:
    """A story signed by a bold paragraph of its own, the site's name its only other byline."""
    prose = "".join(f"<p>{p}</p>" for p in PROSE)
    sign = f"<p><strong>{signature}</strong></p>"
    body = sign + prose if where == "above" else prose + sign
    markup = (f'<html lang="de"><head><meta property="og:type" content="{declared}">'
              '<meta property="og:site_name" content="Stadtblatt"></head><body><article>'
              f'<h1>Brücke wird geschlossen</h1><span class="byline">Stadtblatt</span>'
              f'<div class="entry-content">{body}</div></article></body></html>')
    return extract_metadata(parse(markup), URL)


def test_a_story_signed_by_a_bold_paragraph_is_by_its_signatories():
    assert signed("Mohloai Mpesi").authors == ("Mohloai Mpesi",)
    assert signed("Lê Phương", where="below").authors == ("Lê Phương",)
    assert signed("Thandi Mokoena/Pieter Botha").authors == ("Thandi Mokoena", "Pieter Botha")


def test_a_bold_subheading_or_a_page_that_is_no_story_is_not_signed():
    # words of the page, a label in lower case, and a page declaring no story
    assert signed("Langer Umweg").authors != ("Langer Umweg",)  # "nach langer Debatte"
    assert signed("Umweg über den Ring").authors != ("Umweg über den Ring",)
    assert signed("Mohloai Mpesi", declared="website").authors != ("Mohloai Mpesi",)


def test_news_agencies_are_writers_of_news_pages():
    assert clean_authors(["SID"]) == ("SID",)
    assert clean_authors(["Von dpa"]) == ("dpa",)
    assert clean_authors(["Von Jane Doe, AFP"]) == ("Jane Doe", "AFP")
    # capitals that are no agency are still a credential
    assert clean_authors(["PhD"]) == ()
    body = '<h1>Der Minister tritt zurück</h1><p class="byline">Von Erika Muster</p>'
    # an agency declared alone gives way to the writer the byline names ...
    assert meta('<meta name="author" content="AFP">', body).authors == ("Erika Muster",)
    # ... and is the author when nobody else is named
    assert meta('<meta name="author" content="AFP">', "<h1>Der Minister tritt zurück</h1>"
                ).authors == ("AFP",)
    # a byline that names the agency: a writer's line further on wins
    body = '<h1>Der Minister tritt zurück</h1><p class="author">dpa</p><p>Von Erika Muster</p>'
    assert meta("", body).authors == ("Erika Muster",)


def test_an_outlet_listed_beside_its_writer_is_not_a_writer():
    head = '<meta name="author" content="한국일보"><meta name="author" content="신현주 기자">'
    assert meta(head, "<h1>제목</h1>").authors == ("신현주",)


def test_a_follow_button_is_no_byline():
    body = ('<h1>Der Minister tritt zurück</h1><div><a class="followAuthorBtn" href="/themen/">'
            'Themen bearbeiten</a></div>')
    assert meta('<meta property="og:site_name" content="Zeitung">', body).authors == ()


def test_scorer_keeps_an_agency_alone_and_drops_a_credential_after_a_name():
    assert _author_set("AFP") == {"afp"}
    assert _author_set(["Jane Doe", "PhD"]) == {"jane doe"}
    assert _author_set("Jane Doe, MD") == {"jane doe"}


def test_loader_reads_the_authors_list_where_a_set_gives_one(tmp_path: Path) -> None:
    base = tmp_path / "dev"
    (base / "html").mkdir(parents=True)
    (base / "ground-truth").mkdir()
    (base / "html" / "x.html.gz").write_bytes(gzip.compress(b"<html><body><p>x</p></body></html>"))
    truth = {"title": "T", "author": "Jane Doe, Jr, John Roe",
             "authors": ["Jane Doe, Jr", "John Roe"],
             "publish_date": "2024-01-02T10:00:00+01:00", "main_content": "x"}
    (base / "ground-truth" / "x.json").write_text(json.dumps({"url": "https://a.example/x",
                                                              "ground_truth": truth}))
    (page,) = load_pages(tmp_path)
    assert page.meta["author"] == ["Jane Doe, Jr", "John Roe"]


def test_rules_are_named_and_counted_when_asked():
    h1 = ('<h1><span class="kicker">Haushalt</span><span>Streit um die Schuldenbremse</span></h1>'
          '<p class="byline">Von dpa</p>')
    head = og("Streit um die Schuldenbremse")
    markup = f"<html><head>{head}</head><body>{h1}{LEAD}</body></html>"
    fired: Counter[str] = Counter()
    found = extract_metadata(parse(markup), URL, rules=fired)
    assert found.title == "Streit um die Schuldenbremse"
    assert fired["title.h1_lead_in"] == 1
    assert fired["authors.dom.outlet_or_agency"] == 1
    assert not any(rule.startswith("published.") for rule in fired)
    # without a counter nothing is kept between calls
    assert extract_metadata(parse(markup), URL) == found


def test_a_rule_switched_off_decides_nothing():
    h1 = '<h1><span class="kicker">Haushalt</span><span>Streit um die Schuldenbremse</span></h1>'
    markup = (f"<html><head>{og('Streit um die Schuldenbremse')}</head>"
              f"<body>{h1}{LEAD}</body></html>")
    fired: Counter[str] = Counter()
    found = extract_metadata(parse(markup), URL, rules=fired,
                             off=frozenset({"title.h1_lead_in"}))
    assert found.title == "Haushalt Streit um die Schuldenbremse"
    assert fired["title.h1"] == 1 and "title.h1_lead_in" not in fired
    assert extract_metadata(parse(markup), URL).title == "Streit um die Schuldenbremse"


def test_a_rule_that_raises_is_logged_and_counted_not_silent(monkeypatch, caplog):
    import newscrawl.extraction.metadata as package

    def broken(*args):
        raise TypeError("a bug")

    monkeypatch.setattr(package, "_choose_title", broken)
    fired: Counter[str] = Counter()
    with caplog.at_level(logging.WARNING, logger="newscrawl.extraction.metadata"):
        found = extract_metadata(parse(f"<html><body><h1>Titel</h1>{LEAD}</body></html>"),
                                 URL, rules=fired)
    assert found.title is None and found.language is None
    assert fired["title.error"] == 1
    assert "reading title failed" in caplog.text and "TypeError: a bug" in caplog.text


def test_a_headline_set_as_h3_anchors_the_byline_of_a_page_without_h1():
    # a broadcaster's page: no <h1>, the headline is an <h3>, the writer under it
    body = ('<h3><span class="roofline">Premiere</span> <span class="titletext">Altes Hotel '
            "öffnet als Theater seine Pforten</span></h3>"
            '<div class="lineinfo">Do 25.04.24 | 14:07 Uhr | Von '
            '<span class="authorname">Eva Muster</span></div>')
    # teasers of other stories above it, each with its writer
    teasers = "".join(f'<div class="teaser"><a href="/s{k}">Meldung {k}</a>'
                      f'<span class="author">Anna Andere{k}</span></div>' for k in range(3))
    page = meta(og("Altes Hotel öffnet als Theater seine Pforten"), teasers + body)
    assert page.authors == ("Eva Muster",)


def test_a_story_stream_gives_each_headline_the_byline_of_its_own_article():
    # a stream of short posts, each an <article> with its byline above its headline: the
    # byline just below the page's headline is the next post's
    def post(writer: str, headline: str) -> str:
        return (f'<article class="post"><header><h3 class="byline"><a itemprop="author" '
                f'href="/authors/{writer.lower().replace(" ", "-")}">{writer}</a></h3></header>'
                f"<h1>{headline}</h1><p>{'Words about the matter at hand. ' * 12}</p></article>")
    markup = ("<html><head>" + og("The first post") + "</head><body>"
              + post("Jane Roe", "The first post") + post("John Poe", "The second post")
              + "</body></html>")
    assert extract_metadata(parse(markup), URL).authors == ("Jane Roe",)
    # one story without <article> elements: the byline below the headline, as before
    flat = ("<html><head>" + og("A story") + "</head><body><h1>A story</h1>"
            '<div class="byline">By Jane Roe</div>' + LEAD + "</body></html>")
    assert extract_metadata(parse(flat), URL).authors == ("Jane Roe",)


def test_a_blog_banner_linked_to_its_front_page_is_no_headline():
    # the blog's name as an <h1> inside a link to the blog, which <title> also names; the
    # post's headline is an <h2> that og:title gives whole
    banner = '<a href="/blog/"><h1 class="banner"><span>The Blog:</span> Notes on Food</h1></a>'
    post = "<h2>Why the Chickpea Conquered the World</h2>"
    head = (og("Why the Chickpea Conquered the World")
            + "<title>Chickpeas - The Blog - Zeitung</title>")
    markup = f"<html><head>{head}</head><body>{banner}<div>{post}{LEAD}</div></body></html>"
    assert extract_metadata(parse(markup), URL).title == "Why the Chickpea Conquered the World"
    # a headline that links to its own story and agrees with og:title is still the headline
    linked = '<a href="/politik/story-123.html"><h1>Why the Chickpea Conquered the World</h1></a>'
    markup = f"<html><head>{head}</head><body>{linked}{LEAD}</body></html>"
    assert extract_metadata(parse(markup), URL).title == "Why the Chickpea Conquered the World"


def test_drupal_rdfa_names_the_writer():
    # Drupal's RDF mapping marks a node's writer rel="sioc:has_creator", no class or itemprop
    body = ('<h1>Der Minister tritt zurück</h1><div class="date"><time>21.12.2016</time>'
            '<span> | von <span rel="sioc:has_creator"><a href="/users/eva-muster" '
            'typeof="sioc:UserAccount" property="foaf:name">Eva Muster</a></span></span></div>')
    assert meta("", body).authors == ("Eva Muster",)


def test_a_link_keyed_by_an_author_id_is_a_byline():
    # no class, no rel, a profile URL of no known shape: the CMS's data-author marks it
    body = ('<header><h1>Der Minister tritt zurück</h1><ul class="h_lst"><li>'
            '<a data-author="8579" href="/User/EvaMuster">Eva Muster</a> - '
            '<time>vor 4 Stunden</time></li></ul></header>')
    assert meta("", body).authors == ("Eva Muster",)
    # an empty data-author is no hint
    assert meta("", body.replace('data-author="8579"', 'data-author=""')).authors == ()
