"""The node classifier: an XGBoost booster whose feature list is checked when it loads."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import xgboost as xgb

from .features import FEATURE_NAMES, FEATURE_VERSION


class ModelMismatch(ValueError):
    """The model was trained on other features than this code computes."""


class NodeModel:
    """A loaded booster plus what it needs to be used safely: one thread, checked columns."""

    def __init__(self, booster: xgb.Booster, path: Path | None = None):
        self.booster = booster
        self.path = path
        self.threshold = float(booster.attr("newscrawl_threshold") or 0.5)
        self.name = booster.attr("newscrawl_model_name") or (path.stem if path else "unnamed")

    @classmethod
    def load(cls, path: str | Path) -> NodeModel:
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"{path}: no model file (train one with `newscrawl train`)")
        booster = xgb.Booster()
        booster.load_model(str(path))
        check_features(booster, path)
        booster.set_param({"nthread": 1})
        return cls(booster, path)

    def predict(self, X: np.ndarray) -> np.ndarray:
        """Probability that each row (text node) is main content."""
        if len(X) == 0:
            return np.zeros(0, dtype=np.float32)
        return self.booster.inplace_predict(X, validate_features=False)


def check_features(booster: xgb.Booster, where: object = "model") -> None:
    """Refuse a model whose stored feature list or version differs from the code's."""
    version = booster.attr("newscrawl_feature_version")
    if version != str(FEATURE_VERSION):
        raise ModelMismatch(
            f"{where}: feature version {version!r}, this code computes {FEATURE_VERSION}"
        )
    names = tuple(booster.feature_names or ())
    if names != FEATURE_NAMES:
        for i, (a, b) in enumerate(zip(names, FEATURE_NAMES, strict=False)):
            if a != b:
                raise ModelMismatch(f"{where}: column {i} is {a!r} in the model, {b!r} in the code")
        raise ModelMismatch(
            f"{where}: model has {len(names)} features, the code computes {len(FEATURE_NAMES)}"
        )
