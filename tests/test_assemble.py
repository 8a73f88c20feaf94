"""The article's nodes: a story page's appended stories (infinite scroll), its own address and
its hidden copies of the story are not its text."""

from __future__ import annotations

import json

import numpy as np
import pytest

from newscrawl import extract
from newscrawl.extraction.assemble import keep_nodes
from newscrawl.extraction.extractor import page_nodes

FIRST = [
    "The council voted on Tuesday to close the old bridge over the river for repairs that "
    "engineers say cannot wait another winter, after an inspection found cracks in two piers.",
    "Traffic will be sent through the northern ring road from next month, adding about ten "
    "minutes to the average commute, the transport office said in a statement.",
    "Shop owners on both banks said they feared losing customers during the works, which are "
    "expected to last until the end of the summer.",
    "The mayor promised a fund to help the businesses most affected and said the city would "
    "review the schedule every two weeks.",
]
SECOND = [
    "The national football team named three new players for next week's qualifying matches, "
    "bringing in a young goalkeeper who has impressed in the league this season.",
    "The coach told reporters that the squad needed fresh energy after two defeats and that "
    "places in the starting eleven were open to everyone.",
    "Fans reacted with enthusiasm online, though some questioned why the veteran captain had "
    "been left out of the list for the away game.",
    "The first match will be played on Thursday evening in front of a sold-out crowd at the "
    "national stadium.",
]
TITLE = "Old bridge to close for repairs"
URL = "https://news.example/2025/03/04/old-bridge-to-close"


def story_page(second_heading: str = "h1", declared: str | None = "NewsArticle",
               headline: str = TITLE) -> bytes:
    """A story page that scrolls on into the next story, rendered into the same HTML."""
    ld = json.dumps({"@type": declared, "headline": TITLE}) if declared else "{}"
    first = "".join(f"<p>{p}</p>" for p in FIRST)
    second = "".join(f"<p>{p}</p>" for p in SECOND)
    return f"""<html><head><title>{TITLE}</title>
<script type="application/ld+json">{ld}</script></head>
<body><nav><a href="/">Home</a> <a href="/news">News</a></nav><main>
<article><h1>{headline}</h1><div class="body">{first}</div></article>
<article><{second_heading}>Three new players named for qualifiers</{second_heading}>
<div class="body">{second}</div></article>
</main><footer>© News Example</footer></body></html>""".encode()


def test_the_next_story_rendered_below_a_story_is_not_its_text() -> None:
    article = extract(story_page(), url=URL)
    assert all(p in article.text for p in FIRST)
    assert not any(p in article.text for p in SECOND)


def flagged(body: bytes) -> list[str]:
    """What ``keep_nodes`` leaves out of a page whose every node the model believes."""
    table = page_nodes(body, URL).table
    assert table is not None
    return [table.texts[i] for i in np.flatnonzero(
        ~keep_nodes(table, np.full(len(table), 0.99)))]


def test_only_the_other_articles_nodes_are_flagged_heading_and_all() -> None:
    assert flagged(story_page()) == ["Three new players named for qualifiers", *SECOND]


@pytest.mark.parametrize("page", [
    story_page(second_heading="h2"),  # a teaser card or a comment: no headline of its own
    story_page(declared=None),  # not a story page: a blog front may show two whole posts
    story_page(headline="Elsewhere on the site"),  # no <h1> matches the declared title
], ids=["teaser", "undeclared", "no-headline"])
def test_articles_without_a_headline_of_their_own_or_pages_without_a_story_are_left(
        page: bytes) -> None:
    assert flagged(page) == []


def test_a_title_that_names_a_teaser_card_leaves_the_story_alone() -> None:
    """ABC News declares the shorter headline of its news-feed card, an ``<article>`` with an
    ``<h1>`` of its own beside the story's: the story is still the page's text."""
    first = "".join(f"<p>{p}</p>" for p in FIRST)
    body = f"""<html><head><title>{TITLE}</title>
<script type="application/ld+json">{json.dumps({"@type": "NewsArticle"})}</script></head>
<body><main><article><h1>Council shuts the old river bridge after cracks found</h1>
<div class="body">{first}</div></article>
<aside><article class="feed-item"><h1>{TITLE}</h1></article>
<article class="feed-item"><h1>Three new players named for qualifiers</h1></article></aside>
</main></body></html>""".encode()
    table = page_nodes(body, URL).table
    assert table is not None
    story = np.array([t in FIRST for t in table.texts])
    keep = keep_nodes(table, np.where(story, 0.99, 0.01))
    assert [table.texts[i] for i in np.flatnonzero(keep)] == FIRST


IMAGE = "https://cdn.news.example/images/2025/03/bridge-piers-1200x800.jpg"


def address_page(printed: str, declared: str | None = "NewsArticle") -> bytes:
    """A story whose template prints an address as a paragraph of its own, inside the
    article (a share box, a print footer, an image credit)."""
    ld = json.dumps({"@type": declared}) if declared else "{}"
    first = "".join(f"<p>{p}</p>" for p in FIRST)
    return f"""<html><head><title>{TITLE}</title><meta property="og:image" content="{IMAGE}">
<link rel="canonical" href="{URL}?utm_source=feed">
<script type="application/ld+json">{ld}</script></head>
<body><article><h1>{TITLE}</h1>{first}<p>{printed}</p></article></body></html>""".encode()


@pytest.mark.parametrize("printed", [
    URL, URL.replace("https://", "http://www.") + "/", URL.removeprefix("https://"),
    f"{URL}#comments", IMAGE, f"{IMAGE}?w=1200"])
@pytest.mark.parametrize("declared", ["NewsArticle", None], ids=["story", "undeclared"])
def test_the_pages_own_address_or_its_images_printed_as_text_is_not_its_text(
        printed: str, declared: str | None) -> None:
    assert flagged(address_page(printed, declared)) == [printed]


@pytest.mark.parametrize("printed", [
    "https://news.example/2025/03/05/bridge-works-begin",  # another page's address
    f"Read the full inspection report at {URL}",  # prose that names it
    "news.example",  # the site's name, not the page's address
])
def test_other_addresses_and_prose_naming_the_page_are_left(printed: str) -> None:
    assert flagged(address_page(printed)) == []


def test_a_paragraph_of_invisible_characters_is_not_written_even_with_a_space_inside() -> None:
    from newscrawl.extraction.assemble import assemble
    table = page_nodes(("<html><body><article>" + "".join(f"<p>{t}</p>" for t in FIRST[:2])
                        + "<p>\u200d \u200d</p><p>\u200b<br>\ufeff</p>" + f"<p>{FIRST[2]}</p>"
                        "</article></body></html>").encode(), URL).table
    assert assemble(table, np.ones(len(table), dtype=bool)).split("\n\n") == FIRST[:3]


def hidden_copy_page(hidden: str, hiding: str = 'style="display:none"', script: str = "words"
                     ) -> bytes:
    """A paywalled story: the paragraphs a reader sees, then ``hidden`` in a hidden box."""
    paragraphs = FIRST if script == "words" else ZH
    first = "".join(f"<p>{p}</p>" for p in paragraphs)
    return f"""<html><head><title>{TITLE}</title></head><body><article><h1>{TITLE}</h1>
{first}<div class="o-paywall" {hiding}>{hidden}</div></article></body></html>""".encode()


ZH = ["市议会周二投票决定关闭河上的旧桥进行维修，工程师表示维修工作不能再拖过一个冬天，"
      "此前的检查在两个桥墩上发现了裂缝。",
      "从下个月起，交通将改走北环路，交通部门在声明中说，这会让平均通勤时间增加大约十分钟。",
      "两岸的店主说，他们担心在施工期间失去顾客，预计工程将持续到夏末。",
      "市长承诺设立一项基金，帮助受影响最大的商户，并表示市政府将每两周审查一次施工进度。",
      "工程师说，新的桥墩将采用更耐腐蚀的材料，以便大桥在今后五十年内无需再进行类似的大修。",
      "一些居民则担心，绕行的车辆会让北环路沿线的学校和住宅区变得更加拥堵和嘈杂，"
      "他们要求交通部门在上下学时段增派交警，并在施工期间公布每周的交通安排。"]


@pytest.mark.parametrize("hiding", ['style="display:none"', "hidden"])
@pytest.mark.parametrize("script", ["words", "chars"])
def test_a_hidden_copy_of_the_story_as_one_run_of_text_is_not_its_text(
        hiding: str, script: str) -> None:
    paragraphs = FIRST if script == "words" else ZH
    copy = " ".join(paragraphs[1:])  # the rest of the story, for the script that unlocks it
    assert flagged(hidden_copy_page(copy, hiding, script)) == [copy]


@pytest.mark.parametrize("hidden", [
    " ".join(SECOND),  # a tab's or an accordion's own text
    FIRST[1][:150],  # too short to judge
    f"{FIRST[1]} {SECOND[0]} {SECOND[1]} {SECOND[2]}",  # mostly text of its own
], ids=["own-text", "short", "mostly-new"])
def test_hidden_text_the_visible_text_does_not_hold_is_left_to_the_model(hidden: str) -> None:
    assert flagged(hidden_copy_page(hidden)) == []


def test_a_visible_repeat_is_left_to_assemble() -> None:
    """Only a hidden node is judged a copy: a visible one is a repeat ``assemble`` handles."""
    assert flagged(hidden_copy_page(" ".join(FIRST[1:]), hiding="")) == []


def test_copies_past_the_size_limit_are_left_not_hashed() -> None:
    """Each character starts a run: on a story of megabytes the check would cost gigabytes,
    so past ``COPY_MAX_CHARS`` the hidden copy is left to the model."""
    from newscrawl.extraction.assemble import COPY_MAX_CHARS
    long = [f"{p} Paragraph {k}." for k in range(COPY_MAX_CHARS // 300) for p in FIRST[:1]]
    first = "".join(f"<p>{p}</p>" for p in long)
    copy = " ".join(long)
    body = (f"<html><body><article><h1>{TITLE}</h1>{first}"
            f'<div style="display:none">{copy}</div></article></body></html>').encode()
    assert copy not in flagged(body)
    assert flagged(hidden_copy_page(" ".join(FIRST[1:]))) == [" ".join(FIRST[1:])]


WALL = ["Create an account or sign in to continue with your reading experience.",
        "Access articles from across Canada with one account.",
        "Share your thoughts and join the conversation in the comments."]


def toggled_page(wall: list[str], hiding: str = "hidden", declared: str | None = "NewsArticle",
                 close: bool = True) -> bytes:
    """A story with a sign-in wall among its paragraphs that the site's script shows on
    demand (``class="... hidden"``); ``close=False`` leaves the hiding ``<div>`` open, so the
    parser puts the rest of the story inside it."""
    ld = json.dumps({"@type": declared, "headline": TITLE}) if declared else "{}"
    items = "".join(f"<li>{line}</li>" for line in wall)
    wall_html = f'<div class="sign-in-group {hiding}"><ul>{items}</ul>{"</div>" if close else ""}'
    first = "".join(f"<p>{p}</p>" for p in FIRST[:2])
    rest = "".join(f"<p>{p}</p>" for p in FIRST[2:])
    return f"""<html><head><title>{TITLE}</title>
<script type="application/ld+json">{ld}</script></head><body><article><h1>{TITLE}</h1>
<div class="article-content">{first}{wall_html}{rest}</div></article></body></html>""".encode()


@pytest.mark.parametrize("hiding", ["hidden", "d-none"])
def test_short_lines_a_story_page_shows_on_demand_are_not_its_text(hiding: str) -> None:
    assert flagged(toggled_page(WALL, hiding)) == WALL


@pytest.mark.parametrize("page", [
    toggled_page(WALL, hiding="field-label-hidden"),  # a class that only contains the word
    toggled_page(WALL, declared=None),  # not a story: a tab's or an accordion's text
    toggled_page([f"{FIRST[1]} {SECOND[0]}"]),  # an accordion's answer, not a short line
    toggled_page(WALL, close=False),  # the story itself under a stray hiding class
], ids=["class-word", "no-story", "long", "unclosed"])
def test_other_hidden_text_is_left_to_the_model(page: bytes) -> None:
    assert flagged(page) == []
