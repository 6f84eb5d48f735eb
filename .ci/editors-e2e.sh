#!/usr/bin/env bash
# Neovim 0.7 and Emacs 28 + Eglot (Debian's packages), headless, each running its recipe from
# docs/editors.md verbatim against a copy of examples/. See tests/editors/{nvim,emacs}/.
#   EVALYAML_BIN  server under test (default: .venv/bin/evalyaml, else `evalyaml` on PATH)
set -euo pipefail
cd "$(dirname "$0")/.."
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

t0=$(date +%s)
missing=()
for pkg in neovim emacs-nox elpa-eglot elpa-yaml-mode git; do
  dpkg -s "$pkg" > /dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "--- editors-e2e: apt-get install ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
echo "--- editors-e2e: packages ready in $(($(date +%s) - t0))s"

passed=0
failed=0
for editor in nvim emacs; do
  echo "--- editors-e2e: $editor"
  out=$(mktemp)
  t=$(date +%s)
  set +e
  bash "tests/editors/$editor/run.sh" 2>&1 | tee "$out"
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
  echo "--- editors-e2e: $editor took $(($(date +%s) - t))s"
  rm -f "$out"
done
echo "--- editors-e2e: total $(($(date +%s) - t0))s"
echo "editors: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
