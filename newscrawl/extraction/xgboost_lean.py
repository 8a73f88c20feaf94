"""XGBoost without scikit-learn: what the node classifier needs, in half the memory.

``import xgboost`` imports scikit-learn whenever it is installed, for its estimator classes
(``XGBClassifier`` ...), and scikit-learn brings SciPy's statistics with it. Inference uses
only ``Booster``. Measured on this machine, ``python -c "import xgboost"`` took 0.68 s and
126 MB of RSS with scikit-learn installed, 0.20 s and 60 MB with it refused. Every venv that
runs the tests or training has scikit-learn, so each crawl process and each
``newscrawl extract`` paid the difference.

When no one has imported scikit-learn yet, it is refused for the length of xgboost's import;
afterwards it imports as usual. What that costs: in a process that imported newscrawl before
scikit-learn, xgboost's own scikit-learn estimators raise ImportError (xgboost decided at import
that scikit-learn is missing). newscrawl trains with the native API (``xgboost.train``), and a
program that wants both imports scikit-learn first.
"""

from __future__ import annotations

import importlib.abc
import sys
from types import ModuleType


class _RefuseScikitLearn(importlib.abc.MetaPathFinder):
    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == "sklearn" or name.startswith("sklearn."):
            raise ModuleNotFoundError(f"No module named {name!r} (while importing xgboost)",
                                      name=name)
        return None


def import_xgboost() -> ModuleType:
    if "xgboost" in sys.modules or "sklearn" in sys.modules:
        import xgboost
        return xgboost
    refuse = _RefuseScikitLearn()
    sys.meta_path.insert(0, refuse)
    try:
        import xgboost
    finally:
        sys.meta_path.remove(refuse)
    return xgboost
