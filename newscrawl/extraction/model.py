"""The node classifier: XGBoost boosters whose feature lists are checked when they load.

A pipeline is two files: a stage-1 file (over ``FEATURE_NAMES``) names its companion
``*.context.ubj`` (stage 2, over ``CONTEXT_NAMES``) in its attributes, and may name a second
stage 2, ``*.story.ubj`` (over ``STORY_NAMES``), that replaces it on pages declaring an
article type (``declares_story``); a stage-1 file with no companion is a complete,
single-stage pipeline. The shipped model's first stage-1 file, ``nodes-v1.ubj``, also names
the model's other members (``nodes-v1.1.ubj``: the same pipeline trained with another
seed) and its word table (``nodes-v1.words.json``, ``pathwords``), which fills the
``path_words`` column before the trees see a page.
"""

from __future__ import annotations

import ctypes
import json
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from .assemble import declares_story
from .context import CONTEXT_NAMES, STORY_NAMES, context_features, story_features
from .features import FEATURE_NAMES, FEATURE_VERSION, NodeTable
from .pathwords import PathWords
from .xgboost_lean import import_xgboost

try:
    from ._forest import Forest
except ImportError:  # built without a C compiler, or run from sources never built
    Forest = None

xgb = import_xgboost()

_PATH_WORDS = FEATURE_NAMES.index("path_words")


class ModelMismatch(ValueError):
    """The model was trained on other features than this code computes."""


Member = tuple[xgb.Booster, xgb.Booster | None, xgb.Booster | None]
"""One pipeline: a stage-1 booster, its stage-2 (context) booster if any, and the stage 2 for
pages that declare a story if any (trained with news pages weighted up: ``fit.STORY_SET_WEIGHT``).
"""

SURE_PAGE = 0.12
"""A page on which the first member's expected error per character (``page_doubt``) is at most
this is decided by the first member alone; the others run only on the pages it is unsure of:
where the first member is sure, the second agrees with it (docs/extraction.md, "The model").
At 0.08, five seed pairs scored what averaging every page scored (WCXB mean 0.8805 both).
0.12 runs the second member on a third of the pages instead of half; out of fold (pooled WCXB
dev + fundus-dev, feature versions 9 and 10, three seed pairs) WCXB moved by -0.0003, 0.0000
and +0.0004 against 0.08, fundus-dev by -0.0002, -0.0002 and +0.0004."""


def page_doubt(proba: np.ndarray, weights: np.ndarray) -> float:
    """The expected share of a page's characters on the wrong side of 0.5: the mean of
    min(p, 1 − p), weighted as page F1 weighs nodes."""
    return float(np.dot(weights, np.minimum(proba, 1.0 - proba)) / weights.sum())


def page_is_sure(proba: np.ndarray, weights: np.ndarray) -> bool:
    """Whether the first member's ``proba`` decides the page alone: the one rule that
    ``NodeModel.predict`` and training's scores (``fit.combined_members``) share."""
    return page_doubt(proba, weights) <= SURE_PAGE


class NodeModel:
    """Loaded boosters plus what they need to be used safely: one thread, checked columns.

    A model is one or more members, each a stage 1 and the stage 2s trained on its output,
    differing only in their training seed; a page's probabilities are the members' mean, or
    the first member's alone on a page it is sure of (``SURE_PAGE``). One pipeline's score
    moves with its seed as much as most feature changes do; the mean of two gained 0.001 of
    WCXB page F1 at every one of five seed pairs and lost nothing on the sets never trained
    on (docs/tried.md).
    """

    def __init__(self, members: Sequence[Member], words: PathWords, path: Path | None = None):
        if not members:
            raise ValueError("a model needs at least one member")
        self.members = list(members)
        self.words = words
        self._set_predictors()
        self.path = path
        first = self.members[0][0]
        self.name = first.attr("newscrawl_model_name") or (path.stem if path else "unnamed")

    def _set_predictors(self) -> None:
        self._predictors = [
            tuple(None if b is None else forest_predictor(b) or dense_predictor(b)
                  for b in member)
            for member in self.members]

    def __getstate__(self) -> dict:
        """Pickled without the C-call predictors (ctypes pointers); rebuilt on unpickling."""
        state = self.__dict__.copy()
        del state["_predictors"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._set_predictors()

    @classmethod
    def load(cls, path: str | Path) -> NodeModel:
        path = Path(path)
        first = _load(path, FEATURE_NAMES)
        words_file = first.attr("newscrawl_path_words")
        if not words_file:
            raise ModelMismatch(f"{path}: names no path-words table for its 'path_words' column")
        words = PathWords.load(path.parent / words_file)
        others = filter(None, (first.attr("newscrawl_members") or "").split(","))
        members = [_member(path.parent, stage1) for stage1 in
                   (first, *(_load(path.parent / name, FEATURE_NAMES) for name in others))]
        return cls(members, words, path)

    @property
    def trees(self) -> int:
        """Trees evaluated per node, every member's stage 1 and the larger of its stage 2s (a
        story stage 2 runs in place of stage 2): with the node count, the model's bill on a
        page its first member is unsure of (on the others, the first member's trees alone)."""
        return sum(stage1.num_boosted_rounds()
                   + max((b.num_boosted_rounds() for b in stage2s if b), default=0)
                   for stage1, *stage2s in self.members)

    def predict(self, table: NodeTable) -> np.ndarray:
        """Probability that each text node of the page is main content (fills the table's
        ``path_words`` column on the way)."""
        if len(table) == 0:
            return np.zeros(0, dtype=np.float32)
        table.X[:, _PATH_WORDS] = self.words.score(table)
        first = self._pipeline(table, 0)
        members = len(self._predictors)
        if members == 1 or page_is_sure(first, table.weights):
            return first
        return sum((self._pipeline(table, k) for k in range(1, members)), first) / members

    def _pipeline(self, table: NodeTable, member: int) -> np.ndarray:
        predict1, predict2, predict_story = self._predictors[member]
        p = predict1(table.X)
        if predict2 is None:
            return p
        if predict_story is not None and declares_story(table):
            return predict_story(story_features(table, p))
        return predict2(context_features(table, p))


def _member(directory: Path, stage1: xgb.Booster) -> Member:
    """A stage-1 booster with the stage 2s its attributes name, from the same directory."""
    context, story = (stage1.attr(k) for k in ("newscrawl_context_model", "newscrawl_story_model"))
    return (stage1, _load(directory / context, CONTEXT_NAMES) if context else None,
            _load(directory / story, STORY_NAMES) if context and story else None)


# What ``Booster.inplace_predict(X, validate_features=False)`` sends for a dense float32 matrix.
_PREDICT_CONFIG = json.dumps({
    "type": 0, "training": False, "iteration_begin": 0, "iteration_end": 0,
    "missing": float("nan"), "strict_shape": False, "cache_id": 0,
}).encode()


def _inplace(booster: xgb.Booster) -> Callable[[np.ndarray], np.ndarray]:
    def predict(X: np.ndarray) -> np.ndarray:
        return booster.inplace_predict(X, validate_features=False)

    return predict


def dense_predictor(booster: xgb.Booster) -> Callable[[np.ndarray], np.ndarray]:
    """``booster.inplace_predict(X, validate_features=False)`` for a dense float32 ``X``, made
    by calling XGBoost's C function ``XGBoosterPredictFromDense`` directly.

    The Python wrapper costs ~0.12 ms a call (input-type checks, JSON for the same config every
    time, the output copy) against ~0.15 ms for the C call itself on one row; two calls a page
    made it a quarter of the predict stage. The C function is XGBoost's public C API, but the
    handle to the library is not public Python API: so the direct path is checked here against
    ``inplace_predict`` on probe rows, and any failure or difference falls back to it.

    Each thread passes its own proxy DMatrix, made once: given none, XGBoost makes one per call,
    and its constructor reads the cgroup CPU quota from /sys (five file operations), ~45 µs of
    the ~110 µs a one-row call costs. A proxy only holds the array of the call in progress, so
    one per thread keeps concurrent callers apart.
    """
    fallback = _inplace(booster)
    try:
        from xgboost.core import _LIB, XGBoostError, _ProxyDMatrix, c_bst_ulong

        predict_from_dense = _LIB.XGBoosterPredictFromDense
        last_error = _LIB.XGBGetLastError
        last_error.restype = ctypes.c_char_p
        per_thread = threading.local()

        def predict(X: np.ndarray) -> np.ndarray:
            if X.dtype != np.float32 or not X.flags.c_contiguous:
                X = np.ascontiguousarray(X, dtype=np.float32)
            proxy = getattr(per_thread, "proxy", None)
            if proxy is None:
                proxy = per_thread.proxy = _ProxyDMatrix()
            rows, cols = X.shape
            interface = (f'{{"data": [{X.ctypes.data}, true], "shape": [{rows}, {cols}], '
                         '"strides": null, "typestr": "<f4", "version": 3}').encode()
            shape = ctypes.POINTER(c_bst_ulong)()
            dims = c_bst_ulong()
            out = ctypes.POINTER(ctypes.c_float)()
            # booster.handle, read per call: the closure must keep the booster alive, or a
            # caller holding only this function would predict through a freed handle.
            if predict_from_dense(booster.handle, interface, _PREDICT_CONFIG, proxy.handle,
                                  ctypes.byref(shape), ctypes.byref(dims), ctypes.byref(out)):
                raise XGBoostError(last_error().decode("utf-8", "replace"))
            # The result buffer belongs to the booster (per thread) and is reused: copy it.
            dims_out = tuple(shape[:dims.value])
            result = np.empty(dims_out, np.float32)
            if result.nbytes:  # memmove, not as_array: that builds a ctypes array type a call
                ctypes.memmove(result.ctypes.data, out, result.nbytes)
            return result

        probe = np.random.default_rng(0).random((7, booster.num_features()), dtype=np.float32)
        probe[3, ::3] = np.nan
        for rows in (probe, probe[:1], probe[::2]):
            if not np.array_equal(predict(rows), fallback(rows)):
                return fallback
        return predict
    except Exception:  # noqa: BLE001 - any surprise in private API: the public path
        return fallback


FOREST_MAX_DEPTH = 12
"""Deeper trees are left to XGBoost: padded to complete trees, a forest of depth d holds
2**d leaves a tree (the node model's are 6 deep at most)."""


def forest_predictor(booster: xgb.Booster) -> Callable[[np.ndarray], np.ndarray] | None:
    """``booster.inplace_predict`` for dense rows, by ``_forest.Forest`` (the node model's
    trees at a third of XGBoost's time on a page), or None where that would not give XGBoost's
    exact floats: no compiled module, another objective or booster than binary:logistic
    gbtree, categorical splits, trees deeper than ``FOREST_MAX_DEPTH``.

    Before it is used, the forest predicts probe rows made of the trees' own thresholds (each
    split's value, the floats either side of it) and missing values, and must match
    ``inplace_predict`` bit for bit: a model file XGBoost reads otherwise falls back to it.
    """
    if Forest is None:
        return None
    learner = json.loads(booster.save_raw("json"))["learner"]
    params = learner["learner_model_param"]
    if (learner["objective"]["name"] != "binary:logistic"
            or learner["gradient_booster"]["name"] != "gbtree"
            or params.get("num_target", "1") != "1" or params.get("num_class", "0") != "0"):
        return None
    trees = learner["gradient_booster"]["model"]["trees"]
    if not trees or any(any(t["split_type"])
                        or t["tree_param"]["size_leaf_vector"] not in ("0", "1") for t in trees):
        return None
    depth = max(_tree_depth(t) for t in trees)
    if depth > FOREST_MAX_DEPTH:
        return None
    base_score = float(np.ravel(json.loads(params["base_score"]))[0])  # "5E-1" or "[5E-1]"
    depth = max(depth, 1)
    forest = Forest(depth, booster.num_features(), *_complete_trees(trees, depth), base_score)

    def predict(X: np.ndarray) -> np.ndarray:
        return forest.predict(np.ascontiguousarray(X, dtype=np.float32))

    probe = _threshold_probe(trees, booster.num_features())
    try:
        if all(np.array_equal(predict(rows), booster.inplace_predict(rows, validate_features=False))
               for rows in (probe, probe[:1], probe[:9])):
            return predict
    except ValueError:
        pass
    return None


def _tree_depth(tree: dict) -> int:
    left, right = tree["left_children"], tree["right_children"]
    depth, level = 0, [0]
    while level:
        level = [c for n in level if left[n] != -1 for c in (left[n], right[n])]
        depth += bool(level)
    return depth


def _complete_trees(trees: list[dict], depth: int
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each tree as ``Forest`` reads it: splits in heap order, padded to ``depth`` levels (a
    leaf above the last level splits on column 0 into copies of itself)."""
    internal, leaves = (1 << depth) - 1, 1 << depth
    feature = np.zeros(len(trees) * internal, np.int32)
    threshold = np.zeros(len(trees) * internal, np.float32)
    default_left = np.ones(len(trees) * internal, np.uint8)
    leaf = np.zeros(len(trees) * leaves, np.float32)
    for k, tree in enumerate(trees):
        left, right = tree["left_children"], tree["right_children"]
        index, value, to_left = (tree["split_indices"], tree["split_conditions"],
                                 tree["default_left"])
        stack = [(0, 0, 0)]  # (node of the tree, place in the complete tree, level)
        while stack:
            node, place, level = stack.pop()
            if level == depth:
                leaf[k * leaves + place - internal] = value[node]
                continue
            if left[node] == -1:
                below = (node, node)
            else:
                below = (left[node], right[node])
                at = k * internal + place
                feature[at], threshold[at] = index[node], value[node]
                default_left[at] = to_left[node]
            stack += [(below[0], 2 * place + 1, level + 1), (below[1], 2 * place + 2, level + 1)]
    return feature, threshold, default_left, leaf


def _threshold_probe(trees: list[dict], features: int, rows: int = 256) -> np.ndarray:
    """Rows that sit on the trees' split values, a float either side of them, or are missing:
    where a comparison or a missing value's direction could differ between two predictors."""
    rng = np.random.default_rng(0)
    values: list[list[float]] = [[] for _ in range(features)]
    for tree in trees:
        for node, child in enumerate(tree["left_children"]):
            if child != -1:
                values[tree["split_indices"][node]].append(tree["split_conditions"][node])
    X = rng.normal(size=(rows, features)).astype(np.float32)
    for column, split_values in enumerate(values):
        if split_values:
            chosen = np.float32(rng.choice(split_values, rows))
            nudge = rng.integers(-1, 2, rows)
            X[:, column] = np.where(nudge < 0, np.nextafter(chosen, np.float32(-np.inf)),
                                    np.where(nudge > 0, np.nextafter(chosen, np.float32(np.inf)),
                                             chosen))
    X[rng.random((rows, features)) < 0.2] = np.nan
    return X


def _load(path: Path, names: tuple[str, ...]) -> xgb.Booster:
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no model file (train one with `newscrawl train`)")
    booster = xgb.Booster()
    booster.load_model(str(path))
    check_features(booster, names, path)
    booster.set_param({"nthread": 1})
    return booster


def check_features(booster: xgb.Booster, names: tuple[str, ...] = FEATURE_NAMES,
                   where: object = "model") -> None:
    """Refuse a model whose stored feature list or version differs from the code's."""
    version = booster.attr("newscrawl_feature_version")
    if version != str(FEATURE_VERSION):
        raise ModelMismatch(
            f"{where}: feature version {version!r}, this code computes {FEATURE_VERSION}"
        )
    stored = tuple(booster.feature_names or ())
    if stored != names:
        for i, (a, b) in enumerate(zip(stored, names, strict=False)):
            if a != b:
                raise ModelMismatch(f"{where}: column {i} is {a!r} in the model, {b!r} in the code")
        raise ModelMismatch(
            f"{where}: model has {len(stored)} features, the code computes {len(names)}"
        )
