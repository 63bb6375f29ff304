#!/usr/bin/env bash
# One-shot set-up on a fresh Debian 12 machine: system packages, a virtual environment, the package.
#   scripts/setup.sh          everything the run command needs
#   scripts/setup.sh --dev    plus what the test suite needs (pytest, ruff, playwright, ray)
# Idempotent: what is already installed is not installed again.
set -euo pipefail
cd "$(dirname "$0")/.."

dev=0
for arg in "$@"; do
  case "$arg" in
    --dev) dev=1 ;;
    *) echo "setup.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done

# --- system packages: E prover (ALPS), Coq (formal proofs), Chromium (browser tests) ---------------
system_packages=(eprover coq libcoq-coquelicot libcoq-hammer)
if [ "$dev" = 1 ]; then system_packages+=(chromium fonts-dejavu-core); fi
missing=()
for pkg in "${system_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  echo "setup: installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q >/dev/null
  $sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- Python environment ------------------------------------------------------------------------------
python=""
for candidate in python3.11 python3.12 python3.13 python3; do
  if command -v "$candidate" >/dev/null 2>&1 &&
     "$candidate" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
    python="$candidate"; break
  fi
done
if [ -z "$python" ]; then echo "setup: Python >= 3.11 is required" >&2; exit 1; fi
if [ ! -x .venv/bin/python ]; then "$python" -m venv .venv; fi

extras="llm,web"
if [ "$dev" = 1 ]; then extras="llm,web,ray,dev,llm-local,mcp"; fi
stamp=".venv/.veristep-installed-$extras-$(sha1sum pyproject.toml | cut -c1-12)"
if [ ! -f "$stamp" ]; then
  echo "setup: installing veristep[$extras] into .venv"
  .venv/bin/python -m pip install -q --upgrade pip
  wheels=()
  if [ "$dev" = 1 ] && ! .venv/bin/python -c "import llama_cpp" 2>/dev/null; then
    # llama-cpp-python ships as source, and pip would build llama.cpp for this very CPU: a wheel
    # built with -march=native dies of SIGILL on a machine lacking one of its instructions, and
    # pip's cache hands that wheel to any machine sharing the cache. So build it once for any
    # x86-64 with AVX2 (GGML_NATIVE=OFF), into a folder of our own named by version and flags.
    llama=$(grep -o 'llama-cpp-python\[server\]==[0-9.]*' pyproject.toml | cut -d= -f3)
    dir="${XDG_CACHE_HOME:-$HOME/.cache}/veristep/wheels/llama-cpp-python-$llama-portable"
    if ! ls "$dir/llama_cpp_python-$llama-"*.whl >/dev/null 2>&1; then
      echo "setup: building llama-cpp-python $llama once (about 7 minutes on two idle cores)"
      CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_CURL=OFF}" \
        CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}" \
        .venv/bin/python -m pip wheel -q --no-deps --no-cache-dir -w "$dir" "llama-cpp-python==$llama"
    fi
    wheels=(--find-links "$dir")
  fi
  .venv/bin/python -m pip install -q "${wheels[@]}" -e ".[$extras]"
  touch "$stamp"
fi
echo "setup: ready ($(.venv/bin/veristep --version))"
