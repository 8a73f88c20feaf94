#!/usr/bin/env bash
# Create .venv if missing and install what newscrawl needs; quick when already done.
# Usage: scripts/setup.sh [requirements file]   (default requirements.txt)
set -euo pipefail
cd "$(dirname "$0")/.."
req="${1:-requirements.txt}"
py="${PYTHON:-python3.11}"
command -v "$py" >/dev/null || py=python3
if [ ! -x .venv/bin/python ]; then
  "$py" -m venv .venv
fi
stamp=".venv/.installed-$(basename "$req")"
if [ ! -f "$stamp" ] || [ "$req" -nt "$stamp" ] || [ requirements.txt -nt "$stamp" ] \
   || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -r "$req"
  .venv/bin/python -m pip install --quiet --no-deps -e .
  touch "$stamp"
fi
