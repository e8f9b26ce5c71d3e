#!/usr/bin/env bash
# Set up and run the default test suite (slow tests: add -m slow, or -m '' for all).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest -q "$@"
