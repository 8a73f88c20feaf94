"""A stub node model for tests that exercise the code around the model, not its choices.

A module of its own (not conftest) so test files can import it unambiguously, as with
crawlutil.py: the shipped model may be retrained at any time, and a stub built from the
current ``FEATURE_NAMES`` always loads with the current code.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import xgboost as xgb

from newscrawl.extraction.features import FEATURE_NAMES, FEATURE_VERSION
from newscrawl.extraction.pathwords import PathWords


def no_words(model_path: Path) -> str:
    """Write an empty path-words table beside ``model_path`` (every node scores 0); returns
    the file name a stage-1 model names in its ``newscrawl_path_words`` attribute."""
    path = model_path.with_name(model_path.stem + ".words.json")
    PathWords(0.0, {}).save(path)
    return path.name


def keep_all_model(path: Path) -> Path:
    """Write a booster over the real feature columns whose every prediction is ~0.9, so a
    usable page gives back all of its text; returns ``path``."""
    rng = np.random.default_rng(0)
    X = rng.random((40, len(FEATURE_NAMES)), dtype=np.float32)
    y = np.ones(40)
    y[:4] = 0
    dtrain = xgb.DMatrix(X, label=y, feature_names=list(FEATURE_NAMES))
    booster = xgb.train({"objective": "binary:logistic", "max_depth": 1, "eta": 0.01,
                         "nthread": 1}, dtrain, num_boost_round=1)
    booster.set_attr(newscrawl_feature_version=str(FEATURE_VERSION),
                     newscrawl_model_name="keep-all-stub", newscrawl_path_words=no_words(path))
    booster.save_model(str(path))
    return path
