"""Labelled page sets written in WCXB's layout, for tests of the training and evaluation code.

A module of its own (not conftest) so test files can import it unambiguously, as with
crawlutil.py and modelutil.py.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path


def write_labelled_page(dev: Path, page_id: str, html: str | bytes, truth: str, url: str,
                        page_type: str = "article", title: str | None = None,
                        publisher: str | None = None) -> None:
    """``dev/html/ID.html.gz`` and ``dev/ground-truth/ID.json``, as ``load_pages`` reads them
    (with a ``publisher``, as fundus-dev writes them)."""
    (dev / "html").mkdir(parents=True, exist_ok=True)
    (dev / "ground-truth").mkdir(exist_ok=True)
    body = html.encode() if isinstance(html, str) else html
    (dev / "html" / f"{page_id}.html.gz").write_bytes(gzip.compress(body))
    label = {"url": url, "_internal": {"page_type": {"primary": page_type}},
             "ground_truth": {"main_content": truth, "title": title}}
    if publisher:
        label["publisher"] = publisher
    (dev / "ground-truth" / f"{page_id}.json").write_text(json.dumps(label), "utf-8")
