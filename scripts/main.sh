#!/usr/bin/env bash
# The main job on the bundled examples (set-up included): the offline baseline
# converts the bundled call flows' images to PlantUML, each script is scored
# against its ground truth, and the report is written to runs/callflows-baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/diagbench eval conversion --gold examples/callflows/gold --model baseline:ocr \
    --out runs/callflows-baseline "$@"
