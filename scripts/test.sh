#!/usr/bin/env bash
# The whole test suite (set-up included): lint, type check, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/mypy src  # settings: [tool.mypy] in pyproject.toml
exec .venv/bin/python -m pytest -q "$@"
