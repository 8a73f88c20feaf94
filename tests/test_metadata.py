"""Metadata: every source on a small hand-written page, cleaning rules, hostile values, and
floors on a fixed WCXB sample."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from compiledutil import compiled_walks

from newscrawl.extraction.dates import parse_date, url_date
from newscrawl.extraction.metadata import Metadata, extract_metadata, normalise_language
from newscrawl.extraction.metadata.authors import clean_authors, invert_name
from newscrawl.extraction.parse import parse

FIXTURES = Path(__file__).parent / "fixtures" / "metadata"
WCXB = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wcxb-dev"


def meta(markup: str, url: str | None = "https://news.example/story") -> Metadata:
    return extract_metadata(parse(markup), url)


def page(head: str = "", body: str = "", lang: str = "en") -> str:
    return f'<html lang="{lang}"><head>{head}</head><body>{body}</body></html>'


def ld(obj: str) -> str:
    return f'<script type="application/ld+json">{obj}</script>'


# --- JSON-LD ---------------------------------------------------------------------------------

def test_jsonld_newsarticle_fields():
    m = meta(page(ld("""{"@context": "https://schema.org", "@type": "NewsArticle",
        "headline": "Council approves budget", "author": {"@type": "Person", "name": "Jane Doe"},
        "datePublished": "2024-03-05T10:00:00-05:00", "dateModified": "2024-03-06",
        "inLanguage": "en-GB", "description": "The vote was close.",
        "publisher": {"@type": "Organization", "name": "Daily Example"},
        "image": {"@type": "ImageObject", "url": "https://news.example/a.jpg"},
        "keywords": "budget, council", "articleSection": "Politics",
        "articleBody": "The council voted on Tuesday."}"""), lang=""))
    assert m.title == "Council approves budget"
    assert m.authors == ("Jane Doe",)
    assert m.published == "2024-03-05T10:00:00-05:00"
    assert m.modified == "2024-03-06"
    assert m.language is None  # inLanguage: no page of four sets needed it
    assert m.site_name == "Daily Example"
    assert m.image == "https://news.example/a.jpg"
    assert m.tags == ("budget", "council")
    assert m.section == "Politics"
    assert m.page_type == "newsarticle"
    assert m.article_body == "The council voted on Tuesday."


def test_jsonld_graph_with_id_references_and_list_of_authors():
    m = extract_metadata(parse((FIXTURES / "news_graph.html").read_text("utf-8")),
                         "https://zeitung.example/lokales/radweg-123")
    assert m.title == "Stadtrat beschließt neuen Radweg"  # the article's <h1>, not the logo's
    assert m.authors == ("Erika Mustermann", "Max Muster")
    assert m.published == "2024-03-05T09:30:00+01:00"
    assert m.modified == "2024-03-06T08:00:00+01:00"
    assert m.language == "de-DE"
    assert m.site_name == "Musterstädter Zeitung"
    assert m.image == "https://zeitung.example/bilder/radweg.jpg"
    assert m.tags == ("Verkehr", "Stadtrat")
    assert m.section == "Lokales"
    assert m.canonical_url == "https://zeitung.example/lokales/radweg-123"
    assert m.page_type == "newsarticle"
    assert m.article_body and m.article_body.startswith("Der Stadtrat")


def test_jsonld_top_level_list_and_blogposting_with_author_strings():
    m = meta(page(ld("""[{"@type": "BreadcrumbList", "itemListElement": []},
        {"@type": "BlogPosting", "headline": "Notes", "author": ["Ann Lee", "Bob Ray"],
         "datePublished": "2023-11-02"}]""")))
    assert m.authors == ("Ann Lee", "Bob Ray")
    assert m.published == "2023-11-02"
    assert m.page_type == "blogposting"


def test_jsonld_nested_main_entity_and_organization_author_as_last_resort():
    m = meta(page(ld("""{"@type": "WebPage", "name": "Page",
        "mainEntity": {"@type": "Article", "headline": "Release notes",
                       "author": {"@type": "Organization", "name": "Acme Labs"},
                       "datePublished": "2022-01-10"}}""")))
    assert m.title == "Release notes"
    assert m.authors == ("Acme Labs",)
    assert m.published == "2022-01-10"


def test_person_author_beats_organization_and_site_name_author_is_last_resort():
    m = meta(page(
        '<meta property="og:site_name" content="Daily Example"><meta name="author" '
        'content="Daily Example">',
        '<h1>Storm hits coast</h1><div class="byline">By Sam Field</div>'))
    assert m.authors == ("Sam Field",)


def test_malformed_jsonld_is_skipped_and_the_rest_kept():
    m = meta(page(
        ld('{"@type": "NewsArticle", "headline": "Broken", "author": ') +
        ld('<![CDATA[{"@type": "NewsArticle", "datePublished": "2021-05-04"}]]>') +
        ld('{"@type": "NewsArticle", "author": {"name": {"weird": 1}}, "datePublished": 42}') +
        '<meta property="og:title" content="Fine title">'))
    assert m.title == "Fine title"
    assert m.published == "2021-05-04"


def test_jsonld_with_trailing_semicolon_and_two_objects():
    m = meta(page(ld('{"@type": "Article", "headline": "One"} {"@type": "Person", "name": "X"};')))
    assert m.title == "One"


# --- OpenGraph, article:*, Twitter, meta name / itemprop --------------------------------------

def test_opengraph_and_article_tags():
    m = meta(page(
        '<meta property="og:title" content="OG headline">'
        '<meta property="og:description" content="OG description">'
        '<meta property="og:image" content="https://cdn.example/i.png">'
        '<meta property="og:locale" content="fr_FR">'
        '<meta property="og:url" content="https://news.example/og">'
        '<meta property="og:type" content="article">'
        '<meta property="article:published_time" content="2024-01-02T03:04:05Z">'
        '<meta property="article:modified_time" content="2024-01-03T03:04:05+02:00">'
        '<meta property="article:author" content="https://facebook.com/someone">'
        '<meta property="article:section" content="World">'
        '<meta property="article:tag" content="A"><meta property="article:tag" content="B">',
        lang=""))
    assert m.title == "OG headline"
    assert m.description == "OG description"
    assert m.language == "fr-FR"
    assert m.published == "2024-01-02T03:04:05+00:00"
    assert m.modified == "2024-01-03T03:04:05+02:00"
    assert m.authors == ()  # a profile URL is not a name
    assert m.section == "World"
    assert m.tags == ("A", "B")
    assert m.canonical_url == "https://news.example/og"
    assert m.page_type == "article"


def test_twitter_cards_and_written_by_label():
    m = meta(page(
        '<meta name="twitter:title" content="Tweet title">'
        '<meta name="twitter:description" content="Tweet description">'
        '<meta name="twitter:image" content="/t.png">'
        '<meta name="twitter:label1" content="Written by">'
        '<meta name="twitter:data1" content="Kim Park">'))
    assert m.title == "Tweet title"
    assert m.description is None  # og:description or the page's own, not the card's
    assert m.image == "https://news.example/t.png"
    assert m.authors == ("Kim Park",)


def test_meta_name_and_itemprop():
    m = meta(page(
        '<meta name="author" content="By Lee Chan, Staff Writer">'
        '<meta name="pubdate" content="20240305">'
        '<meta name="keywords" content="one, two">',
        '<div itemscope itemtype="https://schema.org/Article">'
        '<h1 itemprop="headline">Item headline</h1>'
        '<meta itemprop="dateModified" content="2024-03-07"></div>'))
    assert m.authors == ("Lee Chan",)
    assert m.published == "2024-03-05"
    assert m.modified == "2024-03-07"
    assert m.tags == ("one", "two")
    assert m.title == "Item headline"


def test_rdfa_property_lists_and_dublin_core_prefix():
    m = meta(page('<meta property="og:title twitter:title" content="Listed title">'
                  '<meta property="og:description x:description" content="Listed text">'
                  '<meta property="dc:creator" content="Lee Chan">'))
    assert m.title == "Listed title"
    assert m.description == "Listed text"
    assert m.authors == ("Lee Chan",)


def test_itemprop_author_with_nested_name():
    m = meta(page(body='<article><h1>T</h1><span itemprop="author" itemscope>'
                       '<span itemprop="name">Ola Nordmann</span></span></article>'))
    assert m.authors == ("Ola Nordmann",)


@pytest.mark.parametrize(("opening", "author"), [
    # XenForo: the label before the name, under the title
    ('<ul><li><span class="u-srOnly">Thread starter</span> <a href="/members/sean_g.81409/" '
     'class="username">sean_g</a></li><li>Start date Feb 25, 2024</li></ul>', "sean_g"),
    # a XenForo theme's badge after the name
    ('<div class="user"><a href="/members/x.1/">xJewishNinjax</a><span>Discussion starter</span>'
     '<span>14 posts</span></div>', "xJewishNinjax"),
    # phpBB
    ('<div class="author-box"><div>Topic Author</div><a class="username">changingtimes</a>'
     '<span>Posts: 524</span></div>', "changingtimes"),
    # vBulletin
    ('<div class="thread-info">Started by Perseus Legend, Oct 21, 2022</div>', "Perseus Legend"),
])
def test_forum_thread_starter_label_names_the_author_not_the_replies(opening: str,
                                                                   author: str) -> None:
    replies = "".join(f'<article class="message"><h4><span itemprop="author">{name}</span>'
                      f"</h4><p>Reply text.</p></article>" for name in ("Ralston18", "Packard"))
    body = f'<h1>Ultimate graphics card comparison</h1>{opening}<p>Question text.</p>{replies}'
    assert meta(page(body=body)).authors == (author,)


@pytest.mark.parametrize(("post", "author"), [
    # phpBB: the member link, then "Posts:" and "Joined:"
    ('<dl class="postprofile"><dt><a href="./memberlist.php?mode=viewprofile&amp;u=1" '
     'class="username">b.scherer</a></dt><dd><strong>Posts:</strong> 2</dd>'
     '<dd><strong>Joined:</strong> Sun Dec 17, 2023</dd></dl>', "b.scherer"),
    # vBulletin 3: a session id before the member's id, a rank between
    ('<a class="bigusername" href="member.php?s=e3c9&amp;u=224387">microfast</a>'
     '<div>Registered User</div><div>Join Date: Mar 2016</div><div>Posts: 1</div>',
     "microfast"),
    # an account link on an article is no byline
    ('<a href="/members/login/">Sign in</a><p>Posts: our pick of the week</p>', None),
    ('<a href="/profile.php?id=7">Jane Roe</a><p>Posts: the ones we liked best over the year, and'
     ' why</p>', None),
])
def test_classic_forum_post_author_from_the_member_link_before_the_members_stats(
        post: str, author: str | None) -> None:
    body = f"<h2>Turning off all LED of RPi 5</h2>{post}<div><p>Hi, how do I do it?</p></div>"
    assert meta(page(body=body)).authors == ((author,) if author else ())


@pytest.mark.parametrize(("line", "author"), [
    ("Oleh: Budi Santoso", "Budi Santoso"),  # Indonesian
    ("Oleh Budi Santoso", "Budi Santoso"),
    ("Penulis: Budi Santoso", "Budi Santoso"),
    ("Yazar: Ahmet Yılmaz", "Ahmet Yılmaz"),  # Turkish
    ("Tác giả: Nguyễn Văn An", "Nguyễn Văn An"),  # Vietnamese
    ("بقلم: أحمد علي", "أحمد علي"),  # Arabic
    ("بقلم أحمد علي", "أحمد علي"),
    ("نویسنده: علی رضایی", "علی رضایی"),  # Persian
    ("מאת: דנה כהן", "דנה כהן"),  # Hebrew
    ("โดย สมชาย ใจดี", "สมชาย ใจดี"),  # Thai
    ("लेखक: राहुल शर्मा", "राहुल शर्मा"),  # Hindi
    ("Teksti: Matti Meikäläinen", "Matti Meikäläinen"),  # Finnish
    ("Kirjoittaja: Matti Meikäläinen", "Matti Meikäläinen"),
    ("Írta: Kovács János", "Kovács János"),  # Hungarian
    ("Szerző: Kovács János", "Kovács János"),
    ("Forfatter: Kari Nordmann", "Kari Nordmann"),  # Danish, Norwegian
    ("Författare: Anna Andersson", "Anna Andersson"),  # Swedish
])
def test_bylines_in_more_languages_and_scripts_without_case(line: str, author: str) -> None:
    body = f"<article><h1>Headline of the story</h1><p>{line}</p><p>The story.</p></article>"
    assert meta(page(body=body)).authors == (author,)


def test_words_that_open_a_byline_elsewhere_open_prose_here() -> None:
    for line in ("Oleh karena itu harga naik.", "Oleh-oleh khas Bandung"):
        body = f"<article><h1>Headline of the story</h1><p>{line}</p><p>The story.</p></article>"
        assert meta(page(body=body)).authors == ()


# --- <time>, DOM bylines, visible dates, URL dates --------------------------------------------

def test_time_datetime_prefers_the_published_one():
    m = meta(page(body='<h1>T</h1><time datetime="2020-02-02">x</time>'
                       '<time class="published" datetime="2021-06-01T12:00:00+09:00">y</time>'))
    assert m.published == "2021-06-01T12:00:00+09:00"


def test_dom_byline_next_to_the_headline_not_the_one_in_comments():
    body = ('<article><h1>Headline here</h1><div class="author-box"><span>By</span>'
            '<a rel="author" href="/a">Mia Wong</a> and <a rel="author" href="/b">Tom Hill</a>'
            '</div><p>Text</p></article>'
            '<section class="comments"><span class="author">Troll</span></section>')
    assert meta(page(body=body)).authors == ("Mia Wong", "Tom Hill")


@pytest.mark.parametrize("body, authors", [
    # a link to a writer's page, with no class to say so
    ('<div class="flex"><p class="mr-4">'
     '<a href="/articles/authors/shannon-grilli">Shannon Grilli</a></p></div>',
     ("Shannon Grilli",)),
    ('<div><a href="https://news.example/author/ray/">View all posts by Ray Ansari</a></div>',
     ("Ray Ansari",)),
    # a product's or a team's pages are not a writer's
    ('<a href="/people/free-demo.html">Request Demo</a><a href="/team/">Our Team</a>', ()),
    # The Guardian sets its rel=author byline in an <aside> meta column beside the text ...
    ('<aside><address><div><a rel="author" href="/profile/adam-roberts">Adam Roberts</a></div>'
     '</address></aside>', ("Adam Roberts",)),
    # ... but an author box in a sidebar belongs to another story
    ('<aside><div class="author">Side Writer</div></aside>', ()),
])
def test_bylines_by_link_target_and_beside_the_text(body: str, authors: tuple) -> None:
    markup = page(body=f"<h1>Five of the best books</h1>{body}<p>Text</p>")
    assert meta(markup).authors == authors


def test_labelled_author_box_at_the_end_of_the_article():
    filler = "".join(f"<p>Paragraph {i} of the story.</p>" for i in range(40))
    body = (f'<article><h1>Headline</h1>{filler}<div class="bio"><p>Written by</p>'
            '<p><a href="/m">Moses Kim</a> and <a href="/k">Kate Shokurova</a></p></div>'
            '</article>')
    assert meta(page(body=body)).authors == ("Moses Kim", "Kate Shokurova")
    body = f'<h1>Headline</h1>{filler}<p>Authors: Julie Weisenhorn and Natalie Hoidal</p>'
    assert meta(page(body=body)).authors == ("Julie Weisenhorn", "Natalie Hoidal")
    # a bare "By" that far down is a related-posts card, not the page's byline
    body = f'<h1>Headline</h1>{filler}<p>By Someone Else</p>'
    assert meta(page(body=body)).authors == ()


def test_author_rows_in_tables_forms_and_page_footers_are_not_bylines():
    filler = "".join(f"<p>Paragraph {i}.</p>" for i in range(30))
    infobox = '<table><tr><th>Author</th><td>Vinoy Thomas</td></tr></table>'
    form = '<form><fieldset><legend>Author</legend><input placeholder="Name"></fieldset></form>'
    footer = '<footer><p>Written by</p><p>Site Webmaster Bob</p></footer>'
    for extra in (infobox, form, footer):
        assert meta(page(body=f"<h1>Headline</h1>{filler}{extra}")).authors == ()


def test_a_footer_inside_the_article_holds_its_byline_and_the_page_footer_does_not():
    """An ``<article>``'s own ``<footer>`` is where blogs print "Posted by" (four WCXB dev
    pages lost their author to the page-footer rule); the page's footer names the site."""
    filler = "".join(f"<p>Paragraph {i} of the post.</p>" for i in range(30))
    own = ('<article><h1>Headline</h1>{filler}<footer><p>Posted By: Kiersten · In: Sides'
           '</p></footer></article>')
    assert meta(page(body=own.format(filler=filler))).authors == ("Kiersten",)
    boxed = ('<main><article><h1>Headline</h1><p>Text of the post.</p><footer><span '
             'class="author">Halina Goetz</span></footer></article></main>')
    assert meta(page(body=boxed)).authors == ("Halina Goetz",)
    site = ('<article><h1>Headline</h1>{filler}</article><footer><p>Written by</p>'
            '<p>Site Webmaster Bob</p><span class="author">Theme Author</span></footer>')
    assert meta(page(body=site.format(filler=filler))).authors == ()


def test_a_by_line_above_the_headline_reads_in_order_when_its_label_is_nested():
    """Walking back from the headline, a child's tail comes before the child's own text:
    "<span><b>By</b></span> Jane Doe" is "By" then the name, not the name then "By"."""
    body = '<p><span><b>By</b></span> Jane Doe</p><h1>Storm hits the coast</h1><p>Text</p>'
    assert meta(page(body=body)).authors == ("Jane Doe",)


def test_by_line_just_above_the_headline_but_not_a_consent_line():
    body = '<p><span>by Nicole Burke</span></p><h1>Headline here</h1><p>Text</p>'
    assert meta(page(body=body)).authors == ("Nicole Burke",)
    body = ('<p>By submitting my email address I agree to the terms</p><h1>Headline</h1>'
            '<p>By clicking here you accept</p><p>Text</p>')
    assert meta(page(body=body)).authors == ()


def test_a_date_above_the_headline_is_not_labelled_by_the_last_text_below_it():
    """Above the headline the texts run nearest first: the last one read below it ("Joined",
    a forum's label) is no label of the date printed above."""
    story = "The storm reached the coast on Tuesday night. " * 10
    for last in ("Joined", "Share"):
        body = f"<p>March 5, 2024</p><h1>Storm hits the coast</h1><p>{story}</p><p>{last}</p>"
        assert meta(page(body=body)).published == "2024-03-05"


def test_date_at_the_end_of_a_line_of_labelled_fields():
    # an old table layout without <h1>: author, source and date fields in one text, their
    # values left empty by the template, the date after its label
    body = ('<table><tr><td>河堤加固工程通过验收</td></tr><tr><td>作者： \n size="20"'
            '\n 来源：\n size="20"\n 发布日期： \n 9/17/2014 5:54:13 AM</td></tr>'
            '<tr><td><p>工人们连夜加固了河堤，水位已经回落。</p></td></tr></table>')
    assert meta(page(body=body), url=None).published == "2014-09-17T05:54:13"


@pytest.mark.parametrize(("line", "expected"), [
    ("Door Fenwick Aardal", ("Fenwick Aardal",)),  # Dutch "door", by
    ("Door & Kettle Lid Set", ()),  # English "door" opening a product's name
    ("Door hinges and Catalogs", ()),
    ("Por qué Ribera importa", ()),  # Spanish "por" opening a question
])
def test_words_for_by_in_other_languages_need_a_name_after_them(line, expected):
    body = f'<h1>Headline</h1><p>{line}</p><p>Text of the story.</p>'
    assert meta(page(body=body)).authors == expected


def test_byline_box_name_after_by_not_the_kicker_before_it():
    body = ('<h1>Headline</h1><div class="byline"><span>Guide</span> <span>by</span> '
            '<a>Will Judd</a> <span>Former Deputy Tech Editor</span></div>')
    assert meta(page(body=body)).authors == ("Will Judd",)
    body = ('<h1>Headline</h1><div class="byline"><p>Originally published</p>'
            '<p>November 9, 2022</p><p>By</p><p>April Fulton</p></div>')
    assert meta(page(body=body)).authors == ("April Fulton",)


def test_author_that_is_a_piece_of_the_site_name_yields_to_the_byline():
    head = ('<meta property="og:site_name" content="USA TODAY">'
            + ld('{"@type": "NewsArticle", "author": {"@type": "Person", "name": ", USA TODAY"}}'))
    body = '<h1>Headline</h1><p class="author">Brian Truitt</p>'
    assert meta(page(head, body)).authors == ("Brian Truitt",)


def test_authorization_is_no_author_hint():
    body = '<h1>Headline</h1><h2 id="about-authorization">About authentication</h2><p>x</p>'
    assert meta(page(body=body)).authors == ()


def test_byline_line_starting_with_by_and_glued_date():
    body = '<h1>Headline</h1><p><span>by Nicole Burke</span> · <span>May 3, 2023</span></p>'
    m = meta(page(body=body))
    assert m.authors == ("Nicole Burke",)
    assert m.published == "2023-05-03"


def test_visible_date_prefers_published_over_updated():
    body = ('<h1>Headline</h1><p>Updated: 9 June 2024</p><p>Published 1 June 2024</p>')
    assert meta(page(body=body)).published == "2024-06-01"


def test_byline_date_beats_a_declared_date_the_page_does_not_show():
    head = '<meta property="article:published_time" content="2025-06-24T10:00:00+00:00">'
    body = ('<h1>Headline</h1><div class="byline"><span>Jane Doe</span>'
            '<span class="date">August 25, 2024</span></div><p>Text</p>')
    assert meta(page(head, body)).published == "2024-08-25"


def test_declared_date_kept_when_the_byline_shows_the_update_or_the_same_day():
    declared = '<meta property="article:published_time" content="2025-06-24T23:30:00+00:00">'
    modified = '<meta property="article:modified_time" content="2025-11-05T08:00:00+00:00">'
    shows = '<h1>Headline</h1><p><span>Jane Doe</span> <span>{}</span></p><p>Text</p>'
    # the modification date, printed without a label
    assert meta(page(declared + modified, shows.format("November 5, 2025"))).published == (
        "2025-06-24T23:30:00+00:00")
    # the same instant in the reader's time zone (a day later)
    assert meta(page(declared, shows.format("June 25, 2025"))).published == (
        "2025-06-24T23:30:00+00:00")
    # day and month read the other way round
    assert meta(page(declared, shows.format("06.24.2025"))).published == (
        "2025-06-24T23:30:00+00:00")
    # an element classed as the update date
    body = '<h1>Headline</h1><p><span class="date updated">November 9, 2025</span></p>'
    assert meta(page(declared, body)).published == "2025-06-24T23:30:00+00:00"
    # a date in prose, far down, is no byline
    body = '<h1>Headline</h1>' + '<p>Line</p>' * 20 + '<p>On March 3, 2021</p>'
    assert meta(page(declared, body)).published == "2025-06-24T23:30:00+00:00"


def test_forum_last_post_date_is_an_update():
    body = ('<h1>Thread title</h1><p>Last post: 01/12/2025 at 6:49 pm</p>'
            '<p>Started March 2, 2024</p>')
    assert meta(page(body=body)).published == "2024-03-02"


def test_reddit_post_is_dated_by_its_creation_timestamp():
    # The post prints only "2 mo. ago"; its element holds the time. Comments below carry
    # timestamps of their own, later ones.
    post = ('<shreddit-post created-timestamp="2026-03-03T09:47:05.754000+0000" author="someone">'
            '<h1 slot="title">Best laptop for college?</h1><span>2 mo. ago</span>'
            '<p>Looking for something light.</p></shreddit-post>'
            '<shreddit-comment created-timestamp="2026-03-09T10:00:00.000000+0000">'
            '<p>Get a used ThinkPad.</p></shreddit-comment>')
    url = "https://www.reddit.com/r/BuyItForLife/comments/1rjl74r/best_laptop_for_college/"
    assert meta(page(body=post), url).published == "2026-03-03T09:47:05+00:00"
    assert meta(page(body=post.replace("created-timestamp", "data-x")), url).published is None


def test_page_without_h1_is_dated_below_the_h2_that_carries_its_title():
    head = "<title>Turning off the LEDs - Example Forums</title>"
    body = ('<h2>Site news</h2><p>Maintenance on 3 January 2020</p>'
            '<h2 class="topic-title">Turning off the LEDs</h2>'
            '<div class="post"><p>by <a>pi_user</a> » Sun Dec 17, 2023 11:18 am</p></div>')
    assert meta(page(head, body)).published == "2023-12-17T11:18:00"
    # no heading agrees with the title: no anchor, no guess
    assert meta(page("<title>Other</title>", body)).published is None


def test_labelled_date_at_the_end_of_the_article_dates_a_page_without_one():
    filler = "".join(f"<p>Paragraph {i} of the post.</p>" for i in range(80))
    body = (f'<article><h1>Headline</h1>{filler}<p><span>Posted on April 13, 2023</span></p>'
            '</article>')
    assert meta(page(body=body)).published == "2023-04-13"
    # unlabelled, or in a review card, or in the page footer: no date
    for tail in ('<p>April 13, 2023</p>',
                 '<div class="review-card__date">April 13, 2023</div>',
                 '</article><footer><p>Published April 13, 2023</p></footer><article>'):
        body = f'<article><h1>Headline</h1>{filler}{tail}</article>'
        assert meta(page(body=body)).published is None, tail


def test_forum_join_date_is_not_the_post_date():
    declared = '<meta property="article:published_time" content="2024-12-18T10:00:00+00:00">'
    body = ('<h1>Thread</h1><p>Thread starter</p><p>someone</p><p>Joined</p><p>Nov 4, 2011</p>'
            '<p>First post text</p>')
    assert meta(page(declared, body)).published == "2024-12-18T10:00:00+00:00"
    assert meta(page(body=body)).published is None


def test_url_date_is_the_last_resort():
    assert meta(page(body="<h1>x</h1>"), "https://n.example/2019/07/04/story").published == (
        "2019-07-04")
    assert meta(page(body="<h1>x</h1>"), "https://n.example/story").published is None


def test_modified_date_dates_a_page_without_a_published_one():
    m = meta(page(ld('{"@type": "Article", "dateModified": "2025-07-09 11:50:26"}')))
    assert m.published == m.modified == "2025-07-09T11:50:26"


# --- titles ----------------------------------------------------------------------------------

def test_title_strips_site_name_when_no_h1_agrees():
    m = meta(page('<title>Storm hits the coast | Daily Example</title>'
                  '<meta property="og:site_name" content="Daily Example">'))
    assert m.title == "Storm hits the coast"


def test_title_strips_domain_prefix():
    assert meta(page("<title>Example - Storm hits the coast</title>"),
                "https://www.example.com/a").title == "Storm hits the coast"


def test_h1_wins_when_it_agrees_with_declared_title():
    m = meta(page('<meta property="og:title" content="Storm hits coast: live updates - DE">',
                  '<h1>Storm hits coast, thousands without power</h1>'))
    assert m.title == "Storm hits coast, thousands without power"


def test_unrelated_h1_loses_to_declared_title():
    m = meta(page('<meta property="og:title" content="Storm hits coast">',
                  '<h1>Mobile menu</h1>'))
    assert m.title == "Storm hits coast"


def test_double_escaped_title_is_unescaped():
    m = meta(page('<meta property="og:title" content="Q&amp;amp;A with the mayor">'))
    assert m.title == "Q&A with the mayor"


# --- author cleaning ---------------------------------------------------------------------------

@pytest.mark.parametrize(("raw", "expected"), [
    ("By JANE DOE and John Roe, Staff Writers | Updated March 5, 2024", ("Jane Doe", "John Roe")),
    ("By TAVISH O'DONNELL-VARGA", ("Tavish O'Donnell-Varga",)),
    ("CC7567", ("CC7567",)),
    ("Von Max Muster und Erika Mustermann", ("Max Muster", "Erika Mustermann")),
    ("Par Jean Dupont et Marie Curie", ("Jean Dupont", "Marie Curie")),
    ("Por Ana García y Luis Pérez", ("Ana García", "Luis Pérez")),
    ("Di Mario Rossi", ("Mario Rossi",)),
    ("作者：张三", ("张三",)),
    ("本报记者 李四 王五", ("李四", "王五")),
    ("Dylan Bailey, MS, RD, FAND", ("Dylan Bailey",)),
    ("Genevieve Carlton, Ph.D.", ("Genevieve Carlton",)),
    ("Ann Lee, Bob Ray, and Cy Twombly", ("Ann Lee", "Bob Ray", "Cy Twombly")),
    ("Jane Doe - Senior Editor", ("Jane Doe",)),
    ("Jane Doe @janedoe jane@example.com", ("Jane Doe",)),
    ("By Jane Doe on March 5, 2024", ("Jane Doe",)),
    # the text of a link to a writer's page
    ("Articles by Jane Doe", ("Jane Doe",)),
    ("View all posts by Ray Ansari", ("Ray Ansari",)),
    ("More stories by Ann Lee", ("Ann Lee",)),
    ("Medically reviewed by Dr. Who", ()),
    ("Maria &amp; Katerina", ("Maria", "Katerina")),
    # co-writers "with" someone, lower case only: "Con" and "Mit" are given names too
    ("Martin Untersinger (avec Damien Leloup et Morgane Tual)",
     ("Martin Untersinger", "Damien Leloup", "Morgane Tual")),
    ("Jane Doe (with John Roe and Ann Lee)", ("Jane Doe", "John Roe", "Ann Lee")),
    ("Hans Meier mit Eva Kurz", ("Hans Meier", "Eva Kurz")),
    ("Con Coughlin", ("Con Coughlin",)),
    # the one-letter "and" (y, e, i) in lower case only: in capitals it is an initial
    ("Mary E. Smith", ("Mary E. Smith",)),
    ("Louis I. Kahn", ("Louis I. Kahn",)),
    ("Marco Rossi e Luca Bianchi", ("Marco Rossi", "Luca Bianchi")),
    ("Jan Kowalski i Anna Nowak", ("Jan Kowalski", "Anna Nowak")),
    ("AccountingDepartment.com", ("AccountingDepartment.com",)),
    ("admin", ()),
    ("https://www.facebook.com/janedoe", ()),
    ("x" * 10_000, ()),
    ("Lorem ipsum dolor sit amet consectetur adipiscing elit sed do", ()),
])
def test_clean_authors(raw, expected):
    assert clean_authors([raw]) == expected


@pytest.mark.parametrize(("raw", "expected"), [
    # names, then what they do: the description is no third author
    ("Oda Brenner and Tamsin Gale, Extension soil science educators",
     ("Oda Brenner", "Tamsin Gale")),
    ("Rune Halvorsen, Candidate Representative to the Joint Liaison Board", ("Rune Halvorsen",)),
    # credits for other work than the writing
    ("layout: Perry Quint, code: Ilse Marrow", ()),
    # a bracketed remark (a role, the site) closes with the name's own trim
    ("Corvin Lacey (Content Lead)", ("Corvin Lacey",)),
    ("Brightfield Holdings (Lantern Research)", ("Brightfield Holdings",)),
    # a line that opens like a byline and goes on as a sentence
    ("By this time, a travelling physician named Orrin had written of the bean", ()),
    ("By default Ferrule opens one port", ()),
    ("Por qué Ribera está\n dividida en norte y sur y por qué importa que nadie lo diga", ()),
    # what names hold: particles, an organisation's function words, lower-case handles
    ("Jan van der Berg", ("Jan van der Berg",)),
    ("Society for the Protection of Moths", ("Society for the Protection of Moths",)),
    ("kestrel lane", ("kestrel lane",)),
    # a page's labels, calls to action and sentences taken from an author field
    ("Home", ()),
    ("Coming Soon!", ()),
    ("Visit the Orlepa Store", ()),
    ("Get in touch", ()),
    ("This guide is filed under", ()),
    ("Quillon and Barrowby sign a supply agreement to widen regional coverage", ()),
    ("Quillon, a maker of ferrules, has signed a supply agreement with Barrowby & Sons to "
     "widen its regional coverage.", ()),
    ("Tavish Orne staff writer", ("Tavish Orne",)),
    # surnames that open with a word for "by" elsewhere, and that word as a label
    ("De Varga", ("De Varga",)),
    ("Von Halder", ("Von Halder",)),
    ("Von Ilse Marrow", ("Ilse Marrow",)),
    # a CMS's "Submitted on <date>", a box's "Print" link
    ("Submitted on Tue, 2021-03-02 09:15", ()),
    ("Print", ()),
    ("Submitted by Tavish Orne", ("Tavish Orne",)),
    ("Por: Corvin Lacey", ("Corvin Lacey",)),
    # UTF-8 read as Latin-1 before it reached the page
    ("Lesław Korpań".encode().decode("latin-1"), ("Lesław Korpań",)),
])
def test_clean_authors_drops_descriptions_credits_and_sentences(raw, expected):
    assert clean_authors([raw]) == expected


def test_byline_box_that_opens_with_page_text_names_nobody():
    body = ('<h1>Headline</h1><div class="byline"><p>Coming Soon!</p>'
            '<p>Tide Pool Paints, Spring Edition</p></div><p>Text</p>')
    assert meta(page(body=body)).authors == ()
    body = ('<h1>Headline</h1><div class="byline"><p>March 3, 2024</p>'
            '<p>Tavish Orne</p></div><p>Text</p>')
    assert meta(page(body=body)).authors == ("Tavish Orne",)


def test_byline_box_text_hidden_from_readers_is_no_name():
    body = ('<h1>Headline</h1><div id="Byline"><a class="PrintLink">Print</a> By '
            '<span class="author vcard"><a>National Desk</a></span>'
            '<span style="display:none; visibility:hidden;">The Harbour Ledger</span>'
            '<br/>on May 2, 2021</div><p>Text</p>')
    assert meta(page(body=body)).authors == ()
    body = ('<h1>Headline</h1><div class="byline">By <span hidden>Ledger Staff</span>'
            '<span>Tavish Orne</span></div><p>Text</p>')
    assert meta(page(body=body)).authors == ("Tavish Orne",)
    body = ('<h1>Headline</h1><p>Text</p><span itemprop="author" style="display:none">'
            'Tavish Orne</span>')
    assert meta(page(body=body)).authors == ("Tavish Orne",)


def test_css_after_an_author_label_is_no_name():
    filler = "".join(f"<p>Paragraph {i} of the story.</p>" for i in range(40))
    body = (f'<h1>Headline</h1>{filler}<div><p>Authors</p>'
            '<style>.c1{border-radius:50%;margin-left:0}</style><p>Wendel Arrow</p></div>')
    assert meta(page(body=body)).authors == ("Wendel Arrow",)


def test_product_reviews_in_jsonld_are_not_the_page_author_date_or_type():
    product = ld("""{"@type": "Product", "name": "Cast iron kettle",
        "review": [{"@type": "Review", "author": {"@type": "Person", "name": "Tilly R"},
                    "datePublished": "2025-02-03", "reviewBody": "Boils fast."}]}""")
    m = meta(page(product, "<h1>Cast iron kettle</h1><p>Holds two litres.</p>"))
    assert m.authors == ()
    assert m.published is None
    assert m.page_type != "review"
    # a page that is itself a review keeps its writer
    review = ld("""{"@type": "Review", "author": {"@type": "Person", "name": "Hollis Crane"},
        "datePublished": "2025-02-03", "itemReviewed": {"@type": "Product", "name": "Kettle"},
        "comment": [{"@type": "Comment", "author": "Reader One"}]}""")
    m = meta(page(review, "<h1>Kettle review</h1><p>It boils fast.</p>"))
    assert m.authors == ("Hollis Crane",)
    assert m.published == "2025-02-03"


def test_declared_texts_are_read_as_text():
    head = ('<meta name="description" content="&lt;p&gt;We built &lt;strong&gt;Quern&lt;/strong&gt;'
            ', a small mill.&lt;/p&gt;">'
            '<meta property="article:section" content="Home &amp;amp; Garden">')
    m = meta(page(head, "<h1>Headline</h1>"))
    assert m.description == "We built Quern, a small mill."
    assert m.section == "Home & Garden"
    head = '<meta property="og:site_name" content="https://gazette.example">'
    assert meta(page(head, "<h1>Headline</h1>")).site_name == "https://gazette.example"
    # a lone tag in brackets is the page's subject, not markup
    head = '<meta name="description" content="The &lt;dialog&gt; element opens a modal.">'
    assert meta(page(head, "<h1>Dialog</h1>")).description == "The <dialog> element opens a modal."


@pytest.mark.parametrize(("head", "expected"), [
    # one value holding the whole list, whatever the separator
    ('<meta property="article:tag" content="soil; compost; worms">', ("soil", "compost", "worms")),
    ('<meta name="keywords" content="河流，湖泊、湿地">', ("河流", "湖泊", "湿地")),
    # one tag of several keeps its comma, and double escaping is undone
    ('<meta property="article:tag" content="Mergers, Acquisitions and Sales">'
     '<meta property="article:tag" content="Tools &amp;amp; Dies">',
     ("Mergers, Acquisitions and Sales", "Tools & Dies")),
    # a CMS's fields written into its keywords are no tags, except a field that is one
    ('<meta name="keywords" content="compost, displayType: listicle, contentId: 9f2e71, '
     'locale: US, Brexit: the deal">', ("compost", "Brexit: the deal")),
    ('<meta name="keywords" content="Lite:true, Tag:Compost, Tag:Soil, LayerCake:0">',
     ("Compost", "Soil")),
    # Postmedia's keywords: a taxonomy field's value, not its classifier's labels, the
    # story's id or the site's own host; topics with a colon, other sites' hosts stay
    ('<meta name="keywords" content="8f507083-bac4-423a-9015-2eb31e1bce50, Category: World, '
     'NLP Category: Politics, NLP Entity Tokens: India, India, news.example, Kashmir, '
     'Things to do: Classes, Star Wars: Episode IV, amazon.com">',
     ("World", "India", "Kashmir", "Things to do: Classes", "Star Wars: Episode IV",
      "amazon.com")),
    ('<meta name="keywords" content="WWW.News.Example, 3f9a0c1d2b4e5f60a7, deadbeefdeadbeef">',
     ("deadbeefdeadbeef",)),
    # a CMS's flags and placeholders are no tags; a taxonomy's path gives its last part, a
    # topic with a slash or a Chinese tag joined by "_" stays
    ('<meta name="keywords" content="_commerce, forward_original_content, %tags%, {{ tag }}, '
     'sections/sverige, topic/misshandel & överfall, Technik/Hardware, 尖石_美樹營地">',
     ("sverige", "misshandel & överfall", "Technik/Hardware", "尖石_美樹營地")),
])
def test_tags_split_only_a_whole_list(head, expected):
    assert meta(page(head, "<h1>Headline</h1>")).tags == expected


@pytest.mark.parametrize(("declared", "expected"), [
    # written as Scrapy writes a request's URL: spaces and non-ASCII percent-encoded
    ("/images/Shop Logo.png", "https://news.example/images/Shop%20Logo.png"),
    ("https://news.example/图片/河堤.jpg",
     "https://news.example/%E5%9B%BE%E7%89%87/%E6%B2%B3%E5%A0%A4.jpg"),
    # an absolute URL inside a path or a query is part of it
    ("https://archive.example/web/2020/https://cdn.example/1.jpeg",
     "https://archive.example/web/2020/https://cdn.example/1.jpeg"),
    ("https://news.example/r?to=https://cdn.example/1.jpeg",
     "https://news.example/r?to=https://cdn.example/1.jpeg"),
])
def test_image_urls_are_absolute_and_safe(declared, expected):
    head = f'<meta property="og:image" content="{declared}">'
    assert meta(page(head, "<h1>Headline</h1>")).image == expected


def test_a_sentence_is_no_section():
    head = ('<meta property="article:section" content="Keeping up with new training styles '
            'keeps coaches in demand. As clients change, so must the plans they are sold.">')
    m = meta(page(head, "<h1>Headline</h1>"))
    assert m.section is None
    head = '<meta property="article:section" content="How to, Plumbing, St. Louis News">'
    assert meta(page(head, "<h1>Headline</h1>")).section == "How to, Plumbing, St. Louis News"
    # a template's placeholder gives way to the next declaration
    head = ('<meta property="article:section" content="tags"><script type="application/ld+json">'
            '{"@type": "NewsArticle", "articleSection": "Harbour"}</script>')
    assert meta(page(head, "<h1>Headline</h1>")).section == "Harbour"
    head = '<meta property="article:section" content="Uncategorized">'
    assert meta(page(head, "<h1>Headline</h1>")).section is None


def test_clean_authors_trailing_on_placeholders_and_via():
    assert clean_authors(["IndustrySelect on"]) == ("IndustrySelect",)
    assert clean_authors(["Audiophile On"]) == ("Audiophile On",)
    assert clean_authors(["page.head.extra.author", "{{ author }}", "via"]) == ()
    assert clean_authors(["sara.r.peter"]) == ("sara.r.peter",)


def test_clean_authors_keeps_a_desk_or_team_name_whole():
    assert clean_authors(["By Podium Staff"]) == ("Podium Staff",)
    assert clean_authors(["TOI Lifestyle Desk"]) == ("TOI Lifestyle Desk",)
    assert clean_authors(["Jane Doe Staff Writer"]) == ("Jane Doe",)
    assert clean_authors(["Jane Doe, Staff"]) == ("Jane Doe",)
    # a wire service's name is an outlet, kept whole as "Reuters" is, not cut to "Associated"
    assert clean_authors(["By Jane Doe, Associated Press"]) == ("Jane Doe", "Associated Press")
    assert clean_authors(["Press release"]) == ()
    assert clean_authors(["BBC News"]) == ("BBC News",)  # not "BBC"
    assert clean_authors(["Jane Doe, News Editor"]) == ("Jane Doe",)


@pytest.mark.parametrize(("raw", "expected"), [
    ("Jane Doe in London", ("Jane Doe",)),
    ("Jane Doe in New York and John Roe in Washington", ("Jane Doe", "John Roe")),
    ("JANE DOE in KYIV", ("Jane Doe",)),
    # a wire's credit line: reporters, not editors
    ("Reporting by Jane Doe; Editing by John Roe", ("Jane Doe",)),
    ("Additional reporting by Ann Lee in Paris; Writing by Jane Doe; Editing by John Roe",
     ("Ann Lee", "Jane Doe")),
    ("Jane Doe; John Roe", ("Jane Doe", "John Roe")),
])
def test_clean_authors_wire_credits_and_where_filed_from(raw, expected):
    assert clean_authors([raw]) == expected


def test_clean_authors_dedupes_and_ignores_non_strings():
    assert clean_authors(["Jane Doe", "JANE DOE", None, 5, "jane doe"]) == ("Jane Doe",)


def test_invert_catalogue_order():
    assert invert_name("Roy, Aniruddha") == "Aniruddha Roy"
    assert invert_name("Jane Doe, MD") == "Jane Doe, MD"


def test_ten_thousand_char_author_is_dropped_and_article_kept():
    m = meta(page(
        ld('{"@type": "NewsArticle", "headline": "Kept", "author": {"name": "%s"},'
           ' "datePublished": "2024-01-01"}' % ("A" * 10_000)),
        '<h1>Kept</h1>'))
    assert m.authors == ()
    assert m.title == "Kept"
    assert m.published == "2024-01-01"


# --- dates -------------------------------------------------------------------------------------

NOW = datetime(2025, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(("raw", "expected"), [
    ("2024-03-05T10:00:00+01:00", "2024-03-05T10:00:00+01:00"),
    ("2024-03-05T10:00:00Z", "2024-03-05T10:00:00+00:00"),
    ("2024-03-05T10:00:00.123-0500", "2024-03-05T10:00:00-05:00"),
    ("2024-03-05 10:00", "2024-03-05T10:00:00"),
    ("2024-03-05", "2024-03-05"),
    ("20240305", "2024-03-05"),
    ("Tue, 05 Mar 2024 10:00:00 GMT", "2024-03-05T10:00:00+00:00"),
    ("March 5, 2024 10:00 AM EST", "2024-03-05T10:00:00-05:00"),
    ("5 mars 2024", "2024-03-05"),
    ("5. März 2024, 10:30 Uhr", "2024-03-05T10:30:00"),
    ("12 de marzo de 2024", "2024-03-12"),
    ("Published: Mar. 5th, 2024", "2024-03-05"),
    (" on July 26, 2024)", "2024-07-26"),
    ("February 30, 2024", None),
    # no month name and no numeric date: dateutil's fuzzy mode would invent one
    ("Top 10 Companies in the Global 8K Market in 2024", None),
    ("SQL Server 2008 R2 (14)", None),
    ("Las Vegas: January 6-9, 2024", None),
    ("05.03.2024", "2024-03-05"),
    ("2024年3月5日", "2024-03-05"),
    ("1709632800", "2024-03-05T10:00:00+00:00"),
    ("May 2024", None),  # not to the day
    ("Updated 3 hours ago", None),
    ("1899-01-01", None),  # before 1990
    ("2030-01-01", None),  # in the future
    ("2024-02-30", None),  # no such day
    ("2024-03-05T25:00:00", None),
    ("2024-03-05T10:00:00+25:00", None),
    ("x" * 500, None),
    ("", None),
])
def test_parse_date(raw, expected):
    assert parse_date(raw, now=NOW) == expected


def test_parse_date_allows_two_days_ahead_only():
    assert parse_date("2025-01-02", now=NOW) == "2025-01-02"
    assert parse_date("2025-01-04", now=NOW) is None


def test_parse_date_rejects_non_strings():
    assert parse_date(None) is None
    assert parse_date(True) is None
    assert parse_date({"a": 1}) is None


@pytest.mark.parametrize(("url", "expected"), [
    ("https://x.example/2024/03/05/slug", "2024-03-05"),
    ("https://x.example/2024/3/5/slug", "2024-03-05"),
    ("https://x.example/news/20240305-slug", "2024-03-05"),
    ("https://x.example/2024-03-05-title", "2024-03-05"),
    ("https://x.example/2024/13/05/", None),
    ("https://x.example/2024/03/slug", None),
    ("https://x.example/p/2024123456", None),
    (None, None),
])
def test_url_date(url, expected):
    assert url_date(url, now=NOW) == expected


def test_impossible_metadata_date_falls_through_to_the_next_source():
    m = meta(page('<meta property="article:published_time" content="0000-00-00">'
                  '<meta name="date" content="2023-04-05">'))
    assert m.published == "2023-04-05"


# --- language ----------------------------------------------------------------------------------

@pytest.mark.parametrize(("raw", "expected"), [
    ("en_us", "en-US"), ("EN-gb", "en-GB"), ("zh-hant-tw", "zh-Hant-TW"), ("es-419", "es-419"),
    ("fr", "fr"), ("und", None), ("", None), ("not a tag!", None),
])
def test_normalise_language(raw, expected):
    assert normalise_language(raw) == expected


def test_language_from_content_language_when_html_has_none():
    m = meta(page('<meta http-equiv="Content-Language" content="pt-br">', lang=""))
    assert m.language == "pt-BR"


# --- robustness --------------------------------------------------------------------------------

def test_empty_and_hostile_pages_never_raise():
    assert extract_metadata(parse("<html></html>"), None) == Metadata()
    hostile = page(
        "<title>" + "T" * 5000 + "</title>" + ld("[" * 5000 + "]" * 5000)
        + ld('{"@type": ["NewsArticle", 5], "headline": ["x", {"y": 1}], "author": [[[]]],'
             ' "image": [null, {"url": 7}], "keywords": [1, "ok"], "datePublished": []}')
        + '<meta property="og:image" content="javascript:alert(1)">',
        "<h1>" + "<b>" * 200 + "deep" + "</b>" * 200 + "</h1>")
    m = meta(hostile)
    assert m.title is not None and len(m.title) <= 400
    assert m.tags == ("ok",)
    assert m.image is None


# --- floors on WCXB ----------------------------------------------------------------------------

SAMPLE = 150
"""First pages of the dev split: fixed, so the floors compare like with like."""


def test_wcxb_sample_floors():
    if not WCXB.is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{WCXB} is missing: CI must have the labelled data")
        pytest.skip("labelled data not present")
    from newscrawl.evaluation.metadata_eval import evaluate_metadata

    result = evaluate_metadata(str(WCXB), limit=SAMPLE, with_trafilatura=False)
    fields = result["fields"]
    assert result["pages"] == SAMPLE
    assert fields["title"]["n"] >= 100
    # Floors a little under the scores measured when they were set (see docs/metadata.md).
    assert fields["title"]["newscrawl"]["acc"] >= FLOORS["title"]
    assert fields["authors"]["newscrawl"]["acc"] >= FLOORS["authors"]
    assert fields["published"]["newscrawl"]["acc"] >= FLOORS["published"]


FLOORS = {"title": 0.80, "authors": 0.80, "published": 0.80}
"""Measured on this sample: title 0.840, authors 0.842, published 0.845."""


def test_no_regex_over_raw_html_in_metadata_package():
    """The package works on the tree: no pattern is ever applied to the whole document."""
    package = Path(__file__).parents[1] / "newscrawl" / "extraction" / "metadata"
    modules = sorted(package.glob("*.py"))
    assert len(modules) >= 5
    for module in modules:
        assert not re.search(r"tostring\(", module.read_text()), module.name


# --- titles: site names, sections, heading furniture ------------------------------------------

def test_title_that_mentions_the_site_is_not_cut_as_a_site_name():
    m = meta(page('<title>Docker Hardened Images: Validated by SRLabs | Docker</title>'),
             "https://www.docker.com/blog/hardened")
    assert m.title == "Docker Hardened Images: Validated by SRLabs"


def test_title_that_opens_with_the_brand_keeps_it_when_the_h1_does():
    # "Nintendo Switch" is the site's name and a word: cut as a site, the product lost its
    # name and the real site suffix stayed, and on a generic page ("website") that declared
    # title won over the <h1>.
    head = ('<meta property="og:site_name" content="Nintendo"><meta property="og:type" '
            'content="website"><meta property="og:title" content="Nintendo Switch – OLED Model'
            ' - Nintendo - Official Site">')
    url = "https://www.nintendo.com/us/gaming-systems/switch/oled-model/"
    body = "<h1>Nintendo Switch – OLED Model</h1><p>Play at home or on the go.</p>"
    assert meta(page(head, body), url).title == "Nintendo Switch – OLED Model"
    # without an <h1> that opens so, the site's name with a word after it is still the site
    head = ('<meta property="og:site_name" content="BBC">'
            '<meta property="og:title" content="BBC News - Harbour bridge opens">')
    assert meta(page(head, "<p>x</p>"), "https://www.bbc.co.uk/news/1").title == (
        "Harbour bridge opens")


def test_title_h1_lines_are_read_as_one():
    head = '<meta property="og:title" content="Harbour bridge opens for cyclists and walkers">'
    body = '<h1>Harbour bridge opens<br>for cyclists<br>and walkers today</h1>'
    assert meta(page(head, body)).title == "Harbour bridge opens for cyclists and walkers today"
    head = '<meta property="og:title" content="Harbour bridge opens">'
    # text the <h1> hides from readers is no part of it
    body = '<h1>Harbour bridge opens<span style="display: none"> cheap flights deals</span></h1>'
    assert meta(page(head, body)).title == "Harbour bridge opens"
    # the source's own newlines are no line breaks
    body = '<h1>Harbour bridge opens\n   Tavish Orne</h1>'
    assert meta(page(head, body)).title == "Harbour bridge opens Tavish Orne"


def test_title_section_between_headline_and_site_is_dropped():
    m = meta(page('<meta property="og:site_name" content="Android Developers">'
                  '<title>Build your first app | Get started | Android Developers</title>'))
    assert m.title == "Build your first app"


def test_title_permalink_pilcrow_and_icon_glyph_dropped_from_h1():
    m = meta(page('<title>Quickstart — Flask Documentation</title>',
                  '<main><h1>Quickstart<a class="headerlink" href="#q">¶</a></h1></main>'))
    assert m.title == "Quickstart"
    m = meta(page('<title>Playbooks</title>', '<main><h1>Playbooks <i>\uf0c1</i></h1></main>'))
    assert m.title == "Playbooks"


def test_title_h1_with_site_suffix_and_inline_punctuation():
    m = meta(page('<meta property="og:site_name" content="WRAL">'
                  '<title>Storm hits coast | WRAL</title>',
                  '<article><h1>Storm hits <a href="/c">coast</a>, town | WRAL</h1></article>'))
    assert m.title == "Storm hits coast, town"


def test_title_h1_in_page_header_taken_when_it_matches_og_title():
    head = '<meta property="og:title" content="Hiking Boots: Shop Boots for Hiking | REI Co-op">'
    m = meta(page(head, '<header><div><h1>Hiking Boots</h1></div></header><div>grid</div>'),
             "https://www.rei.com/c/hiking-boots")
    assert m.title == "Hiking Boots"
    # A blog's name in the banner is in <title> too, but not in og:title: not the headline.
    head = ('<meta property="og:title" content="Open Verilog flow for GreenPak4">'
            '<title>Silicon Exposed: Open Verilog flow for GreenPak4</title>')
    m = meta(page(head, '<header><div><h1 class="title">Silicon Exposed</h1></div></header>'))
    assert m.title == "Open Verilog flow for GreenPak4"


def test_title_h1_kept_when_article_classes_mention_brands():
    m = meta(page('<title>Ethical Brands | I travel and write about it at length here</title>',
                  '<article class="post tag-sustainable-brands-clothing">'
                  '<h1 class="entry-title">Ethical Brands</h1></article>'))
    assert m.title == "Ethical Brands"


# --- authors: labels, dates without a year, prose ----------------------------------------------

def test_author_label_ending_in_by_names_no_one():
    assert clean_authors(["Recipe by"]) == ()
    assert clean_authors(["Insights from"]) == ()
    m = meta(page("", '<article><h1>Cake</h1><div class="author-box"><span>Article by</span>'
                      '<span>Cara Dumaplin</span></div></article>'))
    assert m.authors == ("Cara Dumaplin",)


def test_author_date_without_year_is_not_a_name():
    assert clean_authors(["Mar 6"]) == ()
    assert clean_authors(["By Jane Doe, 6 June"]) == ("Jane Doe",)
    assert clean_authors(["By IndustrySelect on Mar 6"]) == ("IndustrySelect",)
    assert clean_authors(["Maya Marchetti"]) == ("Maya Marchetti",)


def test_author_lower_case_prose_is_not_a_handle():
    assert clean_authors(["never looked back"]) == ()
    assert clean_authors(["scvalex"]) == ("scvalex",)


# --- titles: descriptors, home pages, hero lines -----------------------------------------------

def test_title_descriptor_after_a_pipe_is_dropped():
    # Not the site's name, so _strip_site keeps it; a pipe still ends the headline.
    m = meta(page('<title>Best movers in Austin 2025 | Top 19 Companies</title>'))
    assert m.title == "Best movers in Austin 2025"
    m = meta(page('<title>Best movers in Austin 2025 | Example</title>',
                  '<article><h1>Best movers in Austin 2025 | Top 19 Companies</h1></article>'))
    assert m.title == "Best movers in Austin 2025"
    # A dash is a headline's own punctuation: kept.
    m = meta(page('<title>Storm hits the coast - live updates</title>'))
    assert m.title == "Storm hits the coast - live updates"


def test_title_h1_without_buttons_styles_and_soft_hyphens():
    m = meta(page('<title>tokio - Rust</title>',
                  '<main><h1>Crate <span>tokio</span>&nbsp;<button>Copy item path</button></h1>'
                  '</main>'))
    assert m.title == "Crate tokio"
    m = meta(page('<title>Home Repair Program | City</title>',
                  '<main><h1><style>.x{color:red}</style>Home Re\u00adpair Program</h1></main>'))
    assert m.title == "Home Repair Program"


def test_title_h1_pieces_run_on_as_the_markup_writes_them():
    def h1(inner: str) -> str | None:
        return meta(page("<title>Planning</title>", f"<main><h1>{inner}</h1></main>")).title
    # A drop cap, a trademark sign, a possessive and a namespace separator are one word.
    assert h1('A Planning <span class="cap">C</span>anvas') == "A Planning Canvas"
    assert h1("Brightwater<sup>®</sup> Planning Tool") == "Brightwater® Planning Tool"
    assert h1("<a>Ada Ruiz</a>'s Planning") == "Ada Ruiz's Planning"
    assert h1("Better Plan<span>\u200b</span>ning") == "Better Planning"
    assert h1("<span>Category</span><span>:</span><span>Planning</span>") == (
        "Category:Planning")
    # A block element, a <br> or whitespace in the markup breaks the words apart.
    assert h1("<div>Acme</div><span>Planning kit</span>") == "Acme Planning kit"
    assert h1("Planning<br>for teams") == "Planning for teams"
    assert h1("<a>Acme</a> <span>Planning kit</span>") == "Acme Planning kit"
    # A word run into a capitalised word or a bracket is laid apart by a style.
    assert h1("Planning Edition<span>Complete kit</span>") == "Planning Edition Complete kit"
    assert h1("Planning Tools<span>(102+)</span>") == "Planning Tools (102+)"


def test_title_h1_of_an_aggregator_story_without_source_domain_and_comment_count():
    m = meta(page("<title>Rivers rise after storm - Linkdot</title>",
                  '<main><h1><span><a href="/s/1">Rivers rise after storm</a> <span><a '
                  'href="https://paper.example.org/x">(paper.example.org)</a></span></span> '
                  '<span class="comment-bubble"><a href="#comments">87</a></span></h1></main>'))
    assert m.title == "Rivers rise after storm"
    # A bracketed name that no link in the heading points to is part of the headline.
    m = meta(page("<title>Server rendering (Next.js)</title>",
                  '<main><h1><a href="http://[bad">Server</a> rendering (Next.js)</h1></main>'))
    assert m.title == "Server rendering (Next.js)"
    m = meta(page("<title>Ask Linkdot: Which editor?</title>",
                  '<main><h1>Which editor? <span class="comments-count">12</span></h1></main>'))
    assert m.title == "Which editor?"


def test_title_home_page_keeps_leading_brand_before_dash_or_colon():
    head = '<title>Acme - Tools for makers</title>'
    assert meta(page(head), "https://www.acme.com/").title == "Acme - Tools for makers"
    assert meta(page(head), "https://www.acme.com/tools").title == "Tools for makers"
    head = '<title>Acme: Tools for makers - Acme</title>'
    assert meta(page(head), "https://acme.com").title == "Acme: Tools for makers"
    # A pipe still separates the brand from the tagline.
    head = '<title>Acme | Tools for makers</title>'
    assert meta(page(head), "https://www.acme.com/").title == "Tools for makers"


def test_title_landing_page_hero_h1_loses_to_declared_title():
    head = ('<meta property="og:type" content="{}">'
            '<meta property="og:title" content="The workspace that works for you | Acme">')
    body = '<section class="hero"><h1>One workspace. Zero busywork.</h1></section>'
    url = "https://www.acme.com/product"
    assert meta(page(head.format("website"), body), url).title == (
        "The workspace that works for you")
    # An article's <h1> is its headline, whatever the declared title says.
    assert meta(page(head.format("article"), body), url).title == "One workspace. Zero busywork."
    assert meta(page(head.format("website"), "<article>" + body + "</article>"),
                url).title == "One workspace. Zero busywork."
    # An <h1> that only shortens the declared title is still the headline.
    assert meta(page(head.format("website"), '<div><h1>The workspace</h1></div>'),
                url).title == "The workspace"
    # So is one that only updates its year.
    dated = ('<meta property="og:type" content="website">'
             '<meta property="og:title" content="Guide to filing your taxes in 2024">')
    assert meta(page(dated, '<div><h1>Guide to filing your taxes in 2025</h1></div>'),
                url).title == "Guide to filing your taxes in 2025"
    # A cut-off declared title ("…") does not name the page.
    head = ('<meta property="og:type" content="website">'
            '<meta property="og:title" content="Checklist Wedding Checklists Timeline…">')
    assert meta(page(head, '<div><h1>Wedding Checklist :: Printable Timeline</h1></div>'),
                url).title == "Wedding Checklist :: Printable Timeline"


def test_title_og_title_that_is_only_the_site_name_is_skipped():
    head = ('<meta property="og:title" content="Acme">'
            '<title>Which mower suits which lawn? | Acme</title>')
    assert meta(page(head), "https://www.acme.com/blog/mowers").title == (
        "Which mower suits which lawn?")


def test_title_h1_without_dateline_label_chip_hidden_or_nested_heading():
    def h1(inner: str) -> str | None:
        return meta(page('<title>Squad list | Forum</title>',
                         f'<main><h1>{inner}</h1></main>')).title
    assert h1('<span class="label label--primary">Player</span> Squad list') == "Squad list"
    assert h1('<a href="/p"><time datetime="2025-12-18">Dec 18 2025</time> Squad list</a>') == (
        "Squad list")
    assert h1('Squad list<x-actions hidden>Save and categorize content</x-actions>') == (
        "Squad list")
    assert h1('Squad list<h3><span>Posted on</span> July 1 by admin</h3>') == "Squad list"


def test_title_h1_without_its_subtitle_tagline_or_screen_reader_text():
    body = ('<main><h1>Night Edition<span class="pdp-header__tagline">Complete plant-based'
            " meal</span></h1></main>")
    assert meta(page("<title>Night Edition | Shop</title>", body)).title == "Night Edition"
    body = ('<h1><span class="header__title">Evening Courses</span>'
            '<span class="header__subtitle">Study when it suits you</span></h1>')
    assert meta(page("", body)).title == "Evening Courses"
    body = ('<h1 id="title"><span id="productTitle">Small Habits</span>'
            '<span id="productSubtitle">Hardcover – May 1, 2020</span></h1>')
    assert meta(page("", body)).title == "Small Habits"
    head = "<title>Trail Shoes for Every Run</title>"
    body = '<h1><span class="visually-hidden">Collection:</span> Trail Shoes</h1>'
    assert meta(page(head, body)).title == "Trail Shoes"
    body = '<h1><span class="utils_visuallyHidden__x1">Menu </span>Trail Shoes</h1>'
    assert meta(page(head, body)).title == "Trail Shoes"


def test_title_h1_animated_in_hidden_parts_reads_its_screen_reader_text():
    parts = ('<span aria-hidden="true"><span class="show-mobile">The tool</span>'
             '<span class="show-mobile">for teams</span><span class="hide-mobile">The tool for'
             '</span><br><span class="hide-mobile">teams</span></span>')
    body = f'<main><h1>{parts}<span class="visually-hidden">The tool for teams</span></h1></main>'
    assert meta(page("<title>Acme | Tracking for teams</title>", body)).title == (
        "The tool for teams")
    # Screen-reader text that is not the hidden parts' words stays out, as above.
    body = ('<main><h1>Trail Shoes<i aria-hidden="true">→</i>'
            '<span class="sr-only">Collection:</span></h1></main>')
    assert meta(page("<title>Trail Shoes | Acme</title>", body)).title == "Trail Shoes"


def test_title_h1_that_is_a_paragraph_gives_way_to_the_declared_title():
    head = "<title>The 10 Best Renovation Projects of 2023 | Reno</title>"
    lead = ("Learn which renovation projects of 2023 have the best return? Get expert tips on"
            " how to work it out. We'll help you learn what you need to know about their value.")
    assert meta(page(head, f"<main><h1>{lead}</h1></main>")).title == (
        "The 10 Best Renovation Projects of 2023")
    # A long headline of one sentence is still the headline.
    one = ("Council approves the new riverside housing plan after a six-hour meeting in which"
           " residents, builders and the mayor argued over height, parking and the old mill")
    assert meta(page("", f"<main><h1>{one}</h1></main>")).title == one


def test_title_screen_reader_only_h1_is_not_the_headline():
    head = '<title>Art Supplies | Blick</title>'
    assert meta(page(head, '<main><h1 class="sr-only">Blick Homepage</h1></main>'),
                "https://www.blick.com/").title == "Art Supplies"
    assert meta(page(head, '<main><h1 hidden>Blick Homepage</h1></main>'),
                "https://www.blick.com/").title == "Art Supplies"


def test_title_that_only_names_the_site_is_better_than_nothing():
    head = '<meta property="og:title" content="Acme"><title>Acme</title>'
    assert meta(page(head), "https://www.acme.com/products/set").title == "Acme"


def test_title_page_header_h1_that_is_a_whole_declared_title():
    head = ('<meta property="og:title" content="7 Tips to Hit the Road in a Rental Car">'
            + ld('{"@type": "Article", "headline": "7 Tips on How to Rent a Car"}'))
    m = meta(page(head, '<header><h1>7 Tips on How to Rent a Car</h1></header><p>x</p>'))
    assert m.title == "7 Tips on How to Rent a Car"


def test_title_h1_that_puts_a_label_before_the_declared_title_gives_way():
    head = '<meta property="og:title" content="Which router should I buy? | Example Forums">'
    m = meta(page(head, "<h1><span>Thread:</span> Which router should I buy?</h1>"),
             "https://forums.example.com/t/1")
    assert m.title == "Which router should I buy?"
    # An <h1> that adds to the end of the declared title is still the headline.
    head = '<meta property="og:title" content="Which router should I buy?">'
    m = meta(page(head, "<h1>Which router should I buy? Five picks tested</h1>"))
    assert m.title == "Which router should I buy? Five picks tested"


def test_title_h1_with_numbers_of_its_own_is_the_headline():
    head = '<meta property="og:title" content="Best Tutoring Sites 2024">'
    assert meta(page(head, "<h1>Best Tutoring Sites 2025</h1>")).title == (
        "Best Tutoring Sites 2025")


def test_title_h1_sharing_only_function_words_with_the_declared_title_does_not_agree():
    head = "<title>Tidepools: What Lives There and How to Visit Them</title>"
    body = "<main><h1>Notes and Resources</h1></main>"
    assert meta(page(head, body)).title == "Tidepools: What Lives There and How to Visit Them"
    body = "<main><h1>Tidepools and You</h1><h1>Related</h1></main>"
    assert meta(page(head, body)).title == "Tidepools and You"


def test_title_section_h1_sharing_one_word_with_the_declared_title_does_not_agree():
    # A post whose theme puts every subhead in an <h1>: "So much sourdough!" shares
    # "sourdough" only.
    head = '<meta property="og:title" content="Field notes on backyard sourdough baking">'
    body = ("<h1>Kitchen Log</h1><article><h1>Why flour matters</h1><h1>Getting started</h1>"
            "<h1>So much sourdough!</h1></article>")
    assert meta(page(head, body)).title == "Field notes on backyard sourdough baking"
    # With fewer <h1>s the same single word still agrees, and a section <h1> that is the whole
    # stripped declared title is the headline.
    body = "<h1>Kitchen Log</h1><article><h1>So much sourdough!</h1></article>"
    assert meta(page(head, body)).title == "So much sourdough!"
    head = "<title>Charges | Payments Docs</title>"
    body = ("<h1>Docs</h1><h1>Guides</h1><h1>Reference</h1><main><h1>Charges</h1></main>")
    assert meta(page(head, body), "https://docs.example/charges").title == "Charges"


def test_title_h1_made_of_words_of_the_site_name_is_the_site_not_the_headline():
    head = ('<meta property="og:site_name" content="Garden Update News">'
            '<meta property="og:title" content="Garden 2.0 brings the spring planner">')
    body = "<h1>Garden News</h1><article><h2>Garden 2.0 brings the spring planner</h2></article>"
    assert meta(page(head, body), "https://blog.example.org/p/1").title == (
        "Garden 2.0 brings the spring planner")


def test_title_h1_around_a_logo_image_is_the_site_not_the_headline():
    head = ('<meta property="og:title" content="Chapter 1: The Long Night">'
            "<title>Chapter 1: The Long Night [Tales Archive]</title>")
    body = ('<h1><a href="/"><span>Tales Archive</span> <sup>beta</sup>'
            '<img class="logo" alt="Tales Archive" src="/logo.png"></a></h1>'
            "<article><h2>Chapter 1</h2></article>")
    assert meta(page(head, body), "https://tales.example.org/works/1").title == (
        "Chapter 1: The Long Night")


def test_title_host_name_run_into_the_title_is_cut():
    body = '<h1><a href="/">janedoe.net</a></h1><article><p>Text</p></article>'
    m = meta(page("<title>janedoe.net Notes on Sourdough</title>", body),
             "https://janedoe.net/archives/2025/notes.html")
    assert m.title == "Notes on Sourdough"
    # On a home page the host is the page's name; a dash after it is _strip_site's business.
    m = meta(page("<title>janedoe.net Notes and Recipes</title>"), "https://janedoe.net/")
    assert m.title == "janedoe.net Notes and Recipes"


def test_title_h1_that_shares_only_the_site_name_with_the_title_does_not_agree():
    head = "<title>Storm hits the coast - Example Times</title>"
    body = "<main><h1>A message from Jane Roe, editor of Example Times:</h1></main>"
    assert meta(page(head, body), "https://www.exampletimes.org/a/1").title == (
        "Storm hits the coast")


def test_title_utf8_read_as_latin1_or_cp1252_is_repaired():
    for garbled in ("Investor\u00e2\u0080\u0099s guide", "Investor\u00e2\u20ac\u2122s guide"):
        m = meta(page(f"<title>{garbled}</title>"))
        assert m.title == "Investor\u2019s guide"
    # Latin text that only looks like it (a lead byte, then a closing guillemet) is left alone.
    assert meta(page("<title>Le café» de Paris</title>")).title == "Le café» de Paris"


def test_title_h1_that_the_url_slug_was_made_from_beats_a_rewritten_seo_title():
    head = '<meta property="og:title" content="Expert tips on choosing a mover | Acme">'
    body = "<div><h1>Booking movers: the ultimate guide</h1></div>"
    url = "https://acme.example/blog/booking-movers-ultimate-guide-x7k2q/"
    assert meta(page(head, body), url).title == "Booking movers: the ultimate guide"
    # an id's hyphenated letter is the id's, not a word the <h1> must hold
    url = "https://acme.example/blog/booking-movers-ultimate-guide-n-5xtnr/"
    assert meta(page(head, body), url).title == "Booking movers: the ultimate guide"
    # Without a slug to go by, the unrelated <h1> still loses to the declared title.
    assert meta(page(head, body), "https://acme.example/?p=12").title == (
        "Expert tips on choosing a mover")
    # The canonical URL's slug counts over the address the page was fetched from.
    canonical = '<link rel="canonical" href="/blog/booking-movers-ultimate-guide/">'
    assert meta(page(head + canonical, body), "https://acme.example/?p=12").title == (
        "Booking movers: the ultimate guide")


def test_title_slug_also_in_the_declared_title_changes_nothing():
    head = "<title>Men's Running Shoes | Acme</title>"
    body = ("<h1>Men's shoes for running, built by our small team of experts in Oregon since"
            " 1980</h1>"
            "<h1>Newsletter</h1>")
    m = meta(page(head, body), "https://www.acme.com/w/mens-running-shoes")
    assert m.title == "Men's Running Shoes"


def test_title_site_name_that_is_a_whole_headline_and_site_title_is_ignored():
    whole = "How to design a website: a complete guide | Clay"
    head = f'<meta property="og:site_name" content="{whole}"><title>{whole}</title>'
    m = meta(page(head, "<main><h1>How to design a website: a complete guide</h1></main>"),
             "https://clay.example/blog/web-design-guide")
    assert m.title == "How to design a website: a complete guide"


def test_title_h1_that_names_the_book_after_the_page_in_title_gives_way_to_the_page():
    head = "<title>What is ownership? - The Example Book</title>"
    body = "<nav></nav><h1>The Example Book</h1><h2>What is ownership?</h2>"
    m = meta(page(head, body), "https://docs.example.org/book/ch04-01-what-is-ownership.html")
    assert m.title == "What is ownership?"


def test_title_h1_after_a_leading_brand_in_title_stays_when_the_slug_was_made_from_it():
    head = "<title>Weekly Acme Digest - Storm hits the coast</title>"
    body = "<h1>Storm hits the coast</h1>"
    m = meta(page(head, body), "https://news.example.com/2025/storm-hits-the-coast")
    assert m.title == "Storm hits the coast"


@pytest.mark.parametrize("blank_runs", [0, 1500])
def test_texts_below_headline_match_xpath_reading(blank_runs: int) -> None:
    """The plain strings below the headline (read without an XPath predicate) are, index for
    index, the texts ``_FOLLOWING_TEXTS`` gives: blank as XPath sees it (a no-break space is
    text), in nested elements and tails, and after a run of blank texts longer than the first
    batch read."""
    from newscrawl.extraction.metadata.walk import _FOLLOWING_TEXTS, _following_strings

    blanks = "<span> </span>\n" * blank_runs
    body = ("<div><h1>Headline</h1> tail of h1 <p>one <b>two</b> three</p>\n<p>\u00a0</p></div>"
            + blanks + "".join(f"<li>item {i}</li>\t" for i in range(500)))
    h1 = parse(page(body=body)).find(".//h1")
    strings = _following_strings(h1, 400)
    assert len(strings) == 400
    assert strings[:5] == [" tail of h1 ", "one ", "two", " three", "\u00a0"]
    assert strings == [str(t) for t in _FOLLOWING_TEXTS(h1, n=400)]


def test_a_page_without_headline_is_read_for_a_date_only_near_its_top() -> None:
    """On a page without a headline the labelled-date search reads the body's first ~400
    texts, as it reads the ~400 below a headline: a "Posted on" line far down a long page
    (an archive's last entry, a footer) is not the page's date."""
    def page(filler: int) -> bytes:
        rows = "".join(f"<div><span>Row {i} of the table</span></div>" for i in range(filler))
        return (f"<html><body>{rows}<p>Posted on April 13, 2023</p>"
                "<p>Some closing words of the post.</p></body></html>").encode()

    assert extract_metadata(parse(page(5).decode()), None).published == "2023-04-13"
    assert extract_metadata(parse(page(450).decode()), None).published is None


@pytest.mark.parametrize(("key", "field", "value", "expected"), [
    ("dc:creator", "authors", "Jane Doe", ("Jane Doe",)),  # Dublin Core in a name, RDFa-style
    ("fb_title", "title", "Snow in Madrid", "Snow in Madrid"),
    ("tags", "tags", "foo,money,m_food", ()),  # an analytics tagger's labels, not topics
])
def test_less_common_meta_names(key, field, value, expected):
    assert getattr(meta(page(f'<meta name="{key}" content="{value}">', "<p>x</p>")),
                   field) == expected


@pytest.mark.parametrize(("lang", "byline", "expected"), [
    # Names alone: a "Por", "di" or "Par" before them is read whatever the class.
    ("es", '<div class="noticia-autor">Juan Pérez</div>', ("Juan Pérez",)),
    ("it", '<span class="autore">Mario Rossi</span>', ("Mario Rossi",)),
    ("fr", '<span class="auteur">Marie Dupont</span>', ("Marie Dupont",)),
    ("tr", '<div class="haber-yazar">Ahmet Yılmaz</div>', ("Ahmet Yılmaz",)),
    ("id", '<div class="penulis">Budi Santoso</div>', ("Budi Santoso",)),
    ("es", '<div class="autorefresh">Juan Pérez</div>', ()),  # a widget, not the writer
])
def test_byline_classed_in_other_languages(lang, byline, expected):
    body = f"<article><h1>Titular de la noticia</h1>{byline}<p>" + "Texto. " * 60 + "</p></article>"
    assert meta(page("<title>Titular de la noticia</title>", body, lang=lang)).authors == expected


@pytest.mark.parametrize(("lang", "byline", "expected"), [
    # React sites mark their parts for tests, not styles (BBC)
    ("en", '<div data-testid="byline"><span>Jane Doe</span><span>BBC News, London</span></div>',
     ("Jane Doe",)),
    # what the piece is, before its writer's "by"
    ("en", "<p>Analysis by Stephen Collinson, CNN</p>", ("Stephen Collinson",)),
    ("en", "<p>Opinion by Jane Doe</p>", ("Jane Doe",)),
    ("de", "<p>Ein Kommentar von Max Mustermann</p>", ("Max Mustermann",)),
    ("en", "<p>Opinion by many accounts has shifted.</p>", ()),
])
def test_bylines_as_news_sites_write_them(lang, byline, expected):
    body = f"<article><h1>Headline of the story</h1>{byline}<p>" + "Text. " * 60 + "</p></article>"
    assert meta(page("<title>Headline of the story</title>", body, lang=lang)).authors == expected


def test_a_page_of_thousands_of_author_metas_gives_the_first_hundred() -> None:
    """Author strings are read up to ``MAX_AUTHOR_VALUES`` a source: a page of thousands of
    author ``<meta>`` tags is a template accident or an attack, and cleaning each cost the
    crawl's one thread 13 s at 10 MB."""
    from newscrawl.extraction.metadata.authors import MAX_AUTHOR_VALUES

    names = [f"Ann Lee{'e' * (i % 7)} Number{chr(65 + i % 26)}{chr(65 + i // 26 % 26)}"
             for i in range(3000)]
    tags = "".join(f"<meta name='author' content='{n}'>" for n in names)
    authors = meta(f"<html><head>{tags}</head><body><p>x</p></body></html>").authors
    assert len(names) == len(set(names)) and MAX_AUTHOR_VALUES == 100
    assert authors == tuple(names[:MAX_AUTHOR_VALUES])


def test_compiled_metadata_walk_finds_what_lxml_iter_and_xpath_find(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``_cwalk.metadata_elements`` gives ``_collect`` the elements ``iter(*tags)`` and the
    itemprop XPath give, in document order: among comments, a processing instruction, an
    entity reference, tags that only resemble the wanted ones, ``<meta itemprop>`` (in both
    lists), nested properties and an itemprop attribute on the root; and the metadata read
    both ways is the same."""
    from newscrawl.extraction.metadata import collect

    CWALK = compiled_walks("the XPath")
    markup = (
        '<!DOCTYPE html><html itemprop="x"><head><!-- a <meta> in a comment -->'
        '<?php echo 1; ?><title>Quay &amp; wall</title><meta name="description" content="d">'
        '<meta itemprop="datePublished" content="2024-05-01"><link rel="canonical" href="/a">'
        '<script type="application/ld+json">{"@type": "NewsArticle"}</script></head>'
        '<body><metadata>not meta</metadata><h1>Quay &copy; wall</h1><h10>no</h10>'
        '<article itemscope itemtype="https://schema.org/NewsArticle">'
        '<span itemprop="author" itemscope><span itemprop="name">Ann Lee</span></span>'
        '<time datetime="2024-05-01" itemprop="dateModified">May 1</time><svg:meta>s</svg:meta>'
        '<p>Text <!-- <h1>hidden</h1> --> more.</p></article></body></html>')
    root = parse(markup)
    tagged, props = CWALK.metadata_elements(root, collect._TAGS)
    top = root.getroottree().getroot()
    assert tagged == list(top.iter(*collect._TAGS))
    assert props == list(collect._ITEMPROP(root))
    assert [el.tag for el in tagged] == ["title", "meta", "meta", "link", "script", "h1", "time"]
    assert [el.tag for el in props] == ["html", "meta", "span", "span", "time"]
    compiled = meta(markup)
    monkeypatch.setattr(collect, "CWALK", None)
    assert meta(markup) == compiled
    assert compiled.authors == ("Ann Lee",) and compiled.title == "Quay © wall"


def test_compiled_following_texts_are_the_xpaths() -> None:
    """``_cwalk.following_texts`` gives what ``following::text()`` gives, blank ones left out
    and cut at ``n``, with the elements lxml's smart strings name as their parents: from a
    headline, from deep inside a block, from the last element (none) and from the root, past
    comments, a processing instruction, whitespace-only and no-break-space texts and script
    text (the axis reads it; the callers filter)."""
    from itertools import islice

    from lxml import etree

    from newscrawl.extraction.metadata import walk

    CWALK = compiled_walks("the XPath")
    root = etree.fromstring(  # lxml's own parser: newscrawl's drops comments and PIs
        "<html><body><div><h1>Head <b>line</b></h1> tail <!-- note --> <?pi x?>"
        "<p>By <a href='/a'>Ann</a>\n\t</p><p>\u00a0</p><script>var x = 1;</script>"
        "<div><div><span>deep</span> after deep</div></div>   \r\n</div>"
        "<footer><p>last</p></footer></body></html>", etree.HTMLParser())
    assert any(not isinstance(el.tag, str) for el in root.iter())
    for el in root.iter(etree.Element):
        for n in (1, 3, 400):
            want = list(islice((t for t in walk._FOLLOWING_ALL(el)
                                if t.strip(walk._XPATH_SPACE)), n))
            assert CWALK.following_texts(el, n) == want, (el.tag, n)
            smart = walk._FOLLOWING_TEXTS(el, n=n)  # getparent(): a tail's element, else parent
            pairs = CWALK.following_texts(el, n, True)
            assert [t for t, _ in pairs] == smart == want
            assert all(h is t.getparent() for (_, h), t in zip(pairs, smart, strict=True))
    h1 = root.find(".//h1")
    assert CWALK.following_texts(h1, 5) == [" tail ", "By ", "Ann", "\u00a0", "var x = 1;"]
    assert CWALK.following_texts(root.find(".//footer/p"), 5) == []


def test_compiled_texts_after_are_iter_afters() -> None:
    """``_cwalk.texts_after`` yields ``walk._iter_after``'s (text, holder) pairs, the same
    element objects holding them: tails held by their parents, the texts of scripts, styles
    and SVG passed over but their tails kept, cut at ``limit``; past comments and PIs (which
    newscrawl's parser drops, and lxml's iterwalk cannot start from) their tails are kept; and
    it walks a tree 5,000 elements deep (a loop, not a recursion)."""
    from itertools import islice

    from lxml import etree

    from newscrawl.extraction.metadata import walk

    CWALK = compiled_walks("lxml's iterwalk")
    markup = (
        "<html><body><div><h1>Head <b>line</b> end</h1> tail <!-- note --> after note"
        "<?pi x?> after pi<p>By <a href='/a'>Ann</a>\n\t and Bo</p><p>\u00a0</p>"
        "<script>var x = 1;</script> after script<svg><text>drawn</text></svg> after svg"
        "<div><div><span>deep</span> after deep</div> out</div>   \r\n</div>"
        "<footer><p>last</p></footer></body></html>")
    root = parse(markup)
    for el in root.iter():
        for limit in (1, 4, 60):
            got = CWALK.texts_after(el, walk._OPAQUE_NAMES, limit)
            want = list(islice(walk._iter_after(el), limit))
            assert [t for t, _ in got] == [t for t, _ in want], (el.tag, limit)
            assert all(a is b for (_, a), (_, b) in zip(got, want, strict=True))
    texts = [t for t, _ in CWALK.texts_after(root.find(".//h1"), walk._OPAQUE_NAMES, 60)]
    assert "drawn" not in texts and "var x = 1;" not in texts and " after svg" in texts
    commented = etree.fromstring(markup, etree.HTMLParser())
    texts = [t for t, _ in CWALK.texts_after(commented.find(".//h1"), walk._OPAQUE_NAMES, 60)]
    assert texts[:4] == [" tail ", " after note", " after pi", "By "]
    deep = etree.Element("html")
    node = head = etree.SubElement(etree.SubElement(deep, "body"), "h1")
    for k in range(5000):
        node = etree.SubElement(node if k else deep[0], "div")
        node.text, node.tail = f"text {k}", f"tail {k}"
    got = CWALK.texts_after(head, walk._OPAQUE_NAMES, 20000)
    assert [t for t, _ in got] == [t for t, _ in walk._iter_after(head)]
    assert len(got) == 10000


def test_compiled_links_after_are_the_window_s_links() -> None:
    """``_cwalk.links_after`` gives the hrefs (or "") of the ``<a>`` elements among the first
    ``limit`` elements ``walk._elements_after`` yields, from any element; and a forum's first
    poster is still found when the window links a member's profile."""
    from itertools import islice

    from newscrawl.extraction.metadata import walk

    CWALK = compiled_walks("the Python loop")
    markup = page(body=(
        "<h1>Parking on Elm Street</h1><div class='post'><a href='memberlist.php?mode=viewprofile"
        "&amp;u=7'>elmfan</a><span>Posts: 12</span><p>Where do you park?</p></div>"
        "<div><a>no href</a><p><a href='/x'><b>x</b></a></p></div><a href='/last'>last</a>"))
    root = parse(markup)
    for el in root.iter():
        for limit in (0, 1, 3, 300):
            want = [e.get("href") or "" for e in islice(walk._elements_after(el), limit)
                    if e.tag == "a"]
            assert CWALK.links_after(el, limit) == want, (el.tag, limit)
    assert meta(markup).authors == ("elmfan",)


def test_compiled_byline_candidates_hold_every_byline_of_both_windows() -> None:
    """``_cwalk.byline_candidates_after`` and ``_before`` keep, in window order, every element
    ``bylines._is_byline`` accepts among the first ``limit`` after an element (as
    ``_bylines_after`` walks) and before it (as ``walk._iter_elements_before``), from any
    element: each way a byline is marked, upper-case and non-ASCII class values, comments
    between the elements, and a decoy that only the Python test turns down."""
    from itertools import islice

    from newscrawl.extraction.metadata import bylines, walk

    CWALK = compiled_walks("the Python windows")
    markup = page(body=(
        "<div class='top'><span REL='author'>Ann Lee</span><!-- c --><i itemprop='author'>Bo"
        "</i></div><p data-testid='Byline'>Cy Dunn</p><div id='AUTORE'>Di Este</div>"
        "<h1>Parking on Elm Street</h1><!-- c --><a href='/authors/ed-fox/'>Ed Fox</a>"
        "<a data-author='12'>Flo Gray</a><div class='followAuthorBtn'>Follow</div>"
        "<div class='authorization'>Sign in</div><div class='İauthor'>Gil Hay</div>"
        "<section><div><span class='meta-writer'>Ida Joy</span></div><p>Text.</p></section>"
        "<div class='autorefresh'>x</div><span class='yazar'>Kaya Lim</span>"))
    root = parse(markup)
    for el in root.iter("*"):
        for limit in (0, 1, 4, 150):
            after = list(bylines._bylines_after(el, limit))
            before = list(filter(bylines._is_byline,
                                 islice(walk._iter_elements_before(el), limit)))
            assert [e for e in CWALK.byline_candidates_after(el, limit)
                    if bylines._is_byline(e)] == after, (el.tag, limit)
            assert [e for e in CWALK.byline_candidates_before(el, limit)
                    if bylines._is_byline(e)] == before, (el.tag, limit)
    h1 = root.find(".//h1")
    assert len(list(bylines._bylines_after(h1, 150))) == 5
    assert len(list(filter(bylines._is_byline, walk._iter_elements_before(h1)))) == 4
    # the decoys reach the Python test, which turns them down
    assert {"followAuthorBtn", "authorization", "autorefresh"} <= {
        e.get("class") for e in CWALK.byline_candidates_after(h1, 150)}


def test_the_thread_starter_words_are_found_as_the_ignorecase_regex_finds_them() -> None:
    """``bylines._names_a_starter`` answers as ``(?i)thread|topic|started|discussion`` over the
    texts joined would, with the characters the regex engine alone folds to these letters
    ("İ", "ı", "ſ", the Kelvin sign's neighbours) among them."""
    import random
    import re

    from newscrawl.extraction.metadata import bylines

    regex = re.compile(r"(?i)thread|topic|started|discussion")
    rng = random.Random(8)
    letters = "threadTHREADopicOPICsStTdDiIuUnN" + "İıſKÅéß\u0307 \0"
    hits = 0
    for _ in range(20000):
        texts = ["".join(rng.choice(letters) for _ in range(rng.randint(0, 9)))
                 for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.5:
            texts += rng.sample(["Thread starter", "TOPİC author", "ſtarted by", "Discussion"], 1)
        want = regex.search("\0".join(texts)) is not None
        assert bylines._names_a_starter(texts) == want, texts
        hits += want
    assert 0.3 < hits / 20000 < 1
