#!/usr/bin/env bash
# The main job: set up, derive the quadratic formula offline, export its animation, and serve it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mkdir -p out
start='a x^2 + b x + c = 0'
target='x = \frac{-b \pm \sqrt{b^2 - 4ac}}{2a}'
.venv/bin/veristep derive "$start" "$target" --html out/quadratic.html
.venv/bin/veristep derive "$start" "$target" --json > out/quadratic.json
echo "animation written to out/quadratic.html"
exec .venv/bin/veristep serve --host "${HOST:-127.0.0.1}" --port "${PORT:-8000}" --import out/quadratic.json
