#!/usr/bin/env bash
# Set up everything the tests need, then lint and run the whole suite (slow and external suites too).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --dev
export LITELLM_LOCAL_MODEL_COST_MAP=True
.venv/bin/ruff check src tests bench
.venv/bin/ruff format --check src tests bench
.venv/bin/python -m pytest "$@"
