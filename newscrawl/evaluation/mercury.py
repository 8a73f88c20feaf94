"""English news of 71 publishers the model never saw, labelled by parsers written for each one.

Mercury Parser 1.1.1's npm package ships, for each of about ninety sites, an extractor written
by hand (CSS selectors for the body, title, author and date, and what to remove from the body)
and a saved page of the site that its tests check it on: news and magazine stories of
2016-2019, mostly American. This builds a labelled set in WCXB's layout from them: each page
as the site served it, its label the text of what that site's extractor returns. Pages of
domains in the ``exclude`` sets (WCXB dev, fundus-dev) are left out, so the set is news of
publishers never trained on, and a publisher is in one set if it is ever trained on beside them.
Nothing of it enters the project: ``scripts/mercury-news.sh`` fetches the package from npm and
builds the set in the user's cache.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

from ..extraction.site import site_of
from .datasets import _html_text, load_pages

_CASE = re.compile(
    r"""url\s*=\s*['"]([^'"]+)['"];\s*const\s+html\s*=\s*fs\.readFileSync\(\s*['"]\./([^'"]+)['"]""")
RUNNER = Path(__file__).resolve().parents[2] / "scripts" / "mercury-label.js"
_META = re.compile(rb"<meta\b[^>]*>", re.I)
_VALUE = re.compile(rb"\bvalue=", re.I)
_PROPERTY_NAME = re.compile(rb"""\bname=(["'])((?:og|article|fb):)""", re.I)
MIN_WORDS = 50
"""A label shorter than this is a video or tweet page, not a story to score a text on."""


def served(saved: bytes) -> bytes:
    """The page as its site served it: Mercury saved its fixtures with each ``<meta>`` rewritten
    (``content`` renamed ``value``, ``property`` renamed ``name``), which hides what the page
    declares (``og:type``, ``article:published_time``) from every other reader."""
    def restore(tag: re.Match[bytes]) -> bytes:
        return _PROPERTY_NAME.sub(rb"property=\1\2", _VALUE.sub(b"content=", tag.group(0)))
    return _META.sub(restore, saved)


def cases(package: Path) -> list[tuple[str, Path]]:
    """(URL, saved page) of each test case of the site-specific extractors."""
    found = []
    for test in sorted((package / "src" / "extractors" / "custom").glob("*/index.test.js")):
        for url, fixture in _CASE.findall(test.read_text("utf-8")):
            if (package / fixture).is_file():
                found.append((url, package / fixture))
    return found


def build(package: Path, out: Path, runner: Path, exclude: list[Path]) -> int:
    """Write the labelled set to ``out`` (``dev/html``, ``dev/ground-truth``); the page count."""
    seen = {page.domain for data in exclude for page in load_pages(data)}
    todo = [(url, path) for url, path in cases(package) if site_of(url) not in seen]
    done = subprocess.run(
        ["node", str(runner), str(package)], check=True, capture_output=True, text=True,
        input=json.dumps([{"file": str(path), "url": url} for url, path in todo]))
    # "\n" only: JSON.stringify leaves U+2028 in a string unescaped; splitlines() splits there
    rows = map(json.loads, filter(str.strip, done.stdout.split("\n")))
    labels = {row["file"]: row for row in rows}
    (out / "dev" / "html").mkdir(parents=True, exist_ok=True)
    (out / "dev" / "ground-truth").mkdir(parents=True, exist_ok=True)
    written = 0
    for url, path in todo:
        label = labels.get(str(path)) or {}
        content = label.get("content") or ""
        text = _html_text(content) if content.strip() else ""
        if label.get("error") or len(text.split()) < MIN_WORDS:
            continue
        site = path.parent.name
        page_id = f"{site}_{path.stem}"
        (out / "dev" / "html" / f"{page_id}.html.gz").write_bytes(
            gzip.compress(served(path.read_bytes())))
        truth = {"main_content": text, "title": label.get("title"),
                 "authors": [label["author"]] if label.get("author") else [],
                 "publish_date": label.get("date_published")}
        (out / "dev" / "ground-truth" / f"{page_id}.json").write_text(json.dumps(
            {"url": url, "publisher": site, "ground_truth": truth,
             "_internal": {"page_type": {"primary": "article"}}}, ensure_ascii=False), "utf-8")
        written += 1
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.evaluation.mercury",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--package", type=Path, required=True,
                        help="the unpacked @postlight/mercury-parser 1.1.1 (its package/ folder)")
    parser.add_argument("--out", type=Path, required=True, help="where to write the set")
    parser.add_argument("--runner", type=Path, default=RUNNER)
    parser.add_argument("--exclude", type=Path, action="append", default=[],
                        help="a labelled set whose domains to leave out (repeat it)")
    args = parser.parse_args(argv)
    pages = build(args.package, args.out, args.runner, args.exclude)
    print(f"{args.out}: {pages} pages", file=sys.stderr)
    return 0 if pages else 1


if __name__ == "__main__":
    sys.exit(main())
