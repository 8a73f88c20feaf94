"""Node features on pages written here: language-agnostic counts, structure, ancestors, links."""

from __future__ import annotations

import random
import time
from pathlib import Path

import numpy as np
import pytest
from compiledutil import compiled_walks
from lxml import etree

from newscrawl.extraction import features as F
from newscrawl.extraction.extractor import page_nodes
from newscrawl.extraction.features import FEATURE_NAMES
from newscrawl.extraction.text import collapse_spaces


def table_of(body: str):
    table = page_nodes(body.encode("utf-8"), "http://example.test/a").table
    assert table is not None
    return table


def row(table, needle: str) -> dict[str, float]:
    (i,) = [i for i, t in enumerate(table.texts) if needle in t]
    return dict(zip(FEATURE_NAMES, table.X[i].tolist(), strict=True))


def test_feature_names_are_unique_and_match_the_matrix() -> None:
    assert len(set(FEATURE_NAMES)) == len(FEATURE_NAMES)
    table = table_of("<html><body><p>One paragraph of text.</p></body></html>")
    assert table.X.shape == (1, len(FEATURE_NAMES)) and table.X.dtype == np.float32


def test_chinese_sentences_are_counted_without_spaces() -> None:
    zh = "北京今天下雪了。交通受到影响！市民出行请注意安全。"
    r = row(table_of(f"<html><body><p>{zh}</p></body></html>"), "北京")
    assert r["stops"] == pytest.approx(np.log1p(3))
    assert r["chars"] == pytest.approx(np.log1p(len(zh)))
    assert r["cjk_ratio"] > 0.8 and r["space_ratio"] == 0
    assert r["ends_with_stop"] == 1


def test_spaced_and_unspaced_text_of_same_length_differ_only_in_spacing() -> None:
    en = row(table_of("<html><body><p>Rain fell. Roads shut. Buses ran late.</p></body></html>"),
             "Rain")
    assert en["stops"] == pytest.approx(np.log1p(3))
    assert en["space_ratio"] > 0 and en["cjk_ratio"] == 0
    ar = row(table_of("<html><body><p>هل ستمطر غدا؟ نعم.</p></body></html>"), "هل")
    assert ar["stops"] == pytest.approx(np.log1p(2))  # Arabic question mark ends a sentence


@pytest.mark.parametrize("text", [
    "မိုးရွာတယ်။ လမ်းပိတ်တယ်။",  # Burmese
    "ភ្លៀងធ្លាក់។ ផ្លូវបិទ។",  # Khmer
    "ཆར་པ་བབས། ལམ་ཁ་བཀག།",  # Tibetan
    "雨が降った．道路は閉鎖された．",  # Japanese with full-width full stops
    "वर्षा हुई॥ मार्ग बंद हुआ॥",  # Devanagari double danda
])
def test_sentence_ends_of_other_scripts_count_as_stops(text: str) -> None:
    r = row(table_of(f"<html><body><p>{text}</p></body></html>"), text[:3])
    assert r["stops"] == pytest.approx(np.log1p(2))
    assert r["ends_with_stop"] == 1


def test_inline_tags_unwrap_into_one_node_and_links_are_counted() -> None:
    table = table_of(
        "<html><body><p>A <b>bold</b> and <a href='/x'>linked</a> word in one sentence.</p>"
        "<ul><li><a href='/1'>Home</a> <a href='/2'>World</a> <a href='/3'>Sport</a></li></ul>"
        "</body></html>")
    assert any(t == "A bold and linked word in one sentence." for t in table.texts)
    prose = row(table, "bold")
    menu = row(table, "Home")
    assert 0 < prose["own_link_density"] < 0.3
    assert menu["own_link_density"] > 0.9 and menu["own_link_count"] == pytest.approx(np.log1p(3))


def test_ancestor_groups_from_semantic_tags_and_class_words() -> None:
    table = table_of(
        "<html><body><nav><ul><li>Menu entry here</li></ul></nav>"
        "<div class='site-footer__inner'><p>Footer words here</p></div>"
        "<div id='articleBody'><p>Story words here</p></div></body></html>")
    menu, foot, story = row(table, "Menu"), row(table, "Footer"), row(table, "Story")
    assert menu["anc_t_nav"] == 2  # li -> ul -> nav
    assert foot["anc_footer"] == 1 and story["anc_footer"] == 30
    assert story["anc_article"] == 1 and story["anc_content"] == 1
    assert menu["anc_article"] == 30


def test_reviews_and_disclaimers_are_named_for_the_model() -> None:
    table = table_of(
        "<html><body><div class='product-description'><p>A sturdy shelf of solid pine.</p></div>"
        "<section class='customerReviews'><p>Arrived scratched, two stars.</p></section>"
        "<div class='legal-disclaimer'><p>Colours may vary from the photo.</p></div>"
        "</body></html>")
    shelf, review, small_print = row(table, "sturdy"), row(table, "Arrived"), row(table, "Colours")
    assert review["anc_review"] == 1 and shelf["anc_review"] == 30
    assert small_print["anc_footer"] == 1 and shelf["anc_footer"] == 30


def test_token_junk_stands_apart_from_prose_in_any_script() -> None:
    table = table_of(
        "<html><body><p>Plain prose, with ordinary words in it.</p>"
        "<p>9303097ac-d3e5-41e1-baf5-303640756ebfX2bf8403c-6590-4d73-8b16-95f6c3ecdef8</p>"
        "<p>中文的句子没有空格，也不是垃圾。</p></body></html>")
    prose, junk, zh = row(table, "Plain"), row(table, "9303"), row(table, "中文")
    assert junk["cased_run"] > prose["cased_run"] + 2
    assert zh["cased_run"] == 0  # no cased letters: unspaced scripts never look like junk


def test_hidden_elements_are_kept_and_marked_for_the_model() -> None:
    # Collapsed tabs and accordions hold a product's description or a page's FAQ: whether
    # hidden text is content is the model's call, told by the distance to the hiding element.
    # Only markup hides: "hidden-xs" hides a box on phones, "hide-on-print" on paper.
    table = table_of("<html><body><p>Seen text.</p><div style='display: none'><p>Unseen.</p>"
                     "</div><p hidden>Also unseen.</p><p aria-hidden='true'>No.</p>"
                     "<div class='hidden-xs hide-on-print sr'><p>Seen on a desktop.</p></div>"
                     "</body></html>")
    assert table.texts == ["Seen text.", "Unseen.", "Also unseen.", "No.", "Seen on a desktop."]
    assert row(table, "Seen text.")["anc_hidden"] == 30
    assert row(table, "Unseen.")["anc_hidden"] == 1
    assert row(table, "Also unseen.")["anc_hidden"] == 0
    assert row(table, "No.")["anc_hidden"] == 0
    assert row(table, "desktop")["anc_hidden"] == 30


def test_hidden_inline_text_is_dropped_not_glued_into_the_visible_text() -> None:
    # Unwrapped, a hidden span's text would join the paragraph around it and lose its mark.
    table = table_of(
        "<html><body><p>Tide tables <span style='display:none'>javascript:void(0)</span>for "
        "the <a href='#' hidden>Menu</a>harbour<span class='usa-sr-only'> (opens a new tab)"
        "</span> are <cite style='visibility: hidden'>Slide 2</cite>posted daily.</p>"
        "<p><span class='srcset'>Kept</span> and <span class='visually'>kept</span> and "
        "<span aria-hidden='true'>kept</span>.</p>"
        "<p>Ferries <span class='SR-Only'>(opens a new tab)</span>sail at <span "
        "class='Element-Invisible'>Menu</span>noon.</p>"  # class names in any case
        "<div style='display:none'><p>A hidden block stays.</p></div></body></html>")
    assert table.texts == ["Tide tables for the harbour are posted daily.",
                           "Kept and kept and kept.", "Ferries sail at noon.",
                           "A hidden block stays."]
    assert row(table, "Tide tables")["own_link_count"] == 0


def test_headline_anchor_and_position_features() -> None:
    table = table_of("<html><head><title>Big storm hits coast</title></head><body>"
                     "<p>Before the headline</p><h1>Big storm hits coast</h1>"
                     "<p>After the headline</p></body></html>")
    assert row(table, "Before")["after_title"] == 0
    assert row(table, "After")["after_title"] == 1
    assert row(table, "Big storm")["matches_title"] == 1
    assert row(table, "After")["rank"] > row(table, "Before")["rank"]


def test_a_short_chinese_headline_matches_its_title_whole_only() -> None:
    table = table_of("<html><head><title>河堤加固</title></head><body>"
                     "<p>河堤</p><h1>河堤加固</h1><p>工人们连夜加固了河堤，水位已经回落。</p>"
                     "</body></html>")
    assert row(table, "河堤加固")["matches_title"] == 1
    assert row(table, "河堤加固")["after_title"] == 0
    assert row(table, "工人们")["after_title"] == 1
    # a shorter piece of the title is no match
    (nav,) = [i for i, t in enumerate(table.texts) if t == "河堤"]
    assert table.X[nav, FEATURE_NAMES.index("matches_title")] == 0
    # a short title in a cased script is a word that lists repeat: no whole-node match
    table = table_of("<html><head><title>Otters</title></head><body><h1>Otters</h1>"
                     "<ul><li>Otters</li><li>Seals</li></ul><p>Otters live by rivers.</p>"
                     "</body></html>")
    short = [i for i, t in enumerate(table.texts) if t == "Otters"]
    assert len(short) == 2
    assert not table.X[short, FEATURE_NAMES.index("matches_title")].any()


def test_char_counts_do_not_depend_on_batching(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(3)
    alphabet = ["a", "Z", " ", "\u3000", "字", "。", "!", "7", "$", "\U0001F600", "é"]
    # Some nodes end in whitespace (the last codepoint is the last non-space one), some are
    # longer than the batch of 97 below (classified alone, in slices).
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 300)))
             + rng.choice(["x", "。", "\U0001F600", "7"])
             + rng.choice(["", " ", "\u3000\n", "\u2028 "]) for _ in range(200)]
    whole = F._char_counts(texts)
    monkeypatch.setattr(F, "_CHUNK_CHARS", 97)
    batched = F._char_counts(texts)
    np.testing.assert_array_equal(whole[0], batched[0])
    np.testing.assert_array_equal(whole[1], batched[1])
    assert whole[0].sum() == sum(len(t) for t in texts)
    assert whole[1].tolist() == [ord(t.rstrip()[-1]) for t in texts]


def test_block_written_columns_stay_adjacent() -> None:
    """node_features writes each level's density columns and the ancestor columns as blocks."""
    own = FEATURE_NAMES.index("own_link_density")
    for k, level in enumerate(("own", "par", "grand", "cont")):
        first = FEATURE_NAMES.index(f"{level}_link_density")
        assert first == own + k * F._DENSITY_COLS  # the four levels are one block, in order
        block = FEATURE_NAMES[first:first + F._DENSITY_COLS]
        assert block == tuple(f"{level}_{name}" for name in (
            "link_density", "link_count", "text_share", "chars", "text_nodes",
            "mean_node_chars", "p_desc", "desc", "punct_density", "dt", "ds", "ds_rel"))
    first = FEATURE_NAMES.index(f"anc_{F.GROUPS[0]}")
    assert FEATURE_NAMES[first:first + len(F.GROUPS)] == tuple(f"anc_{g}" for g in F.GROUPS)


def test_collapse_spaces_matches_split_join_on_huge_text() -> None:
    rng = random.Random(5)
    pieces = ["word", " ", "\n\t ", "字", "  ", "\u3000"]
    for _ in range(5):
        text = "".join(rng.choice(pieces) for _ in range(60_000))
        assert len(text) > 65536
        assert collapse_spaces(text) == " ".join(text.split())


def test_source_newlines_collapse_but_br_and_pre_keep_lines() -> None:
    from newscrawl.extraction.assemble import assemble

    table = table_of("<html><body><p>one\n  two<br>three</p><pre>def f():\n    return 1</pre>"
                     "</body></html>")
    text = assemble(table, np.ones(len(table), dtype=bool))
    assert text == "one two\nthree\n\ndef f():\nreturn 1"


def test_a_paragraph_the_layout_repeats_is_written_once_but_the_authors_repeats_stay() -> None:
    from newscrawl.extraction.assemble import assemble

    para = "The council approved the new budget on Tuesday evening."
    zh = "市议会周二晚上批准了新的预算方案。"
    layout = (f"<div class=mobile><article><p>{para}</p><p>{zh}</p></article></div>"
              f"<div class=desktop><main><article><p>{para.upper()}</p><p>{zh}</p>"
              "<p>Reply</p><p>Reply</p></article></main></div>")
    text = assemble(table := table_of(f"<html><body>{layout}</body></html>"),
                    np.ones(len(table), dtype=bool))
    assert text.split("\n\n") == [para, zh, "Reply", "Reply"]

    chorus = "Lorem ipsum dolor sit amet, consectetur adipisicing elit."
    sections = (f"<article><h1>Song</h1><div><p>{chorus}</p><p>Verse one goes here.</p></div>"
                f"<h2>Again</h2><div><p>{chorus}</p></div></article>")
    text = assemble(table := table_of(f"<html><body>{sections}</body></html>"),
                    np.ones(len(table), dtype=bool))
    assert text.split("\n\n") == ["Song", chorus, "Verse one goes here.", "Again", chorus]


def test_text_stored_as_mangled_utf8_is_written_as_meant() -> None:
    from newscrawl.extraction.assemble import assemble

    meant = ["The harbour’s new bridge — open at last", "Ferry ‘Skarv’ retires", "€9 a ticket"]
    mangled = [p.encode().decode("cp1252") if i % 2 else p.encode().decode("latin-1")
               for i, p in enumerate(meant)]
    kept = ["Café’s terrace reopens — été»", "新桥下月通车 Ã©"]  # real accents, a real "’"
    invisible = ["\u200d", "\u200d".encode().decode("latin-1")]  # a page builder's spacer
    body = "".join(f"<p>{p}</p>" for p in mangled + invisible + kept)
    text = assemble(table := table_of(f"<html><body>{body}</body></html>"),
                    np.ones(len(table), dtype=bool))
    assert text.split("\n\n") == meant + kept


def test_collapse_spaces_shortcut_holds_for_every_whitespace_character() -> None:
    """The shortcut returns a printable text untouched: that needs every whitespace character
    but the plain space to be unprintable, for all of Unicode."""
    assert all(not chr(cp).isprintable() for cp in range(0x110000)
               if chr(cp).isspace() and cp != 0x20)
    for text in ("one two", " one", "one ", "one  two", "one\ttwo", "one\xa0two", "一 二",
                 "a\u2028b", "", " ", "x"):
        assert collapse_spaces(text) == " ".join(text.split())


def test_ancestor_distances_equal_a_walk_up_the_tree() -> None:
    rng = np.random.default_rng(7)
    n = 400
    # Mostly chains (deeper than the cap of 30 levels), now and then a branch.
    parent = np.array([-1] + [i - 1 if rng.random() < 0.9 else int(rng.integers(0, i))
                              for i in range(1, n)])
    depth = np.zeros(n, dtype=np.int64)
    for i in range(1, n):
        depth[i] = depth[parent[i]] + 1
    # A few groups only, the others on no element at all.
    masks = [int(rng.choice([0] * 30 + [1, 1 << 5, 1 << 20, 0b11])) for _ in range(n)]
    owner = rng.integers(0, n, 300)
    got = F._ancestor_distances(masks, parent, depth, owner)
    assert depth.max() > 2 * F.NO_ANCESTOR
    assert 0 < (got[:, 0] == F.NO_ANCESTOR).mean() < 1
    for row, el in zip(got, owner.tolist(), strict=True):
        for g in range(len(F.GROUPS)):
            up, levels = el, 0
            while up >= 0 and not masks[up] >> g & 1:
                up, levels = parent[up], levels + 1
            assert row[g] == (min(levels, F.NO_ANCESTOR) if up >= 0 else F.NO_ANCESTOR)


def test_link_characters_count_nested_markup_and_empty_links() -> None:
    from lxml import html

    from newscrawl.extraction.clean import clean

    root = html.fromstring("<html><body><p>Intro <a href='/a'>one <b>two</b>\nthree</a> "
                           "<a href='/b'></a> <a href='/c'>four</a></p></body></html>")
    (counts,) = clean(root).values()
    assert counts == (len("onetwothree") + len("four"), 3)


def test_text_inside_a_link_around_blocks_knows_how_far_up_the_link_is() -> None:
    """A teaser card is often one ``<a>`` around a heading and a summary: the link counts,
    keyed by the ``<a>``'s own block, do not reach the heading; ``linked`` does, and only for
    text inside a block inside a link (not for a link inside a heading, nor for the story)."""
    story = "<p>" + "A sentence of the story itself, written out. " * 6 + "</p>"
    card = ("<li><a href='/a'><div class='item'><div class='detail'>"
            "<h3>A wrapped headline of another story</h3><p>Its summary line.</p>"
            "</div></div></a></li>")
    inline = "<li><h3><a href='/b'>An inline-linked headline of a story</a></h3></li>"
    table = table_of(f"<html><body>{story}<ul>{card}{inline}</ul></body></html>")

    def linked(needle: str) -> float:
        (i,) = [i for i, t in enumerate(table.texts) if needle in t]
        return float(table.linked[i])

    assert table.linked.dtype == np.float32 and table.linked.shape == (len(table),)
    assert linked("wrapped headline") == 2 and linked("summary line") == 2
    assert row(table, "wrapped headline")["own_link_density"] == 0  # the counts stay
    for text in ("inline-linked", "story itself"):
        assert linked(text) == F.NO_ANCESTOR
    assert "anc_linked" not in FEATURE_NAMES  # stage 1 does not read it


def test_a_block_inside_links_nested_in_inline_tags_is_still_marked() -> None:
    """Each ``<a>`` marks the blocks of its own subtree and leaves nested links to theirs
    (walking through them made ``<a><b><a><b>…`` quadratic): a block reached through two
    links is marked, by the inner one."""
    story = "<p>" + "A sentence of the story itself, written out. " * 6 + "</p>"
    card = ("<li><a href='/a'><b>Outer <a href='/b'><div><h3>A headline inside two links</h3>"
            "</div></a></b></a></li>")
    table = table_of(f"<html><body>{story}<ul>{card}</ul></body></html>")
    linked = dict(zip(table.texts, table.linked.tolist(), strict=True))
    assert linked["A headline inside two links"] == 1
    assert linked["Outer "] == F.NO_ANCESTOR  # inline text of the link itself: no block


@pytest.mark.parametrize(("body", "texts", "link_chars"), [
    ("<div>" + "word<br>" * 2000 + "</div>", ["\u2028".join(["word"] * 2000)], 0),
    ("<p><a href='/x'>" + "word<img src='x.png'>" * 2000 + "</a></p>", ["word" * 2000], 8000),
    ("<p>" + "<span style='display:none'>hidden</span>word " * 2000 + "</p>",
     [" ".join(["word"] * 2000)], 0),
    ("<pre>" + "<span class='k'>if</span> x\n" * 2000 + "</pre>",
     ["\u2028".join(["if x"] * 2000)], 0),
    ("<p>" + "word<!-- note -->" * 2000 + "</p>", ["word" * 2000], 0),
], ids=["br", "link-with-images", "hidden-spans", "pre-with-spans", "comments"])
def test_thousands_of_unwrapped_tags_leave_one_text_node_per_run(
        body: str, texts: list[str], link_chars: int) -> None:
    """libxml2 keeps the text around a dropped or unwrapped element as separate nodes, and
    lxml reads k adjacent nodes by k concatenations: a run of 100,000 took 0.2 s a read, a
    10 MB page of them minutes. After cleaning, an element holds at most one text node per
    run (its text, each child's tail) wherever it would hold hundreds."""
    from lxml import html

    from newscrawl.extraction.clean import clean

    root = html.fromstring(f"<html><body>{body}</body></html>")
    links = clean(root)
    assert sum(chars for chars, _ in links.values()) == link_chars
    for el in root.iter():
        assert int(el.xpath("count(text())")) <= max(len(el) + 1, 256), el.tag
    assert [collapse_spaces(t) for t in table_of(f"<html><body>{body}</body></html>").texts] == [
        collapse_spaces(t) for t in texts]


def test_text_beside_a_dropped_form_control_is_marked_near_it() -> None:
    """Cleaning drops buttons and inputs; their block keeps a mark, and every node learns how
    far up the smallest subtree holding a control is: a sign-up box's text sits beside its
    form, the story's paragraphs only meet one at the page's body."""
    table = table_of(
        "<html><body><article><h1>Headline</h1><p>The story's first paragraph.</p></article>"
        "<aside><div><p>Sign up for our newsletter</p><form><label>Email <input type=email>"
        "</label><button>Subscribe</button></form></div></aside>"
        "<div><p>Search tips</p><input type=hidden name=t value=x></div></body></html>")
    assert row(table, "Email")["anc_control"] == 0
    assert row(table, "Sign up")["anc_control"] == 1
    assert row(table, "first paragraph")["anc_control"] == 2
    assert row(table, "Search tips")["anc_control"] == 2  # a hidden input is no control
    assert not any("Subscribe" in t for t in table.texts)


def test_an_element_left_with_hundreds_of_text_nodes_reads_as_one_text() -> None:
    """Dropped scripts and unwrapped spans leave runs of side-by-side text nodes; past 256 in
    one element (or one link) clean stores each run as one node, and the text reads the same."""
    from lxml import etree, html

    from newscrawl.extraction.clean import clean

    words = [f"w{k}" for k in range(300)]
    link = "".join(f"{w}<script>x()</script>" for w in words[:280])
    body = "".join(f"{w} <!-- c --><span>s{k}</span> " for k, w in enumerate(words))
    root = html.fromstring(f"<html><body><p id='p'>{body}<a href='/a'>{link}</a></p>"
                           "<p id='few'>a<script>x()</script>b</p></body></html>")
    (counts,) = clean(root).values()
    assert counts == (sum(map(len, words[:280])), 1)
    p = root.get_element_by_id("p")
    assert p.xpath("count(text())") == 1.0
    expected = " ".join(f"{w} s{k}" for k, w in enumerate(words)) + " " + "".join(words[:280])
    assert " ".join(etree.tostring(p, method="text", encoding=str).split()) == expected
    assert root.get_element_by_id("few").xpath("count(text())") == 2.0  # few: left as they are


def test_texts_and_tails_come_in_reading_order_with_their_owners() -> None:
    """Tails of nested elements that end together (a list's last item, then the list, then
    its box): the deeper one is read first, and each belongs to the element around it."""
    body = (b"<html><body><div>one<ul><li>two<div>three</div>four</li></ul>five</div>"
            b"<table><tr><td>six<p>seven</p>eight</td></tr></table>nine<p>ten</p></body></html>")
    table = page_nodes(body, "http://example.test/order").table
    assert [t.strip() for t in table.texts] == [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    tail = table.X[:, FEATURE_NAMES.index("is_tail")].astype(bool).tolist()
    assert tail == [False, False, False, True, True, False, False, True, True, False]
    tag = table.X[:, FEATURE_NAMES.index("tag")].astype(int).tolist()
    # "four" belongs to the <li>, "five" to the <div>, "eight" to the <td>, "nine" to <body>
    assert [F.TAGS[tag[k]] for k in (3, 4, 7, 8)] == ["li", "div", "td", "body"]


def test_stage_times_are_the_threads_cpu_so_waits_inside_a_stage_do_not_count() -> None:
    """A crawl extracts in threads that wait for the GIL mid-stage; a sleep in the metadata
    stage (training's respell hook runs there) is such a wait, and adds nothing."""
    def waiting_respell(root: object, meta: object) -> object:
        time.sleep(0.3)
        return meta

    body = b"<html><body><article><h1>Quay</h1><p>The quay reopened on Monday.</p></article>"
    timings = page_nodes(body, "http://example.test/quay", respell=waiting_respell).timings_ms
    assert set(timings) >= {"parse", "metadata", "clean", "features"}
    assert timings["metadata"] < 150


def test_a_small_control_counts_no_indentation_or_style_sheet_as_text() -> None:
    """A button or noscript that holds blocks stays as a <div> only with text to read: a
    pretty-printed menu button's tabs and newlines, or a <style> inside it, are none."""
    from newscrawl.extraction.clean import clean
    from newscrawl.extraction.parse import parse

    for filler in ("\n\t\t\t\t\t\t\t\t\t" * 30, "<style>" + ".menu{color:red}" * 20 + "</style>"):
        root = parse(f"<html><body><p>Story.</p><button class='menu'>{filler}"
                     "<div>Menu</div></button></body></html>")
        clean(root)
        assert root.find(".//div[@class='menu']") is None
    root = parse("<html><body><button class='menu'><div>" + "Read the whole story. " * 12
                 + "</div></button></body></html>")
    clean(root)
    assert root.find(".//div[@class='menu']") is not None  # real text: kept as a block


TRICKY_PAGES = [
    # adjacent text nodes left by unwrapping, empty and whitespace nodes, tails at every level
    "<html><body><div id='a'>one <b>two</b> three<span> four </span><i></i>five</div>"
    "<p class='x y' id='z'>  </p><p>six<br>seven<br><br>eight</p>tail</body></html>",
    # hidden by attribute, aria and style; a namespaced attribute; duplicate class attributes
    "<html><body><div hidden><p>gone</p></div><div aria-hidden='true'>icon</div>"
    "<div aria-hidden='false'>shown</div><div style='display: none'>none</div>"
    "<div style='color:red'>red</div><p xml:lang='de' class='a' class='b'>Sprache</p>"
    "<section class='' id=''>empty names</section></body></html>",
    # entities and non-ASCII in text and in class values, CJK, SVG, a table, a form control
    "<html><body><h1 class='t&amp;itle caf\u00e9'>Caf\u00e9 &lt;b&gt; &#x4e2d;\u6587</h1>"
    "<svg><text>drawn</text></svg><table><tr><td>cell</td><td><a href='/x'>link <b>bold"
    "</b></a> after</td></tr></table><form><input name='q'><label>Search</label></form>"
    "</body></html>",
    # deep nesting, and more elements than the C walk's first allocation (4,096)
    "<html><body>" + "<div class='d'>" * 300 + "deep" + "</div>" * 300
    + "".join(f"<li>item {i}</li>" for i in range(5000)) + "</body></html>",
]


def _cleaned(html: str):
    from newscrawl.extraction.clean import clean
    from newscrawl.extraction.parse import parse

    root = parse(html)
    return root, clean(root)


def _as_lists(walked: tuple) -> list:
    return [v.tolist() if isinstance(v, np.ndarray) else v for v in walked]


def test_the_c_walk_reads_a_tree_as_the_python_walk_does() -> None:
    """The compiled walk (``_cwalk.pyx``) must give ``_walk``'s results exactly, on the kinds
    of tree cleaning leaves; CI builds it (scripts/setup.sh installs the package with it), so
    there its absence fails."""
    compiled_walks("the Python walk")
    pages = list(TRICKY_PAGES)
    for fixture in sorted((Path(__file__).parent / "fixtures" / "pages").glob("*/page.html")):
        pages.append(fixture.read_bytes().decode("utf-8", "replace"))
    for html in pages:
        root, links = _cleaned(html)
        assert _as_lists(F._tree_walk(root, links)) == _as_lists(F._walk(root, links))
    root, links = _cleaned(TRICKY_PAGES[0])
    assert F._C_WALK(root, links, F._TAG_CODE, F._CONTAINERS, F._TAG_MASK, 1, 2, 4,
                     F.HIDDEN_STYLE, b"x", b"y") is not None  # read in C, not handed back
    # a node the C walk does not read (here a comment left in the tree) goes to _walk
    root.find(".//p").append(etree.Comment(" note "))
    assert F._C_WALK(root, links, F._TAG_CODE, F._CONTAINERS, F._TAG_MASK, 1, 2, 4,
                     F.HIDDEN_STYLE, b"x", b"y") is None
    assert _as_lists(F._tree_walk(root, links)) == _as_lists(F._walk(root, links))


def test_the_c_link_count_is_the_python_count() -> None:
    """``_cwalk.link_counts`` must count what ``clean._link_counts`` counts (characters by
    code point, spaces and newlines aside, under each link's nearest non-inline ancestor)
    and hand back the links holding elements, whose blocks ``clean`` then marks."""
    from newscrawl.extraction import clean as C
    from newscrawl.extraction.parse import parse

    CWALK = compiled_walks("the Python walk")
    html = ("<html><body><p>See <a href='/a'>caf\u00e9 \u4e2d\u6587\n link</a> and <b><i>"
            "<a href='/b'>bold <span>inner <a href='/c'>nested</a></span></a></i></b></p>"
            "<div><a href='/d'><div>card <h3>title</h3></div><img src='x'></a>"
            "<a href='/e'></a><a><![CDATA[raw]]></a></div>"
            "<a href='/top'>\U0001f600 top</a></body></html>")
    python_root, c_root = parse(html), parse(html)
    python = C._link_counts(python_root)
    counts, holding = CWALK.link_counts(c_root, C._INLINE)
    for a in holding:
        C._mark_linked_blocks(a)
    assert etree.tostring(python_root) == etree.tostring(c_root)
    assert sorted((el.tag, v) for el, v in python.items()) == sorted(
        (el.tag, v) for el, v in counts.items())
    assert {el.getroottree().getpath(el) for el in counts} == {
        el.getroottree().getpath(el) for el in python}


def test_the_c_character_counts_are_the_python_counts() -> None:
    CWALK = compiled_walks("the Python walk")
    rng = random.Random(3)
    alphabet = "aZ9 .,!?\u3002\u4e2d\u00e9\u0663\u00a0\u2028\t\n\U0001f600\u0301\u05d0$"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40))) + "x"
             for _ in range(2000)] + ["\u4e2d\u6587\u3002 ", "\U0001f600", "a \u00a0\u3000"]
    counts, last = CWALK.char_counts(texts, F._CLASS_OF, F.N_CLASSES)
    expected_counts, expected_last = F._char_counts(texts)
    assert counts.dtype == expected_counts.dtype and last.dtype == expected_last.dtype
    assert np.array_equal(counts, expected_counts) and np.array_equal(last, expected_last)


def test_the_c_node_columns_are_numpys_to_the_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    """``_cwalk.node_columns`` must give ``_computed_columns``' float32 values exactly (the node
    model learnt them): the tricky pages and fixtures, a control's block, links around blocks,
    text deeper than the ancestor cap under class words, Chinese and Japanese prose, and a tree
    past the size where NumPy counts same-tag siblings by sorting."""
    CWALK = compiled_walks("NumPy's columns")
    pages = list(TRICKY_PAGES)
    for fixture in sorted((Path(__file__).parent / "fixtures" / "pages").glob("*/page.html")):
        pages.append(fixture.read_bytes().decode("utf-8", "replace"))
    pages += [
        "<html><body><div class='newsletter'><p>Sign up for the morning briefing, free.</p>"
        "<form><input name='email'><button>Go</button></form></div><article class='story'>"
        "<h1>Storm closes the harbour</h1><p>The harbour closed at noon: waves broke over "
        "the wall.</p><a href='/x'><div><h3>Next story</h3><p>A card's summary.</p></div></a>"
        "<ul><li>one</li><li>two <b>bold</b> tail</li></ul></article></body></html>",
        "<html><body>" + "<div class='article-body content'>" * 45 + "<p>深く、深く。</p>"
        + "</div>" * 45 + "<p>台风过境，港口关闭。居民撤离。</p><nav>" + " ".join(
            f"<a href='/{k}'>menu {k}</a>" for k in range(40)) + "</nav></body></html>",
        "<html><body>" + "".join(f"<div><p>p{k}: word, word. <i>i</i> tail</p></div>"
                                 for k in range(12_500)) + "</body></html>",
    ]
    real = CWALK

    class NumpyColumns:
        def __getattr__(self, name: str):
            return getattr(real, name)

        def node_columns(self, *args):
            return F._computed_columns(*args[:12])

    for html in pages:
        compiled = page_nodes(html, "https://harbour.example/news/storm").table
        monkeypatch.setattr(F, "CWALK", NumpyColumns())
        expected = page_nodes(html, "https://harbour.example/news/storm").table
        monkeypatch.undo()
        if not len(expected):
            continue
        assert np.array_equal(compiled.X.view(np.uint32), expected.X.view(np.uint32))
        assert np.array_equal(compiled.container, expected.container)
        assert np.array_equal(compiled.linked, expected.linked)
    assert (len(compiled.parent) + 1) * len(F.TAGS) > F._BINCOUNT_MAX


def test_the_c_class_masks_are_the_python_masks() -> None:
    """``_cwalk.class_masks`` must name the groups ``_class_masks`` names: keyword words,
    prefixes and suffixes, every separator ``class_words`` splits at (white space of any
    kind too), lower-casing that changes lengths or a final sigma; its cache emptied when
    full and long values left out of it."""
    CWALK = compiled_walks("the Python masks")
    rng = random.Random(9)
    words = [*F._WORD_MASK, "site", "xs", "Σ", "İ", "ﬁ", "ΟΔΟΣ", "文章", "NAV", "Footer",
             "sitefooter", "navbarx", "xcomments"]
    seps = ["-", "_", ":", ".", "/", "0", "9", " ", "\t", "\u00a0", "\u2028", "\u3000", ""]
    values = ["".join(rng.choice(words) + rng.choice(seps) for _ in range(rng.randint(0, 6)))
              for _ in range(5000)] + ["x" * 300 + " nav", "ΣΑΣ-footer"]
    F._VALUE_MASKS.clear()
    expected = np.array(F._class_masks(values), dtype=np.int64)
    assert 0.5 < (expected != 0).mean() < 1
    cache: dict[str, int] = {}
    got = CWALK.class_masks(values, cache, F._word_mask, 100, F._VALUE_CACHED_CHARS)
    assert got.dtype == np.int64 and np.array_equal(got, expected)
    assert 0 < len(cache) <= 100 and "x" * 300 + " nav" not in cache
    assert np.array_equal(CWALK.class_masks(values, cache, F._word_mask, 100, 256), expected)
