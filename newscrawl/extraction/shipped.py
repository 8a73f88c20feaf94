"""Where the shipped model files are: inside the installed package, or in the checkout.

The model files live in the repository's top-level ``models/`` (where ``newscrawl train``
writes them and the model card sits). A checkout, and an editable install, read them there.
A built package has no checkout around it, so the build (``setup.py``) copies ``models/``
into the wheel as ``newscrawl/models/``; that copy is looked for first.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent.parent
_PLACES = (_PACKAGE / "models", _PACKAGE.parent / "models")


def shipped_file(name: str) -> Path:
    """The path of the shipped model file ``name`` (e.g. ``nodes-v1.ubj``); the checkout's
    path when neither place holds it, so an error names the file a maintainer expects."""
    for place in _PLACES:
        if (place / name).is_file():
            return place / name
    return _PLACES[-1] / name
