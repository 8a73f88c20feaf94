#!/usr/bin/env bash
# Build the mercury-news set (news of publishers never trained on) once, into the user's cache
# (never into the project), and print its path: the saved pages of Mercury Parser 1.1.1's
# site-specific extractors (npm), labelled by those extractors, less the domains of WCXB dev
# and fundus-dev (newscrawl.evaluation.mercury). Needs node and npm.
# Usage: .venv/bin/newscrawl evaluate --model models/nodes-v1.ubj --data "$(scripts/mercury-news.sh)"
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh requirements-dev.txt >&2
command -v npm >/dev/null || { echo "mercury-news: needs node and npm (apt-get install nodejs npm)" >&2; exit 2; }
version=1.1.1
cache="${XDG_CACHE_HOME:-$HOME/.cache}/newscrawl"
parser="$cache/mercury-parser-$version"
data="$cache/mercury-news-$version"
if [ ! -f "$parser/package/dist/mercury.js" ]; then
    mkdir -p "$parser"
    (
        cd "$parser"
        npm pack --silent "@postlight/mercury-parser@$version" >/dev/null
        tar -xzf "postlight-mercury-parser-$version.tgz"
        # Its dependencies as published, less the two it takes from GitHub (npm's registry has
        # request and difflib) and the headless browser it does not need to parse saved pages.
        npm init -y >/dev/null
        npm install --silent --no-audit --no-fund @babel/runtime-corejs2@^7.2.0 cheerio@0.22.0 \
            ellipsize@0.1.0 iconv-lite@0.4.24 jquery@^3.3.1 moment@^2.23.0 \
            moment-parseformat@3.0.0 moment-timezone@0.5.23 request request-promise@^4.2.2 \
            string-direction@^0.1.2 url@^0.11.0 valid-url@^1.0.9 wuzzy@^0.1.3 difflib >&2
    ) >&2
fi
if [ ! -d "$data/dev/ground-truth" ]; then
    .venv/bin/python -m newscrawl.evaluation.mercury --package "$parser/package" --out "$data" \
        --exclude ../shared/data/wcxb-dev --exclude ../shared/data/fundus-dev >&2
fi
echo "$data"
