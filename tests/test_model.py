"""The shipped model against the code: same feature lists, refused when they differ, and a
saved model predicts exactly what the trained one did."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
import xgboost as xgb
from compiledutil import compiled_walks
from modelutil import no_words

from newscrawl.extraction import Extractor
from newscrawl.extraction.context import CONTEXT_NAMES, STORY_NAMES
from newscrawl.extraction.extractor import DEFAULT_MODEL, page_nodes
from newscrawl.extraction.features import FEATURE_NAMES, FEATURE_VERSION
from newscrawl.extraction.model import ModelMismatch, NodeModel
from newscrawl.training.fit import MEMBERS, NodeClassifier

PAGE = (b"<html><head><title>Harbour wall finished</title></head><body>"
        b"<nav><a href='/'>Home</a> <a href='/news'>News</a></nav>"
        b"<article><h1>Harbour wall finished</h1>"
        b"<p>The harbour authority said on Tuesday that the new breakwater was finished.</p>"
        b"<p>Storms had damaged the wall twice, and the work ran two years late.</p></article>"
        b"<footer>Copyright 2026</footer></body></html>")


def _fit(names: tuple[str, ...], rows: int = 200, seed: int = 0) -> NodeClassifier:
    rng = np.random.default_rng(seed)
    X = rng.random((rows, len(names)), dtype=np.float32)
    y = X[:, 0] > 0.5
    return NodeClassifier(n_estimators=5, max_depth=3, n_jobs=1,
                          feature_names=names).fit(X, y)


def test_shipped_model_stores_the_codes_feature_lists() -> None:
    """Every stage file of every member carries the exact ordered columns and version this
    code computes."""
    first = xgb.Booster(model_file=str(DEFAULT_MODEL))
    others = first.attr("newscrawl_members").split(",")
    assert len(others) == MEMBERS - 1
    for name in (DEFAULT_MODEL.name, *others):
        stage1 = xgb.Booster(model_file=str(DEFAULT_MODEL.parent / name))
        assert tuple(stage1.feature_names) == FEATURE_NAMES
        assert stage1.attr("newscrawl_feature_version") == str(FEATURE_VERSION)
        companion = DEFAULT_MODEL.parent / stage1.attr("newscrawl_context_model")
        story = DEFAULT_MODEL.parent / stage1.attr("newscrawl_story_model")
        for path, names in ((companion, CONTEXT_NAMES), (story, STORY_NAMES)):
            stage2 = xgb.Booster(model_file=str(path))
            assert tuple(stage2.feature_names) == names
            assert stage2.attr("newscrawl_feature_version") == str(FEATURE_VERSION)


def test_shipped_model_is_xgboost_format_within_budget() -> None:
    for path in DEFAULT_MODEL.parent.glob("nodes-v1*.ubj"):
        assert path.stat().st_size < 20_000_000
        assert path.read_bytes()[:1] == b"{"  # UBJSON object, not a pickle


def test_model_card_sits_beside_the_model() -> None:
    card = DEFAULT_MODEL.with_suffix(".md").read_text("utf-8")
    for must in ("newscrawl train", "WCXB", "grouped by domain", "n_estimators"):
        assert must in card


def test_renamed_column_is_a_clear_error(tmp_path: Path) -> None:
    names = list(FEATURE_NAMES)
    names[7] = "some_old_feature"
    clf = _fit(tuple(names))
    clf.save(str(tmp_path / "m.ubj"))
    with pytest.raises(ModelMismatch, match=r"column 7 is 'some_old_feature'.*'symbol_ratio'"):
        NodeModel.load(tmp_path / "m.ubj")


def test_missing_column_and_old_version_are_refused(tmp_path: Path) -> None:
    _fit(FEATURE_NAMES[:-1]).save(str(tmp_path / "short.ubj"))
    with pytest.raises(ModelMismatch, match="features"):
        NodeModel.load(tmp_path / "short.ubj")
    clf = _fit(FEATURE_NAMES)
    clf.booster_.set_attr(newscrawl_feature_version=str(FEATURE_VERSION - 1))
    clf.booster_.save_model(str(tmp_path / "old.ubj"))
    with pytest.raises(ModelMismatch, match="feature version"):
        NodeModel.load(tmp_path / "old.ubj")


def test_bad_companion_is_refused_too(tmp_path: Path) -> None:
    _fit(FEATURE_NAMES).save(str(tmp_path / "s1.ubj"), newscrawl_context_model="s2.ubj",
                             newscrawl_path_words=no_words(tmp_path / "s1.ubj"))
    _fit(FEATURE_NAMES).save(str(tmp_path / "s2.ubj"))  # stage-1 columns in the stage-2 file
    with pytest.raises(ModelMismatch):
        NodeModel.load(tmp_path / "s1.ubj")
    (tmp_path / "s2.ubj").unlink()
    with pytest.raises(FileNotFoundError, match="s2.ubj"):
        NodeModel.load(tmp_path / "s1.ubj")


def test_model_without_its_word_table_is_refused(tmp_path: Path) -> None:
    _fit(FEATURE_NAMES).save(str(tmp_path / "m.ubj"))
    with pytest.raises(ModelMismatch, match="path-words"):
        NodeModel.load(tmp_path / "m.ubj")
    _fit(FEATURE_NAMES).save(str(tmp_path / "m.ubj"), newscrawl_path_words="gone.json")
    with pytest.raises(FileNotFoundError, match="gone.json"):
        NodeModel.load(tmp_path / "m.ubj")


def test_extractor_refuses_to_start_without_a_model(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="newscrawl train"):
        Extractor(tmp_path / "nothing.ubj")


def test_saved_two_stage_model_predicts_what_was_trained(tmp_path: Path) -> None:
    stage1, stage2 = _fit(FEATURE_NAMES, seed=1), _fit(CONTEXT_NAMES, seed=2)
    stage2.save(str(tmp_path / "m.context.ubj"))
    stage1.save(str(tmp_path / "m.ubj"), newscrawl_context_model="m.context.ubj",
                newscrawl_path_words=no_words(tmp_path / "m.ubj"))
    table = page_nodes(PAGE, "http://example.test/a").table
    model = NodeModel.load(tmp_path / "m.ubj")
    from newscrawl.extraction.context import context_features

    expected = stage2.predict_proba(context_features(table, stage1.predict_proba(table.X)))
    np.testing.assert_array_equal(model.predict(table), expected)
    assert model.trees == 10


def test_a_page_that_declares_a_story_gets_the_story_stage(tmp_path: Path) -> None:
    """The stage-1 file may name a second stage 2: pages declaring an article type get it,
    the others the plain context stage; both read the same stage-1 output, the story stage
    with the linked column beside it, and a story stage over the plain columns is refused."""
    from newscrawl.extraction.context import context_features, story_features

    stage1, stage2, story = (_fit(FEATURE_NAMES, seed=1), _fit(CONTEXT_NAMES, seed=2),
                             _fit(STORY_NAMES, seed=5))
    stage2.save(str(tmp_path / "m.context.ubj"))
    story.save(str(tmp_path / "m.story.ubj"))
    stage1.save(str(tmp_path / "m.ubj"), newscrawl_context_model="m.context.ubj",
                newscrawl_story_model="m.story.ubj",
                newscrawl_path_words=no_words(tmp_path / "m.ubj"))
    model = NodeModel.load(tmp_path / "m.ubj")
    declared = PAGE.replace(b"</head>", b'<meta property="og:type" content="article"></head>')
    plain = page_nodes(PAGE, "http://example.test/a").table
    story_table = page_nodes(declared, "http://example.test/a").table
    p1 = stage1.predict_proba(plain.X)
    np.testing.assert_array_equal(model.predict(plain),
                                  stage2.predict_proba(context_features(plain, p1)))
    p1 = stage1.predict_proba(story_table.X)
    expected = story.predict_proba(story_features(story_table, p1))
    np.testing.assert_array_equal(model.predict(story_table), expected)
    assert not np.array_equal(expected, stage2.predict_proba(context_features(story_table, p1)))
    assert model.trees == 10
    _fit(CONTEXT_NAMES, seed=5).save(str(tmp_path / "m.story.ubj"))
    with pytest.raises(ModelMismatch, match="story.ubj"):
        NodeModel.load(tmp_path / "m.ubj")
    (tmp_path / "m.story.ubj").unlink()
    with pytest.raises(FileNotFoundError, match="m.story.ubj"):
        NodeModel.load(tmp_path / "m.ubj")


def test_a_model_of_two_members_predicts_their_mean_where_the_first_is_unsure(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The first stage-1 file names the other member; each member keeps its own stage 2. A page
    the first member is sure of (``page_doubt`` at most ``SURE_PAGE``) is its alone."""
    from newscrawl.extraction import model as model_module

    pipelines = [(_fit(FEATURE_NAMES, seed=1), _fit(CONTEXT_NAMES, seed=2)),
                 (_fit(FEATURE_NAMES, seed=3), _fit(CONTEXT_NAMES, seed=4))]
    words = no_words(tmp_path / "m.ubj")
    for k, (stage1, stage2) in enumerate(pipelines):
        stem = "m" if k == 0 else f"m.{k}"
        stage2.save(str(tmp_path / f"{stem}.context.ubj"))
        first = {"newscrawl_path_words": words, "newscrawl_members": "m.1.ubj"} if k == 0 else {}
        stage1.save(str(tmp_path / f"{stem}.ubj"), newscrawl_context_model=f"{stem}.context.ubj",
                    **first)
    table = page_nodes(PAGE, "http://example.test/a").table
    model = NodeModel.load(tmp_path / "m.ubj")
    from newscrawl.extraction.context import context_features

    each = [stage2.predict_proba(context_features(table, stage1.predict_proba(table.X)))
            for stage1, stage2 in pipelines]
    assert not np.allclose(each[0], each[1])
    doubt = model_module.page_doubt(each[0], table.weights)
    assert 0 < doubt < 0.5
    monkeypatch.setattr(model_module, "SURE_PAGE", doubt * 0.99)
    np.testing.assert_allclose(model.predict(table), (each[0] + each[1]) / 2, rtol=1e-6)
    monkeypatch.setattr(model_module, "SURE_PAGE", doubt)
    np.testing.assert_allclose(model.predict(table), each[0], rtol=1e-6)
    assert model.trees == 20
    (tmp_path / "m.1.context.ubj").unlink()
    with pytest.raises(FileNotFoundError, match="m.1.context.ubj"):
        NodeModel.load(tmp_path / "m.ubj")


def test_direct_dense_predict_equals_inplace_predict() -> None:
    """The C-call path gives inplace_predict's exact floats, NaNs and odd layouts included."""
    from newscrawl.extraction.model import dense_predictor

    model = NodeModel.load(DEFAULT_MODEL)
    for booster in (b for member in model.members for b in member):
        predict = dense_predictor(booster)
        assert predict.__qualname__ != "_inplace.<locals>.predict"  # the fast path is in use
        rng = np.random.default_rng(1)
        X = rng.random((50, booster.num_features()), dtype=np.float32) * 10
        X[::4, ::5] = np.nan
        for data in (X, X[:1], X[::3], np.asfortranarray(X), X.astype(np.float64)):
            expected = booster.inplace_predict(data, validate_features=False)
            got = predict(data)
            assert got.dtype == expected.dtype and np.array_equal(got, expected)
    with pytest.raises(xgb.core.XGBoostError):
        dense_predictor(model.members[0][0])(np.zeros((2, 3), dtype=np.float32))


def test_direct_dense_predict_is_the_same_from_concurrent_threads() -> None:
    """Each thread has its own proxy DMatrix: calls running at once do not see each other's rows."""
    from concurrent.futures import ThreadPoolExecutor

    from newscrawl.extraction.model import dense_predictor

    booster = NodeModel.load(DEFAULT_MODEL).members[0][0]
    predict = dense_predictor(booster)
    rng = np.random.default_rng(2)
    inputs = [rng.random((rows, booster.num_features()), dtype=np.float32)
              for rows in (1, 7, 40, 200) * 4]
    expected = [booster.inplace_predict(X, validate_features=False) for X in inputs]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            assert all(np.array_equal(got, want)
                       for got, want in zip(pool.map(predict, inputs), expected, strict=True))


def test_direct_dense_predict_keeps_its_booster_alive() -> None:
    """A caller may keep only the predictor: the booster it calls must outlive the caller's
    last reference, or XGBoost predicts through a freed handle (a segfault: so the check runs
    in a child process)."""
    import subprocess
    import sys

    code = """
import gc, numpy as np, xgboost as xgb
from newscrawl.extraction.model import dense_predictor
X = np.random.default_rng(0).random((200, 5), dtype=np.float32)
y = X[:, 0] > 0.5
def predictor():
    booster = xgb.train({"objective": "binary:logistic", "nthread": 1},
                        xgb.DMatrix(X, label=y), 20)
    return dense_predictor(booster), booster.inplace_predict(X)
predict, expected = predictor()
gc.collect()
others = [xgb.train({"nthread": 1}, xgb.DMatrix(X, label=~y), 5) for _ in range(5)]
assert np.array_equal(predict(X), expected)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]


def _forest_module() -> None:
    from newscrawl.extraction import model as model_module

    if model_module.Forest is None:
        if os.environ.get("CI") == "true":
            pytest.fail("the forest module was not built: the bench would time XGBoost's walk")
        pytest.skip("the forest module is not built here")


def _inputs(features: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    X = rng.random((77, features), dtype=np.float32) * 10
    X[::4, ::5] = np.nan
    X[1::7] = np.inf
    return [X, X[:1], X[:9], X[::3], np.asfortranarray(X), X.astype(np.float64), X[:0]]


def test_forest_gives_xgboosts_exact_floats_for_every_shipped_booster() -> None:
    """Each of the shipped model's six boosters runs as a ``Forest`` (the fast path is in use)
    and gives ``inplace_predict``'s bits on rows of every layout: NaN, infinity, one row, a
    partial block of eight, strided, Fortran, float64, none."""
    from newscrawl.extraction.model import forest_predictor

    _forest_module()
    model = NodeModel.load(DEFAULT_MODEL)
    assert all(p.__qualname__ == "forest_predictor.<locals>.predict"
               for member in model._predictors for p in member)
    for booster in (b for member in model.members for b in member):
        predict = forest_predictor(booster)
        for X in _inputs(booster.num_features(), 3):
            want = booster.inplace_predict(X, validate_features=False)
            got = predict(X)
            assert got.dtype == np.float32 and np.array_equal(got, want)
        with pytest.raises(ValueError, match="columns"):
            predict(np.zeros((2, 3), dtype=np.float32))


def test_forest_sends_missing_values_the_way_each_split_learnt() -> None:
    """Trees of uneven depth whose splits send missing values left at some nodes and right at
    others: the padded forest takes every row to XGBoost's leaf."""
    from newscrawl.extraction.model import _tree_depth, forest_predictor

    _forest_module()
    rng = np.random.default_rng(5)
    X = rng.random((3000, 6), dtype=np.float32)
    y = (X[:, 0] + 0.3 * X[:, 1] > 0.7) ^ (X[:, 2] > 0.9)
    X[rng.random(X.shape) < 0.15] = np.nan
    X[np.isnan(X[:, 3]), 3] = 0  # one column never missing: its splits keep XGBoost's default
    booster = xgb.train({"objective": "binary:logistic", "max_depth": 5, "eta": 0.3,
                         "nthread": 1, "seed": 0}, xgb.DMatrix(X, label=y), 40)
    trees = json.loads(booster.save_raw("json"))["learner"]["gradient_booster"]["model"]["trees"]
    directions = {d for t in trees for d, c in zip(t["default_left"], t["left_children"],
                                                   strict=True) if c != -1}
    assert directions == {0, 1}
    depth = max(_tree_depth(t) for t in trees)
    leaves = [sum(c == -1 for c in t["left_children"]) for t in trees]
    assert depth == 5 and min(leaves) < 2 ** depth  # trees the forest pads
    predict = forest_predictor(booster)
    assert predict is not None
    for rows in _inputs(6, 8) + [X]:
        assert np.array_equal(predict(rows), booster.inplace_predict(rows))


def test_forest_starts_each_row_at_xgboosts_base_margin() -> None:
    """XGBoost stores the base score as a probability and takes its logit in float32 with
    libm's ``logf``: NumPy's float32 log is an ulp off on some scores (0.475 among them), which
    moved 5 % of a model's outputs by an ulp."""
    from newscrawl.extraction.model import forest_predictor

    _forest_module()
    rng = np.random.default_rng(4)
    X = rng.random((20000, 8), dtype=np.float32)
    for share in (0.05, 0.3, 0.475, 0.6, 0.93):
        y = rng.random(400) < share
        booster = xgb.train({"objective": "binary:logistic", "max_depth": 3, "nthread": 1},
                            xgb.DMatrix(X[:400], label=y), 4)
        assert np.array_equal(forest_predictor(booster)(X), booster.inplace_predict(X))


def test_forest_declines_what_it_would_not_predict_exactly(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """Another objective, a forest whose arrays came out wrong, or no compiled module: None,
    and the model predicts through XGBoost with the same results."""
    from newscrawl.extraction import model as model_module

    _forest_module()
    rng = np.random.default_rng(0)
    X = rng.random((300, 4), dtype=np.float32)
    y = (X[:, 0] * 3).astype(int)
    for params in ({"objective": "multi:softprob", "num_class": 3},
                   {"objective": "reg:squarederror"}, {"objective": "binary:logitraw"}):
        booster = xgb.train({**params, "nthread": 1}, xgb.DMatrix(X, label=y % 2 if
                            "num_class" not in params else y), 3)
        assert model_module.forest_predictor(booster) is None
    booster = xgb.train({"objective": "binary:logistic", "nthread": 1},
                        xgb.DMatrix(X, label=y == 1), 5)
    assert model_module.forest_predictor(booster) is not None
    complete = model_module._complete_trees

    def off_by_one_ulp(trees: list, depth: int) -> tuple:
        feature, threshold, default_left, leaf = complete(trees, depth)
        return feature, np.nextafter(threshold, np.float32(np.inf)), default_left, leaf

    monkeypatch.setattr(model_module, "_complete_trees", off_by_one_ulp)
    assert model_module.forest_predictor(booster) is None  # the threshold probe sees it
    monkeypatch.undo()
    page = page_nodes(PAGE, "https://harbour.example/news/wall").table
    fast = NodeModel.load(DEFAULT_MODEL).predict(page)
    monkeypatch.setattr(model_module, "Forest", None)
    slow = NodeModel.load(DEFAULT_MODEL)
    assert all(p.__qualname__ == "dense_predictor.<locals>.predict"
               for member in slow._predictors for p in member)
    assert np.array_equal(slow.predict(page), fast)


def test_forest_is_the_same_from_concurrent_threads() -> None:
    """``Forest.predict`` releases the GIL and shares only read-only arrays."""
    from concurrent.futures import ThreadPoolExecutor

    from newscrawl.extraction.model import forest_predictor

    _forest_module()
    booster = NodeModel.load(DEFAULT_MODEL).members[0][0]
    predict = forest_predictor(booster)
    rng = np.random.default_rng(2)
    inputs = [rng.random((rows, booster.num_features()), dtype=np.float32)
              for rows in (1, 7, 40, 200, 1000) * 4]
    expected = [booster.inplace_predict(X, validate_features=False) for X in inputs]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            assert all(np.array_equal(got, want)
                       for got, want in zip(pool.map(predict, inputs), expected, strict=True))


def test_extraction_does_not_import_scikit_learn_but_leaves_it_importable() -> None:
    """xgboost imports scikit-learn when it is installed (66 MB and 0.45 s a process that
    inference never uses); the extraction refuses it during that import only. A process that
    imported scikit-learn first keeps xgboost's estimators (child processes: imports are
    per process)."""
    import subprocess
    import sys

    pytest.importorskip("sklearn")
    lean = """
import sys
from newscrawl import extract
assert extract(b"<p>" + b"A sentence of the story. " * 20 + b"</p>").text
assert "sklearn" not in sys.modules, "xgboost pulled scikit-learn in"
import sklearn.linear_model
import xgboost.compat
assert not xgboost.compat.SKLEARN_INSTALLED
"""
    first = """
import sklearn
from newscrawl import extract
import xgboost.compat
assert xgboost.compat.SKLEARN_INSTALLED
xgboost.XGBClassifier(n_estimators=2)
"""
    for code in (lean, first):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=120, check=False)
        assert done.returncode == 0, done.stderr[-2000:]


def test_model_pickles_and_predicts_the_same_after() -> None:
    import pickle

    model = NodeModel.load(DEFAULT_MODEL)
    table = page_nodes(PAGE, "http://example.test/a").table
    again = pickle.loads(pickle.dumps(model))
    assert np.array_equal(again.predict(table), model.predict(table))


def test_model_file_is_json_readable_by_xgboost_without_newscrawl(tmp_path: Path) -> None:
    """A user can inspect the shipped model with XGBoost alone (no pickle, no custom code)."""
    booster = xgb.Booster(model_file=str(DEFAULT_MODEL))
    booster.save_model(str(tmp_path / "m.json"))
    doc = json.loads((tmp_path / "m.json").read_text())
    assert doc["learner"]["feature_names"] == list(FEATURE_NAMES)


def test_nodes_are_cut_where_the_expected_page_f1_peaks_never_under_the_floor() -> None:
    from newscrawl.extraction.assemble import choose_nodes

    even = np.ones(4)
    # A clear page: the uncertain node is left out; an uncertain page: it is kept.
    assert choose_nodes(np.array([0.95, 0.95, 0.45, 0.05]), even).tolist() == [
        True, True, False, False]
    assert choose_nodes(np.array([0.6, 0.45, 0.45, 0.05]), even).tolist() == [
        True, True, True, False]
    # A long node counts for more of the page than a short one with the same probability.
    assert choose_nodes(np.array([0.9, 0.5, 0.05]), np.array([100.0, 1.0, 5.0])).tolist() == [
        True, False, False]
    assert choose_nodes(np.array([0.9, 0.5, 0.05]), np.array([1.0, 100.0, 5.0])).tolist() == [
        True, True, False]
    # One plausible paragraph is kept; nothing under the floor is, whatever the page.
    assert choose_nodes(np.array([0.35, 0.1]), np.array([50.0, 5.0])).tolist() == [True, False]
    assert not choose_nodes(np.array([0.25, 0.1]), np.array([50.0, 5.0])).any()
    assert not choose_nodes(np.zeros(0), np.zeros(0)).any()


def test_stage_two_sees_how_far_a_node_sits_outside_the_sure_story() -> None:
    """Teasers half believed beside a story: the content root over 0.5 takes them in, the
    subtree of the nodes over 0.8 does not, and says how many levels out they are."""
    from newscrawl.extraction.context import context_features
    from newscrawl.extraction.extractor import page_nodes

    html = ("<html><body><main><article><div class='body'><p>{0}</p><p>{0}</p><p>{0}</p></div>"
            "</article><aside><ul>{1}</ul></aside></main></body></html>").format(
                "The river rose in spring and fell in summer. " * 4,
                "".join(f"<li>Elsewhere, the council votes on bridge number {k} tonight.</li>"
                        for k in range(4)))
    table = page_nodes(html.encode(), "https://news.example/a").table
    assert len(table) == 7
    X = context_features(table, np.array([0.95, 0.9, 0.92, 0.6, 0.6, 0.6, 0.6]))
    col = {name: X[:, j] for j, name in enumerate(CONTEXT_NAMES)}
    assert col["in_content_root"].tolist() == [1] * 7
    assert col["in_sure_core"].tolist() == [1, 1, 1, 0, 0, 0, 0]
    # li -> ul -> aside, whose parent <main> holds the story's core
    assert col["sure_core_levels_out"].tolist() == [0, 0, 0, 3, 3, 3, 3]
    assert 0.5 < col["sure_share"][0] < 0.8


def test_a_page_declaring_a_story_leans_further_toward_precision() -> None:
    from newscrawl.extraction.assemble import keep_nodes
    from newscrawl.extraction.extractor import page_nodes

    story = ("We measured the river for a year. The water rose in spring and fell in summer. "
             "Farmers along its banks changed what they planted. ") * 3
    teaser = "Elsewhere: the council votes on the new bridge, and a school reopens."
    body = ("<html><head>{}</head><body><div><p>{}</p><p>{}</p></div>"
            "<ul><li>{}</li></ul></body></html>")
    declared = page_nodes(body.format('<meta property="og:type" content="article">', story,
                                      story, teaser).encode(), "https://news.example/a").table
    plain = page_nodes(body.format("", story, story, teaser).encode(),
                       "https://news.example/a").table
    proba = np.array([0.97, 0.97, 0.65])
    # The same probabilities: a half-believed line beside a declared story goes, on a page
    # that declares nothing it stays.
    assert keep_nodes(declared, proba).tolist() == [True, True, False]
    assert keep_nodes(plain, proba).tolist() == [True, True, True]


def test_a_page_of_one_paragraph_gives_that_paragraph() -> None:
    prose = ("AI has not meaningfully changed anything in security so far. Phishing with faked "
             "voices is still rare, and most breaches still begin with a reused password.")
    article = Extractor().extract(f"<html><body><ol><li><p>{prose}</p></li></ol></body></html>",
                                  "http://example.test/a")
    assert article.text == prose and article.reason is None


def test_context_group_stats_equal_a_loop_over_groups() -> None:
    from newscrawl.extraction.context import _group_stats

    rng = np.random.default_rng(3)
    keys = np.sort(rng.choice([0, 2, 3, 7, 9], 50))
    values, weights = rng.random(50), rng.random(50) + 1.0
    mean, mx, mn, count = _group_stats(keys, values, weights, 10)
    for k in np.unique(keys).tolist():
        at = keys == k
        assert np.allclose(mean[at], np.average(values[at], weights=weights[at]))
        assert (mx[at] == values[at].max()).all() and (mn[at] == values[at].min()).all()
        assert (count[at] == at.sum()).all()


def test_compiled_context_columns_equal_numpys_to_the_bit(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """``_cwalk.context_columns`` must give ``_computed_columns``' float32 values exactly
    (stage 2 was trained on NumPy's): pages short and long (NumPy's pairwise sums recurse past
    128 nodes), deep and flat, with probabilities tied, on the 0.5 and 0.8 cuts, none kept or
    none sure."""
    from newscrawl.extraction import context

    compiled_walks("NumPy's columns")
    rng = np.random.default_rng(11)
    words = ["harbour", "wall", "storm", "breakwater", "tide", "quay", "crane", "ship"]

    def paragraph(k: int) -> str:
        return " ".join(rng.choice(words, 3 + k % 40)) + "."

    nested = "".join(f"<div class='d{k}'><p>{paragraph(k)}</p>" for k in range(150))
    pages = [PAGE, f"<html><body>{nested}{'</div>' * 150}</body></html>".encode(),
             ("<html><body><nav>" + "".join(f"<a href='/{k}'>Link {k}</a>" for k in range(90))
              + "</nav><article>" + "".join(f"<p>{paragraph(k)}</p>" for k in range(300))
              + "</article><ul>" + "".join(f"<li>{paragraph(k)}</li>" for k in range(60))
              + "</ul></body></html>").encode()]
    for body in pages:
        table = page_nodes(body, "https://harbour.example/news/wall").table
        n = len(table)
        for proba in (rng.random(n), np.round(rng.random(n), 1), np.full(n, 0.5),
                      np.full(n, 0.8), np.zeros(n), np.ones(n)):
            proba = proba.astype(np.float32)
            compiled = context.context_features(table, proba)
            monkeypatch.setattr(context, "CWALK", None)
            assert np.array_equal(compiled, context.context_features(table, proba),
                                  equal_nan=True)  # the site columns: NaN off a crawl
            monkeypatch.undo()


def test_training_scores_the_members_as_the_model_combines_them() -> None:
    """``combined_members`` applies ``NodeModel.predict``'s rule page by page: the CV figures are
    the shipped model's, not those of a plain mean it does not compute."""
    from types import SimpleNamespace

    from newscrawl.extraction.model import SURE_PAGE
    from newscrawl.training.fit import combined_members

    table = page_nodes(PAGE, "http://example.test/a").table
    n = len(table)
    sure = np.where(np.arange(n) % 2 == 0, 0.99, 0.01)  # doubt 0.01
    unsure = np.full(n, 0.45)  # doubt 0.45
    assert 0.01 < SURE_PAGE < 0.45
    first = SimpleNamespace(stage2=np.concatenate((sure, unsure)))
    second = SimpleNamespace(stage2=np.concatenate((1 - sure, np.full(n, 0.75))))
    got = combined_members([first, second], "stage2", [table, table])
    np.testing.assert_array_equal(got[:n], sure)
    np.testing.assert_allclose(got[n:], 0.6)
    np.testing.assert_array_equal(combined_members([first], "stage2", [table, table]),
                                  first.stage2)
