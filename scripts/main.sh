#!/usr/bin/env bash
# The main job on the bundled examples (set-up included).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/diagbench compare examples/callflows/gold examples/callflows/pred "$@"
