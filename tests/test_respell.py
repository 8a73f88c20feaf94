"""Respelled training copies: ideographs without spaces on the same nodes."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import numpy as np
from datautil import write_labelled_page

from newscrawl.extraction.extractor import page_nodes
from newscrawl.extraction.features import FEATURE_NAMES
from newscrawl.training.dataset import build_dataset
from newscrawl.training.fit import with_copies
from newscrawl.training.respell import respell, respell_text

PAGE = b"""<html><head><title>Tide Tables Return to the Ferry Office</title>
<meta name="description" content="The ferry office prints tide tables again."></head>
<body><nav><a href="/">Home</a> <a href="/port">Port</a></nav>
<article><h1>Tide Tables Return to the Ferry Office</h1>
<p>The ferry office prints tide tables again, after 12 years of screens. Sailors asked: why?</p>
<p>Printed <b>tables</b> cost 3 euros and come out each <i>Monday</i>.</p></article>
<footer>Harbour Gazette</footer></body></html>"""


def test_words_become_ideographs_the_same_everywhere_and_spaces_go() -> None:
    han = respell_text("  Tide tables, tide TABLES: 12 of them.\n")
    assert han.endswith("\n") and not han.startswith(" ")  # a line break is layout
    core = han.strip()
    assert " " not in core and "，" in core and "：" in core and core.endswith("。")
    assert "12" in core
    letters = [c for c in core if unicodedata.category(c) == "Lo"]
    # one ideograph for a word of up to 3 letters, two up to 8: tide tables tide TABLES of them
    assert len(letters) == 2 + 2 + 2 + 2 + 1 + 2
    # case does not change the spelling
    assert core.startswith(core[:4] + "，" + core[:4])
    assert respell_text(" \n ") == " \n "


def test_a_respelled_page_has_the_same_nodes_and_matching_metadata() -> None:
    written = page_nodes(PAGE, "https://gazette.example/tides")
    copy = page_nodes(PAGE, "https://gazette.example/tides", respell=respell)
    assert len(copy.table) == len(written.table) > 0
    assert copy.meta.title == respell_text("Tide Tables Return to the Ferry Office")
    X, col = copy.table.X, FEATURE_NAMES.index
    assert not X[:, col("upper_ratio")].any()
    assert (X[:, col("cjk_ratio")] > written.table.X[:, col("cjk_ratio")]).all()
    # Whitespace-only text between two links stays (Chinese menus have it too).
    words = [t for t in copy.table.texts if len(t) > 8]  # the headline and paragraphs
    assert len(words) == 3 and not any(" " in t for t in words)
    # The headline still matches the title, as on the page as written.
    assert X[:, col("matches_title")].sum() == written.table.X[:, col("matches_title")].sum() > 0


def test_control_characters_the_parser_let_in_do_not_stop_a_copy() -> None:
    # libxml2 keeps a vertical tab in white space; lxml refuses it when text is set.
    body = b"<html><body><div>\x0b <p>Quiet harbour words\x0c</p>\x0b\n</div></body></html>"
    copy = page_nodes(body, None, respell=respell)
    assert len(copy.table) == 1
    assert "\x0c" not in copy.table.texts[0]


def test_every_page_gets_a_copy_that_trains_in_its_own_fold(tmp_path: Path) -> None:
    for k in range(3):
        write_labelled_page(tmp_path / "dev", f"{k:04d}", PAGE,
                            "The ferry office prints tide tables again.",
                            f"https://site{k}.example/tides")
    ds = build_dataset(tmp_path, verbose=False)
    copies = ds.copies
    assert copies.origin.tolist() == [0, 1, 2]
    assert np.array_equal(copies.y, ds.y)
    X, y, w = with_copies(ds, ds.X, copies.X, np.array([1]))
    rows = int((ds.page_of_row == 1).sum())
    assert len(X) == len(y) == len(w) == 2 * rows
    assert np.array_equal(X[:rows], ds.X[ds.page_of_row == 1], equal_nan=True)
    assert np.array_equal(X[rows:], copies.X[copies.origin_of_row == 1], equal_nan=True)
