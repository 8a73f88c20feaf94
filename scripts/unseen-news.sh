#!/usr/bin/env bash
# Score a node model on news it was never trained on: newspaper4k's test pages (23 pages of
# about twenty publishers in a dozen languages, from its PyPI source distribution, unpacked
# into the user's cache, never into the project), trafilatura on the same pages.
# Usage: scripts/unseen-news.sh [MODEL]   (default: the shipped models/nodes-v1.ubj)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh requirements-dev.txt
version=0.9.6
cache="${XDG_CACHE_HOME:-$HOME/.cache}/newscrawl"
data="$cache/newspaper4k-$version/tests/data"
if [ ! -d "$data" ]; then
    download="$(mktemp -d)"
    trap 'rm -rf "$download"' EXIT
    .venv/bin/python -m pip download -q --no-deps --no-binary :all: -d "$download" \
        "newspaper4k==$version"
    mkdir -p "$cache"
    tar -xzf "$download/newspaper4k-$version.tar.gz" -C "$cache" "newspaper4k-$version/tests/data"
fi
exec .venv/bin/newscrawl evaluate --model "${1:-models/nodes-v1.ubj}" --data "$data"
