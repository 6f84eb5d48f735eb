# shellcheck shell=bash
# Shared set-up for the headless editor tests (sourced by nvim/run.sh and emacs/run.sh).
#
# After `editors_setup`:
#   $EY_WORKSPACE  a scratch copy of examples/ (a git repository, plus one YAML file that is not
#                  an eval file: deploy/k8s-service.yaml)
#   PATH           starts with a folder whose `evalyaml` runs $EVALYAML_BIN, so the recipes'
#                  `cmd = { 'evalyaml', 'lsp' }` finds the server under test
#   $EY_SCRATCH    removed on exit
# Inputs: EVALYAML_BIN (default: <repo>/.venv/bin/evalyaml, else `evalyaml` on PATH),
#         EXAMPLES (default: <repo>/examples).

EY_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

editors_find_server() {
  if [ -n "${EVALYAML_BIN:-}" ]; then
    printf '%s\n' "$EVALYAML_BIN"
  elif [ -x "$EY_REPO/.venv/bin/evalyaml" ]; then
    printf '%s\n' "$EY_REPO/.venv/bin/evalyaml"
  else
    command -v evalyaml || true
  fi
}

editors_setup() {
  local server examples
  server=$(editors_find_server)
  if [ -z "$server" ] || [ ! -x "$server" ]; then
    echo "FAIL setup: no evalyaml executable (set EVALYAML_BIN, or pip install -e . into .venv)"
    exit 1
  fi
  server=$(cd "$(dirname "$server")" && pwd)/$(basename "$server")
  examples=${EXAMPLES:-$EY_REPO/examples}
  EY_SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/evalyaml-editors.XXXXXX")
  trap 'rm -rf "$EY_SCRATCH"' EXIT
  EY_WORKSPACE=$EY_SCRATCH/examples
  cp -r "$examples" "$EY_WORKSPACE"
  mkdir -p "$EY_WORKSPACE/deploy"
  printf 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  expecteed_facts: none\nspec:\n  ports:\n    - port: 80\n' \
    > "$EY_WORKSPACE/deploy/k8s-service.yaml"
  # Eglot (project.el) and the Neovim recipe take the version-control root as the workspace.
  mkdir -p "$EY_WORKSPACE/.git"
  if command -v git > /dev/null; then
    rm -rf "$EY_WORKSPACE/.git"
    git -C "$EY_WORKSPACE" init -q
  fi
  # Editors keep their logs and state under the scratch folder, not in $HOME.
  export XDG_CONFIG_HOME=$EY_SCRATCH/xdg/config XDG_CACHE_HOME=$EY_SCRATCH/xdg/cache \
    XDG_DATA_HOME=$EY_SCRATCH/xdg/data XDG_STATE_HOME=$EY_SCRATCH/xdg/state
  mkdir -p "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" "$XDG_DATA_HOME" "$XDG_STATE_HOME"
  mkdir -p "$EY_SCRATCH/bin"
  ln -s "$server" "$EY_SCRATCH/bin/evalyaml"
  export PATH="$EY_SCRATCH/bin:$PATH" EY_WORKSPACE EY_SCRATCH
  echo "server: $server"
  echo "workspace: $EY_WORKSPACE"
}
