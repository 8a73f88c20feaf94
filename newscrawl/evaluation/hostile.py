"""Hostile page shapes: how extraction's time and memory grow with a pathological page.

A crawl extracts in Scrapy's one reactor thread, so a page whose cost grows faster than its
size stalls every download for as long as it takes. Each shape here is a page a crawl can meet
(thousands of ``<br>`` in one block, a link around thousands of images, runs of hidden spans, a
code listing of highlighted tokens, a million one-word paragraphs, ...), built at a quarter of
``--mb`` and at ``--mb``, each extracted in a child process of its own so that its peak RSS is
that page's alone. A time ratio near 4 between the two sizes is linear, near 16 quadratic.

    python -m newscrawl.evaluation.hostile [--mb 10] [--shape br ...] [--json]

``--mb 10`` is the crawl's download cap (``DOWNLOAD_MAXSIZE``). One known quadratic case runs
only when named (``--shape distinct_attributes --mb 1.2``), since at 10 MB it takes minutes and
is not this project's code: libxml2's HTML parser compares each attribute of an element with
every one before it (docs/extraction.md, "Hostile pages", says why there is no guard).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

SHAPES: dict[str, tuple[str, ...]] = {
    # name: (opening, piece repeated n times, closing[, second piece repeated n times, end]);
    # ``{i}`` in a piece is its index
    "br_in_block": ("<div>", "word<br>", "</div>"),
    "link_around_images": ("<p><a href='/x'>", "word<img src='i.png'>", "</a></p>"),
    "nested_links": ("<p>", "<a href='/x'><b>word ", "</p>"),
    "links_in_block": ("<div>", "<a href='/q'>word</a> ", "</div>"),
    "hidden_spans": ("<p>", "<span style='display:none'>hidden</span>word ", "</p>"),
    "highlighted_code": ("<pre>", "<span class='k'>if</span> x\n", "</pre>"),
    "comments_in_text": ("<p>", "word<!-- note -->", "</p>"),
    "paragraphs": ("", "<p>word</p>", ""),
    "distinct_classes": ("", "<div class='c{i} x{i}'>text</div>", ""),
    "nested_inline": ("<p>", "<b>word", "</p>"),
    "nested_blocks": ("", "<div>word", ""),
    "author_metas": ("<head>", "<meta name='author' content='Ann Lee {i}'>", "</head><p>x</p>"),
    "times": ("<p>", "<time datetime='2024-01-01'>word</time>", "</p>"),
    # React's streamed segments arrive together at the end of the body, each to be moved
    # into the boundary that shares its number
    "react_segments": ("", "<template id='B:{i}'></template>word ", "",
                       "<div hidden id='S:{i}'><p>word</p></div>after ", ""),
    "distinct_attributes": ("<div", " a{i}", ">word</div>"),
    # Next.js pages with an empty DOM: the article is read from the framework's data
    "next_flight_rows": ("", '<script>self.__next_f.push([1,"{i}:[\\"<p>the words of '
                         'paragraph {i}</p>\\"]\\n"])</script>', ""),
    "next_data_strings": ("<script id='__NEXT_DATA__' type='application/json'>[",
                          '"<p>the words of paragraph {i}</p>",', '""]</script>'),
}
ONLY_WHEN_NAMED = frozenset({"distinct_attributes"})

_CHILD = """
import json, resource, sys, time
from newscrawl import extract
parts, n = json.loads(sys.argv[1])
def repeat(piece):
    return piece * n if "{i}" not in piece else "".join(
        piece.replace("{i}", str(i)) for i in range(n))
body = "".join(repeat(part) if k % 2 else part for k, part in enumerate(parts))
html = ("<html><body>" + body + "</body></html>").encode()
extract(b"<p>warm up</p>", None)
start = time.perf_counter()
article = extract(html, "http://example.test/2024/01/01/page")
seconds = time.perf_counter() - start
print(json.dumps({"bytes": len(html), "seconds": seconds, "reason": article.reason,
                  "nodes": article.nodes_total,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def measure(name: str, megabytes: float, timeout: float = 900) -> dict[str, Any]:
    """Extract shape ``name`` at about ``megabytes`` in a child process; its figures."""
    parts = SHAPES[name]
    per_n = sum(len(part.replace("{i}", "00000")) for part in parts[1::2])
    n = max(1, int(megabytes * 1e6 / per_n))
    try:
        out = subprocess.run([sys.executable, "-c", _CHILD, json.dumps([parts, n])],
                             capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return {"bytes": None, "seconds": None, "reason": f"over {timeout:.0f} s"}
    return json.loads(out.stdout)


def run(args: argparse.Namespace) -> int:
    rows = {}
    for name in args.shape or [s for s in SHAPES if s not in ONLY_WHEN_NAMED]:
        small, big = measure(name, args.mb / 4), measure(name, args.mb)
        ratio = (big["seconds"] / small["seconds"]
                 if big["seconds"] is not None and small["seconds"] else None)
        rows[name] = {"small": small, "big": big, "time_ratio": ratio}
        if not args.json:
            print(f"{name:20} {small['seconds'] or float('nan'):7.3f} s -> "
                  f"{big['seconds'] or float('nan'):7.3f} s at {(big['bytes'] or 0) / 1e6:5.1f} MB"
                  f"  ratio {ratio or float('nan'):5.1f}  RSS {big.get('rss_mb', 0):5.0f} MB"
                  f"  {big['reason'] or 'extracted'}", flush=True)
    if args.json:
        print(json.dumps(rows))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.evaluation.hostile",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10.0,
                        help="size of the larger page of each shape (the smaller is a quarter)")
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES),
                        help="only these shapes (repeatable)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
