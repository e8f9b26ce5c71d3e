#!/usr/bin/env bash
# Set up and run the default test suite (slow tests: add -m slow, or -m '' for all).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Debian's chromium drives the web-UI browser tests (Playwright); without it they are skipped.
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    echo "test: installing chromium (apt) for the web-UI tests" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || echo "test: could not install chromium; the browser tests will be skipped" >&2
  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
      || echo "test: could not install chromium; the browser tests will be skipped" >&2
  fi
fi
exec .venv/bin/python -m pytest -q "$@"
