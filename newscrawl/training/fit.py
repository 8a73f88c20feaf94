"""The node classifier as an estimator: parameters in ``__init__``, learning in ``fit``."""

from __future__ import annotations

import datetime as dt

import numpy as np
import xgboost as xgb

from ..extraction.features import FEATURE_NAMES, FEATURE_VERSION


def row_weights(X: np.ndarray, page_of_row: np.ndarray) -> np.ndarray:
    """Weight nodes by their length (page F1 counts words) and give each page equal mass,
    so a few pages with thousands of nodes do not outvote the rest."""
    chars = np.expm1(X[:, FEATURE_NAMES.index("chars")]).astype(np.float64)
    w = np.log1p(chars) + 0.5
    page_total = np.bincount(page_of_row, weights=w)
    page_rows = np.bincount(page_of_row)
    return (w / page_total[page_of_row] * np.sqrt(page_rows[page_of_row])).astype(np.float32)


class NodeClassifier:
    """Gradient-boosted trees over ``FEATURE_NAMES``; ``booster_`` is what ships."""

    def __init__(self, n_estimators: int = 300, max_depth: int = 6, learning_rate: float = 0.1,
                 subsample: float = 0.8, colsample_bytree: float = 0.8,
                 min_child_weight: float = 1.0, reg_lambda: float = 1.0, n_jobs: int = 2,
                 random_state: int = 0):
        self.n_estimators = n_estimators
        self.max_depth = max_depth
        self.learning_rate = learning_rate
        self.subsample = subsample
        self.colsample_bytree = colsample_bytree
        self.min_child_weight = min_child_weight
        self.reg_lambda = reg_lambda
        self.n_jobs = n_jobs
        self.random_state = random_state

    def params(self) -> dict:
        return {
            "objective": "binary:logistic", "eval_metric": "logloss", "tree_method": "hist",
            "max_depth": self.max_depth, "eta": self.learning_rate, "subsample": self.subsample,
            "colsample_bytree": self.colsample_bytree, "min_child_weight": self.min_child_weight,
            "lambda": self.reg_lambda, "nthread": self.n_jobs, "seed": self.random_state,
        }

    def fit(self, X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray | None = None
            ) -> NodeClassifier:
        dtrain = xgb.DMatrix(X, label=y, weight=sample_weight, feature_names=list(FEATURE_NAMES))
        self.booster_ = xgb.train(self.params(), dtrain, num_boost_round=self.n_estimators)
        self.booster_.set_attr(newscrawl_feature_version=str(FEATURE_VERSION))
        self.feature_names_in_ = FEATURE_NAMES
        return self

    def predict_proba(self, X: np.ndarray) -> np.ndarray:
        return self.booster_.inplace_predict(X, validate_features=False)

    def save(self, path: str, **attrs: str) -> None:
        """Write XGBoost's own UBJ/JSON format (never pickle) with provenance attributes."""
        self.booster_.set_attr(
            created=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            xgboost_version=xgb.__version__,
            **{k: str(v) for k, v in attrs.items()},
        )
        self.booster_.save_model(path)
