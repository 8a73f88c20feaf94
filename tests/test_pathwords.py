"""The path-words column: which bucket a class or id word lands in, each word once per
bucket however often the path repeats it, and the fast sum equal to the pairs it stands for."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from compiledutil import compiled_walks
from datautil import write_labelled_page

from newscrawl.extraction.extractor import page_nodes
from newscrawl.extraction.pathwords import PathWords, owner_words

PAGE = (b"<html><body><div class='page sidebar'><div id='wrap'>"
        b"<div class='box'><div class='inner sidebar'>"
        b"<p class='note'>A note in the inner box, five levels down.</p></div></div>"
        b"<p>A paragraph straight in the wrapper.</p>"
        b"</div></div></body></html>")
# One power of two per (word, bucket): self, parent, grandparent, above, anywhere.
WEIGHTS = {"sidebar": [1, 2, 4, 8, 16], "note": [100, 200, 400, 800, 1600],
           "page": [0, 0, 0, 32, 64]}


def test_each_word_counts_once_per_bucket_by_its_distance() -> None:
    table = page_nodes(PAGE, "http://example.test/a").table
    scores = PathWords(0.5, WEIGHTS).score(table)
    # note at the element itself and anywhere; sidebar at the parent, above (twice on the
    # path, once counted) and anywhere (once); page above and anywhere.
    assert scores[0] == 0.5 + 100 + 1600 + 2 + 8 + 16 + 32 + 64
    # sidebar and page at the grandparent, and anywhere; nothing above it.
    assert scores[1] == 0.5 + 4 + 16 + 64


def test_fast_sum_equals_the_pairs_it_stands_for() -> None:
    """On a page with words repeated up and down the tree, in and out of the table."""
    levels = "".join(f"<div class='c{k % 3} w{k} box'>" for k in range(14))
    body = (f"<html><body class='post box'>{levels}<p class='c1'>deep text</p>tail text"
            + "</div>" * 14 + "<ul class='c2'><li class='box c0'>item one</li>"
            "<li>item two</li></ul></body></html>").encode()
    table = page_nodes(body, "http://example.test/b").table
    rng = np.random.default_rng(0)
    words = {w: rng.normal(size=5).round(3).tolist()
             for w in ("c0", "c1", "c2", "box", "post", "w3", "w12")}
    node_owner, pairs_of = owner_words(table, words)
    expected = np.array([sum(words[w][b] for b, w in pairs) for pairs in pairs_of]) + 0.25
    np.testing.assert_allclose(PathWords(0.25, words).score(table),
                               expected[node_owner], rtol=1e-5)
    assert len(table) == 4


def test_word_table_round_trips_and_refuses_another_format(tmp_path: Path) -> None:
    table = page_nodes(PAGE, "http://example.test/a").table
    PathWords(0.5, WEIGHTS).save(tmp_path / "w.json")
    loaded = PathWords.load(tmp_path / "w.json")
    np.testing.assert_array_equal(loaded.score(table), PathWords(0.5, WEIGHTS).score(table))
    doc = json.loads((tmp_path / "w.json").read_text("utf-8"))
    doc["buckets"] = ["self", "anywhere"]
    (tmp_path / "w.json").write_text(json.dumps(doc), "utf-8")
    with pytest.raises(ValueError, match="buckets"):
        PathWords.load(tmp_path / "w.json")


_FIT_IN_CHILD = """
import hashlib, sys
import numpy as np
from sklearn.model_selection import GroupKFold
from newscrawl.training.dataset import build_dataset
from newscrawl.training.fit import fit_path_words
ds = build_dataset(sys.argv[1], verbose=False)
splits = list(GroupKFold(n_splits=3).split(np.arange(len(ds.pages)), groups=ds.groups))
words = fit_path_words(ds, splits)
print(hashlib.sha256(ds.X.tobytes()).hexdigest(), repr(words.intercept))
"""


def _write_shop_pages(base: Path, n: int) -> None:
    """Pages on ``n`` domains whose boxes carry many class words, a few shared by all."""
    shared = ["nav", "menu", "main", "story", "body", "footer", "links", "wide", "col", "row"]
    for k in range(n):
        words = " ".join(shared[(k + j) % len(shared)] for j in range(7))
        story = f"The council approved budget number {k} after a long debate on roads and parks."
        html = (f"<html><body><div class='{words} site{k}'><ul class='{words} list'>"
                + "".join(f"<li class='{words} item'><a href=/{j}>Section {j}</a></li>"
                          for j in range(5))
                + f"</ul><div class='{words} story'><p class='{words}'>{story}</p>"
                f"<p class='text {words}'>{story} More follows.</p></div></div></body></html>")
        write_labelled_page(base, f"{k:04d}", html, f"{story}\n\n{story} More follows.",
                            f"https://shop{k}.example/item/{k}")


def test_training_the_word_table_does_not_depend_on_the_string_hash_seed(tmp_path: Path) -> None:
    """Word sets iterate in a per-process order; a retrain must rebuild the same model."""
    _write_shop_pages(tmp_path / "dev", 24)
    runs = {subprocess.run([sys.executable, "-c", _FIT_IN_CHILD, str(tmp_path)], check=True,
                           capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("1", "2", "3")}
    assert len(runs) == 1, runs


def test_shared_values_and_repeated_words_sum_like_the_pairs() -> None:
    """Values that several elements share, that repeat a word ("menu menu-item") or hold no
    known word at all: each element still gets each of its known words once."""
    body = (b"<html><body><ul class='menu menu-item'>"
            b"<li class='menu-item menu'>one item</li><li class='menu-item menu'>two items</li>"
            b"<li class='zz yy'>three items</li><li id='x1'>four items</li></ul>"
            b"<div class='menu-item menu'><p class='yy menu'>body text</p></div></body></html>")
    table = page_nodes(body, "http://example.test/c").table
    words = {"menu": [1, 2, 4, 8, 16], "item": [32, 64, 128, 256, 512], "x1": [0, 0, 0, 0, 1024]}
    node_owner, pairs_of = owner_words(table, words)
    expected = np.array([sum(words[w][b] for b, w in pairs) for pairs in pairs_of])
    scores = PathWords(0.0, words).score(table)
    np.testing.assert_array_equal(scores, expected[node_owner])
    # "one item": menu and item at the element and anywhere, both again at the parent
    assert scores[0] == 1 + 32 + 2 + 64 + 16 + 512
    assert len(table) == 5


def test_value_cache_is_bounded_and_holds_the_tables_rows() -> None:
    """A crawl across many sites meets tens of thousands of class values: the cache empties
    rather than grow with them, and keeps row numbers, not new copies of the words."""
    from newscrawl.extraction import pathwords

    words = PathWords(0.0, {"sidebar": [1, 2, 3, 4, 5], "note": [5, 4, 3, 2, 1]})
    many = "".join(f"<p class='note v{k}'>x</p>" for k in range(pathwords._CACHE_MAX + 10))
    words.score(page_nodes(f"<html><body>{many}</body></html>".encode(), None).table)
    assert len(words._cache) > pathwords._CACHE_MAX
    table = page_nodes(PAGE, "http://example.test/a").table
    first = words.score(table)
    assert len(words._cache) < 10
    assert set(words._cache.values()) <= {(), (0,), (1,), (0, 1), (1, 0)}
    np.testing.assert_array_equal(words.score(table), first)  # read from the cache


def _random_page(rng: np.random.Generator) -> bytes:
    """Nested boxes up to 40 deep whose classes and ids repeat a few words up and down the
    path ("nav nav-item", the same value on siblings and ancestors), text at every level."""
    vocab = ["nav", "item", "main", "post", "body", "box", "side", "x1", "Col", "\u65b0\u95fb"]
    out, depth = ["<html><body>"], 0
    for k in range(300):
        if depth and rng.random() < 0.3:
            out.append("</div>")
            depth -= 1
            continue
        words = rng.choice(vocab, size=int(rng.integers(0, 4)))
        value = " ".join(f"{w}-{rng.choice(vocab)}" if rng.random() < 0.3 else w for w in words)
        attr = f" class='{value}'" if rng.random() < 0.7 else f" id='{value or 'n'}'"
        out.append(f"<div{attr}>text {k}" if depth < 40 else f"<p{attr}>text {k}</p>")
        depth += depth < 40
    return ("".join(out) + "</div>" * depth + "</body></html>").encode()


def test_the_compiled_sum_is_the_numpy_sum_to_the_bit() -> None:
    """``_cwalk.path_word_scores`` must give ``PathWords._score``'s float32 values exactly
    (stage 1 splits on them) and fill the value cache as ``_word_rows`` does, on real pages
    whose every class word carries a weight; CI builds the module, so there its absence
    fails."""
    from newscrawl.extraction.features import class_words

    CWALK = compiled_walks("the NumPy sum")
    rng = np.random.default_rng(7)
    pages = [PAGE] + [p.read_bytes() for p in sorted(
        (Path(__file__).parent / "fixtures" / "pages").glob("*/page.html"))]
    pages += [_random_page(rng) for _ in range(20)]
    checked = 0
    for body in pages:
        table = page_nodes(body, "http://example.test/p").table
        vocab = sorted({w for ws in class_words(list(dict.fromkeys(table.keys))) for w in ws})
        # most words weighed, some not (unknown to the table), in an order of their own
        weights = {w: rng.normal(size=5).tolist() for w in rng.permutation(vocab)
                   if rng.random() < 0.8}
        python, compiled = PathWords(0.3, weights), PathWords(0.3, weights)
        expected = python._score(table)
        got = compiled.score(table)
        assert got.dtype == expected.dtype == np.float32
        assert np.array_equal(got, expected)
        assert compiled._cache == python._cache
        assert np.array_equal(compiled.score(table), expected)  # read back from the cache
        checked += len(table)
    assert checked > 500
    table = page_nodes(PAGE, "http://example.test/a").table
    words = PathWords(0.0, WEIGHTS)
    with pytest.raises(ValueError, match="outside"):
        CWALK.path_word_scores(table.keys, table.keyed, table.parent, table.end,
                               table.owner + len(table.parent), {}, words._row, words._matrix,
                               0.0)
