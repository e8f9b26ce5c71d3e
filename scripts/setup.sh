#!/usr/bin/env bash
# Set up pagelens on a fresh machine: system OCR (where the system allows), a venv, the package.
# Idempotent: re-running only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "pagelens needs Python >= 3.11 (found: $("$PY" --version 2>&1))" >&2
  exit 1
fi

# Tesseract is the default OCR engine. Install it where we can do so without asking.
if ! command -v tesseract >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "setup: installing tesseract-ocr (apt)" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng >/dev/null) \
      || echo "setup: could not install tesseract; OCR will be off" >&2
  elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng >/dev/null) \
      || echo "setup: could not install tesseract; OCR will be off" >&2
  elif command -v brew >/dev/null 2>&1; then
    brew install tesseract || echo "setup: could not install tesseract; OCR will be off" >&2
  else
    echo "setup: tesseract not found and no way to install it here; scanned pages will not be OCR'd" >&2
  fi
fi

# PostgreSQL server binaries for the shared-catalog tests (they start their own throwaway server).
if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "setup: installing postgresql (apt) for the PostgreSQL catalog tests" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) \
      || echo "setup: could not install postgresql; its catalog tests will be skipped" >&2
  elif command -v apt-get >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    (sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) \
      || echo "setup: could not install postgresql; its catalog tests will be skipped" >&2
  else
    echo "setup: postgresql not found and no way to install it here; its catalog tests will be skipped" >&2
  fi
fi

if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# pip, quiet, without the notes some mirrors' configs print for every package.
pipq() { .venv/bin/python -m pip -q "$@" 2> >(grep -v "is neither a file nor a directory" >&2); }
pipq install --upgrade pip >/dev/null
# The CPU build of torch first: a plain 'torch' requirement could otherwise pull a multi-GB CUDA build.
pipq install "torch==2.13.0"
pipq install -e ".[test]"
pipq install -e ".[postgres]"  # psycopg, for the PostgreSQL catalog and its tests
pipq install -e ".[ray]"  # Ray, for `ingest --ray` and its tests (a local Ray on this machine)
echo "setup: ready (.venv/bin/pagelens)" >&2
