#!/usr/bin/env bash
# Set up, ingest the bundled sample PDF, and answer a question about it with citations.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PAGELENS_HOME=${PAGELENS_HOME:-.pagelens}
.venv/bin/pagelens ingest samples/
.venv/bin/pagelens ask "${1:-Which CPU was used to obtain the inference timing results?}"
