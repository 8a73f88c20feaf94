"""``python -m newscrawl.sample_site [--port N] [--articles N]``: build the sample site in a
temporary directory and serve it on 127.0.0.1 until Ctrl-C, to crawl it by hand
(``scrapy crawl news -a url=<the printed URL>``) as the demo does."""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import threading
from pathlib import Path

from newscrawl.sample_site import SiteServer, build_site
from newscrawl.sample_site.generate import DEFAULT_ARTICLES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m newscrawl.sample_site",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="default: a free port")
    parser.add_argument("--articles", type=int, default=DEFAULT_ARTICLES)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="newscrawl-site-") as root:
        manifest = build_site(root, args.articles)
        with SiteServer(Path(root) / "site", port=args.port) as base_url:
            print(f"sample site: {base_url}/ ({len(manifest.articles)} articles); "
                  "Ctrl-C stops it", flush=True)
            with contextlib.suppress(KeyboardInterrupt):
                threading.Event().wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
