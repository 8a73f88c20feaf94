#!/usr/bin/env bash
# Install the development requirements into .venv (if needed) and run the test suite.
# Extra arguments go to pytest (e.g. -m benchmark, -k crawl). pytest's own exit status is
# the script's: "no tests collected" (5, e.g. a -k that matches nothing) is a failure, so a
# CI run that ran nothing cannot pass.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh requirements-dev.txt
exec .venv/bin/python -m pytest -q "$@"
