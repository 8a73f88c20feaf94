"""Instructions per page of extraction, this tree against a git revision, counted by valgrind.

    PYTHONPATH=. .venv/bin/python scripts/instructions.py --data ../shared/data/wcxb-dev \
        --ref REV [--every 15]

Timings on a shared machine move by more than most speed changes are worth (the same code
benched at 0.47 and 0.49 against trafilatura within the hour), and two functions timed one
after the other in a process flatter whichever runs second (its caches are warm).
``valgrind --tool=callgrind`` counts the instructions a process executes instead: the same
total for the same code and input whatever else the machine runs (with the string hash seed
fixed: dict and set layouts move the count by a few per cent). Each tree runs in its own
process twice, once loading the model and extracting nothing and once extracting every
``--every``-th page, and the difference over the pages is its cost a page. Needs valgrind
(Debian's package). What ``bench`` checks the targets with stays ``newscrawl bench``; this
says whether a change made extraction cheaper, and by how much.
"""

from __future__ import annotations

import argparse
import pickle
import re
import subprocess
import sys
import tarfile
import tempfile
from concurrent.futures import ThreadPoolExecutor
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_CHILD = """
import pickle, sys
from newscrawl.extraction import Extractor, SiteMemory
pages = pickle.load(open(sys.argv[1], "rb"))[: int(sys.argv[2])]
extractor = Extractor(sites=SiteMemory())
for body, url in pages:
    extractor.extract(body, url)
"""
_COLLECTED = re.compile(r"Collected : (\d+)")


def _instructions(tree: Path, pages: Path, n: int, out: Path) -> int:
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c",
         _CHILD, str(pages), str(n)],
        cwd=tree, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0"},
        capture_output=True, text=True, check=True)
    return int(_COLLECTED.search(run.stderr).group(1))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--ref", required=True, help="git revision to compare with")
    ap.add_argument("--every", type=int, default=15, help="every k-th page of the set")
    args = ap.parse_args()
    from newscrawl.evaluation.datasets import load_pages

    pages = [(p.body, p.url) for i, p in enumerate(load_pages(Path(args.data), None))
             if i % args.every == 0]
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        (tmp_path / "pages.pkl").write_bytes(pickle.dumps(pages))
        archive = subprocess.run(["git", "archive", args.ref], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        ref_dir = tmp_path / "ref"
        with tarfile.open(fileobj=BytesIO(archive)) as tar:
            tar.extractall(ref_dir, filter="data")
        runs = [(tree, n) for tree in (ref_dir, ROOT) for n in (0, len(pages))]
        with ThreadPoolExecutor(2) as pool:
            counts = list(pool.map(
                lambda k: _instructions(runs[k][0], tmp_path / "pages.pkl", runs[k][1],
                                        tmp_path / f"cg.{k}"), range(len(runs))))
    ref = (counts[1] - counts[0]) / len(pages)
    new = (counts[3] - counts[2]) / len(pages)
    print(f"instructions a page, {len(pages)} pages of {args.data}: {args.ref} {ref / 1e6:.1f} M, "
          f"this tree {new / 1e6:.1f} M, ratio {new / ref:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
