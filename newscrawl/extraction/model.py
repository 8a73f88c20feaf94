"""The node classifier: XGBoost boosters whose feature lists are checked when they load.

A shipped model is two files: ``nodes-v1.ubj`` (stage 1, over ``FEATURE_NAMES``) names its
companion ``nodes-v1.context.ubj`` (stage 2, over ``CONTEXT_NAMES``) in its attributes.
A stage-1 file with no companion is a complete, single-stage model.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import xgboost as xgb

from .context import CONTEXT_NAMES, context_features
from .features import FEATURE_NAMES, FEATURE_VERSION, NodeTable


class ModelMismatch(ValueError):
    """The model was trained on other features than this code computes."""


class NodeModel:
    """Loaded boosters plus what they need to be used safely: one thread, checked columns."""

    def __init__(self, booster: xgb.Booster, context: xgb.Booster | None = None,
                 path: Path | None = None):
        self.booster = booster
        self.context = context
        self.path = path
        self.threshold = float(booster.attr("newscrawl_threshold") or 0.5)
        self.name = booster.attr("newscrawl_model_name") or (path.stem if path else "unnamed")

    @classmethod
    def load(cls, path: str | Path) -> NodeModel:
        path = Path(path)
        booster = _load(path, FEATURE_NAMES)
        context = None
        companion = booster.attr("newscrawl_context_model")
        if companion:
            context = _load(path.parent / companion, CONTEXT_NAMES)
        return cls(booster, context, path)

    @property
    def trees(self) -> int:
        """Trees evaluated per node, both stages: with the node count, the model's bill."""
        return sum(b.num_boosted_rounds() for b in (self.booster, self.context) if b)

    def predict(self, table: NodeTable) -> np.ndarray:
        """Probability that each text node of the page is main content."""
        if len(table) == 0:
            return np.zeros(0, dtype=np.float32)
        proba = self.booster.inplace_predict(table.X, validate_features=False)
        if self.context is None:
            return proba
        return self.context.inplace_predict(context_features(table, proba),
                                            validate_features=False)


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
