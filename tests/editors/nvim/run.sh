#!/usr/bin/env bash
# Neovim (0.7+) with the docs/editors.md recipe, verbatim, headless against a copy of examples/.
# Prints PASS/FAIL lines and "N passed, N failed"; exits non-zero on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/editors/lib.sh
. "$here/../lib.sh"

if ! command -v nvim > /dev/null; then
  echo "FAIL setup: nvim is not installed (apt-get install neovim)"
  exit 1
fi
nvim --version | head -1
editors_setup
python3 "$here/../extract_recipe.py" neovim-0.7 > "$EY_SCRATCH/init.lua"

cd "$EY_WORKSPACE"
status=0
timeout "${EY_NVIM_TIMEOUT:-300}" nvim --headless -n -i NONE -u "$EY_SCRATCH/init.lua" \
  -c "luafile $here/check.lua" > "$EY_SCRATCH/out.txt" 2> "$EY_SCRATCH/err.txt" || status=$?
cat "$EY_SCRATCH/out.txt"
if [ "$status" -ne 0 ]; then
  if [ -s "$EY_SCRATCH/err.txt" ]; then
    echo "--- nvim stderr"
    tail -n 40 "$EY_SCRATCH/err.txt"
  fi
  if ! grep -q ' passed, ' "$EY_SCRATCH/out.txt"; then
    echo "FAIL nvim exited with status $status before finishing"
  fi
  for lsplog in "$XDG_CACHE_HOME/nvim/lsp.log" "$XDG_STATE_HOME/nvim/lsp.log"; do
    if [ -f "$lsplog" ]; then
      echo "--- nvim lsp.log (tail)"
      tail -n 30 "$lsplog"
    fi
  done
  exit 1
fi
