#!/usr/bin/env bash
# Emacs + Eglot with the docs/editors.md recipe, verbatim, in batch mode against a copy of
# examples/. Prints PASS/FAIL lines and "N passed, N failed"; exits non-zero on any failure, 3
# (with a "MISSING <package>" line) when Eglot, yaml-mode or markdown-mode is not installed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/editors/lib.sh
. "$here/../lib.sh"

if ! command -v emacs > /dev/null; then
  echo "FAIL setup: emacs is not installed (apt-get install emacs-nox elpa-eglot elpa-yaml-mode elpa-markdown-mode)"
  exit 1
fi
emacs --version | head -1
# The packages the recipe needs (Eglot, yaml-mode): exit 3 with "MISSING ..." when one is not.
missing=$(emacs --batch -Q -l "$here/setup.el" 2>&1) || {
  rc=$?
  if [ "$rc" -eq 3 ]; then
    echo "$missing" | grep '^MISSING'
    exit 3
  fi
  echo "$missing"
  echo "FAIL setup: emacs -l setup.el exited with $rc"
  exit 1
}

editors_setup
python3 "$here/../extract_recipe.py" emacs-eglot > "$EY_SCRATCH/recipe.el"

cd "$EY_WORKSPACE"
status=0
timeout "${EY_EMACS_TIMEOUT:-300}" emacs --batch -Q \
  -l "$here/setup.el" -l "$EY_SCRATCH/recipe.el" -l "$here/check.el" \
  > "$EY_SCRATCH/out.txt" 2> "$EY_SCRATCH/err.txt" || status=$?
cat "$EY_SCRATCH/out.txt"
if [ "$status" -ne 0 ]; then
  echo "--- emacs messages (tail)"
  tail -n 40 "$EY_SCRATCH/err.txt"
  if ! grep -q ' passed, ' "$EY_SCRATCH/out.txt"; then
    echo "FAIL emacs exited with status $status before finishing"
  fi
  exit 1
fi
