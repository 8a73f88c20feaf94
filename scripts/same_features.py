"""Check that a code change leaves extraction output untouched: feature matrices and texts.

    PYTHONPATH=. .venv/bin/python scripts/same_features.py --data ../shared/data/wcxb-dev \
        [--n 300] [--ref REV]

Exports ``--ref`` (a git revision; default: where this branch left ``main``, else
``origin/main``: the code the branch's changes are measured against) to a temporary
directory, runs ``page_nodes`` and ``Extractor.extract`` over the first N pages there and
here (each in its own child process,
so the two code versions never share a module cache), and compares per page ``table.X``
(``np.array_equal``), ``table.texts``, ``owner``, ``container``, ``Article.text`` and the
Article's metadata fields. Exit status 1 on any difference, 2 when there is nothing to
compare with. Speed work must keep all of them identical.
"""

from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def _dump(data: str, n: int, out: str) -> None:
    """Child: run the code on PYTHONPATH over the pages, pickle what must not change."""
    from newscrawl.evaluation.datasets import load_pages
    from newscrawl.extraction import Extractor
    from newscrawl.extraction.extractor import page_nodes

    extractor = Extractor()
    rows = []
    for page in load_pages(Path(data), n):
        nodes = page_nodes(page.body, page.url)
        t = nodes.table
        art = extractor.extract(page.body, page.url)
        rows.append({
            "id": page.page_id,
            "reason": nodes.reason,
            "X": None if t is None else t.X,
            "texts": None if t is None else t.texts,
            "owner": None if t is None else t.owner,
            "container": None if t is None else t.container,
            "text": art.text,
            "article": {k: getattr(art, k) for k in (
                "title", "authors", "published", "modified", "language", "description",
                "site_name", "image", "tags", "section", "canonical_url", "page_type",
                "encoding", "reason", "nodes_total", "nodes_kept")},
        })
    with open(out, "wb") as f:
        pickle.dump(rows, f)


def _run(pythonpath: Path, data: str, n: int, out: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(pythonpath))
    subprocess.run([sys.executable, str(Path(__file__).resolve()), "--dump", str(out),
                    "--data", data, "--n", str(n)], env=env, check=True, cwd=pythonpath)


def _same(a: object, b: object) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
                and a.dtype == b.dtype and np.array_equal(a, b, equal_nan=a.dtype.kind == "f"))
    return a == b


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--ref", default=None, help="git revision (default: merge-base with main)")
    ap.add_argument("--dump", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.dump:
        _dump(str(Path(args.data).resolve()), args.n, args.dump)
        return 0
    data = str(Path(args.data).resolve())
    if args.ref is None:
        for base in ("main", "origin/main"):
            found = subprocess.run(["git", "merge-base", base, "HEAD"], cwd=ROOT,
                                   capture_output=True, text=True)
            if found.returncode == 0:
                args.ref = found.stdout.strip()
                break
        else:  # 2, not 1: 1 says pages differ
            print("same_features: no branch main or origin/main to compare with; "
                  "give --ref REV", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        archive = subprocess.run(["git", "archive", args.ref], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        ref_dir = tmp_path / "ref"
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(ref_dir, filter="data")
        _run(ref_dir, data, args.n, tmp_path / "ref.pkl")
        _run(ROOT, data, args.n, tmp_path / "new.pkl")
        ref = pickle.loads((tmp_path / "ref.pkl").read_bytes())
        new = pickle.loads((tmp_path / "new.pkl").read_bytes())
    bad = 0
    for r, w in zip(ref, new, strict=True):
        diffs = [k for k in r if not _same(r[k], w[k])]
        if diffs:
            bad += 1
            print(f"{r['id']}: differs in {', '.join(diffs)}")
    print(f"{len(ref)} pages against {args.ref}: {bad} differ "
          "(X, texts, owner, container, Article text and metadata fields)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
