#!/usr/bin/env bash
# Update the locks: re-resolve locks/main.txt (.venv) and locks/harness.txt
# (.venv-harness) to the newest releases that satisfy pyproject.toml and locks/*.in,
# reinstall, run the whole test suite, and commit the locks only when it passes.
# Arguments go to `uv pip compile` (say `--upgrade-package NAME` to move one package).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
common=(--generate-hashes --python-version 3.11 --quiet --custom-compile-command "bash scripts/lock.sh")
[[ -d /opt/wheels ]] && common+=(--find-links /opt/wheels)
upgrade=(--upgrade)
((${#@})) && upgrade=("$@")
.venv/bin/uv pip compile pyproject.toml locks/tools.in --extra dev --extra ray --extra docs --universal \
    "${common[@]}" "${upgrade[@]}" -o locks/main.txt
.venv/bin/uv pip compile pyproject.toml locks/harness.in --python-platform x86_64-manylinux_2_28 \
    --no-emit-package torchvision "${common[@]}" "${upgrade[@]}" -o locks/harness.txt
bash scripts/test.sh
git add locks/main.txt locks/harness.txt
git commit -m "locks: re-resolved to the newest releases; the whole suite passes on them"
