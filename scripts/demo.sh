#!/usr/bin/env bash
# Serve the bundled sample news site on 127.0.0.1, crawl it offline with `scrapy crawl news`,
# write out/articles.jsonl and print a one-screen summary. Extra arguments go to the demo
# (e.g. --articles 200, -s LOG_LEVEL=DEBUG).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh requirements.txt
exec .venv/bin/python -m newscrawl.demo --out out/articles.jsonl "$@"
