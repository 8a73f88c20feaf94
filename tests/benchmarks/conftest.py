"""Benchmarks are slow and their timings are noise on a shared box: run them only on request."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # A non-root conftest still sees every collected item, so select by marker, not by path.
    if "benchmark" in (config.getoption("markexpr") or ""):
        return
    skip = pytest.mark.skip(reason="benchmark: run with -m benchmark")
    for item in items:
        if item.get_closest_marker("benchmark") is not None:
            item.add_marker(skip)
