"""The tree walks compiled from ``_cwalk.pyx``, when the package was built with them.

They read lxml's node structs, so they serve only under the lxml they were compiled against;
otherwise (or without a C compiler at install time) ``CWALK`` is None and the Python code
that each of them mirrors reads the tree, with the same results.
"""

from __future__ import annotations

from types import ModuleType

import lxml

try:
    from . import _cwalk
except ImportError:  # built without a C compiler, or run from sources never built
    _cwalk = None

CWALK: ModuleType | None = (
    _cwalk if _cwalk is not None and lxml.__version__ == _cwalk.LXML_VERSION else None)
