"""The compiled walks for the tests that compare them with the Python they mirror.

A module of its own (not conftest), as crawlutil.py and modelutil.py, so test files import it
unambiguously.
"""

from __future__ import annotations

import os
from types import ModuleType

import pytest


def compiled_walks(python_path: str) -> ModuleType:
    """``_cwalk``, which CI builds (its absence there fails: the bench would time
    ``python_path`` instead); elsewhere a test of it skips without it."""
    from newscrawl.extraction.compiled import CWALK

    if CWALK is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the C walks were not built: the bench would time {python_path}")
        pytest.skip("the C walks are not built here")
    return CWALK
