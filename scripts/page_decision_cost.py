"""What the article-or-not decision costs next to extraction, per page, on one thread.

    .venv/bin/python scripts/page_decision_cost.py ../shared/data/wcxb-dev --pages 300

Prints medians: ``Extractor.extract`` (which now sums up the node model's view of the page,
``page_signals``, and counts what its raw markup holds, ``markup_counts``: each timed alone
too) and ``PageModel.decide`` (features and trees).
"""

from __future__ import annotations

import argparse
import statistics
import time

from newscrawl.evaluation.datasets import load_pages
from newscrawl.extraction import Extractor
from newscrawl.extraction.assemble import keep_nodes
from newscrawl.extraction.decode import decode_page
from newscrawl.extraction.extractor import page_nodes
from newscrawl.extraction.pagekind import PageModel, markup_counts, page_signals
from newscrawl.extraction.parse import parse


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data")
    parser.add_argument("--pages", type=int, default=300, help="every second of the first N")
    args = parser.parse_args()
    extractor, pages = Extractor(), PageModel.load()
    extract_ms, signals_ms, markup_ms, decide_ms = [], [], [], []
    for i, page in enumerate(load_pages(args.data, args.pages)):
        if i % 2:
            continue
        t0 = time.perf_counter()
        art = extractor.extract(page.body, page.url)
        t1 = time.perf_counter()
        pages.decide(art, "link")
        t2 = time.perf_counter()
        nodes = page_nodes(page.body, page.url)
        if nodes.table is None or not len(nodes.table):
            continue
        proba = extractor.model.predict(nodes.table)
        keep = keep_nodes(nodes.table, proba)
        t3 = time.perf_counter()
        page_signals(nodes.table, proba, keep, nodes.markup)
        t4 = time.perf_counter()
        root = parse(*decode_page(page.body, None, page.url)[1:])
        t5 = time.perf_counter()
        markup_counts(root)
        markup_ms.append((time.perf_counter() - t5) * 1e3)
        extract_ms.append((t1 - t0) * 1e3)
        decide_ms.append((t2 - t1) * 1e3)
        signals_ms.append((t4 - t3) * 1e3)
    m = statistics.median
    print(f"n={len(extract_ms)} pages, 1 thread, {pages.name} "
          f"({pages.booster.num_boosted_rounds()} trees): extract p50 {m(extract_ms):.2f} ms "
          f"(page_signals inside it p50 {m(signals_ms):.3f} ms = "
          f"{m(signals_ms) / m(extract_ms):.1%}, markup_counts p50 {m(markup_ms):.3f} ms = "
          f"{m(markup_ms) / m(extract_ms):.1%}); PageModel.decide p50 {m(decide_ms):.3f} ms "
          f"= {m(decide_ms) / m(extract_ms):.1%} of extract")


if __name__ == "__main__":
    main()
