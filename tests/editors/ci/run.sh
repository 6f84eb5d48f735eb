#!/usr/bin/env bash
# The install and CI recipes of docs/editors.md, run as written where they can run here:
#   install-from-clone    the block verbatim, with HOME a scratch folder
#   github-actions        each `run:` step, in order, in a scratch copy of examples/ (standing in
#   github-actions-sarif  for actions/checkout) with a fresh venv of this machine's python3 first
#                         on PATH (for actions/setup-python: the recipe asks for 3.12); the `uses:`
#                         steps (checkout, setup-python, upload-sarif) cannot run outside GitHub
#   github-action         action.yml's steps, the install from the clone included
#                         (tests/cli/action_runner.py plays GitHub's runner)
#   pre-commit            the .pre-commit-config.yaml block in a scratch git repository, then
#                         `pre-commit try-repo` (pre-commit from PyPI, in a scratch venv), then
#                         `pre-commit install` and real commits: a stale EEE checksum and a
#                         rubric version bump are refused
# Everywhere, https://github.com/evalyaml/evalyaml is replaced by a clone of this repository's
# committed HEAD as its `main` branch (uncommitted changes are not part of it): that is the only
# change.
# Needs git, python3 and the package index (pip installs evalyaml's dependencies).
# Prints PASS/FAIL lines and "N passed, N failed"; exits non-zero on any failure.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/evalyaml-ci-recipes.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export PIP_DISABLE_PIP_VERSION_CHECK=1 PRE_COMMIT_HOME=$scratch/pre-commit-home
unset VIRTUAL_ENV PYTHONPATH

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS $*"; }
fail() {
  failed=$((failed + 1))
  echo "FAIL $1"
  if [ -n "${2:-}" ] && [ -f "$2" ]; then
    echo "--- $(basename "$2") (tail)"
    tail -n 25 "$2"
  fi
}
recipe() { python3 "$here/../extract_recipe.py" "$@"; }
origin=$scratch/origin/evalyaml
github=https://github.com/evalyaml/evalyaml
local_url() { sed -e "s#$github\.git#file://$origin#g" -e "s#$github#file://$origin#g"; }

git clone -q "$repo" "$origin"
git -C "$origin" checkout -q -B main
echo "$github stands in as $origin (main at $(git -C "$origin" rev-parse --short HEAD))"

# 1. Install from a clone.
home=$scratch/home
mkdir -p "$home"
log=$scratch/install.log
if (cd "$home" && HOME=$home bash -euo pipefail -c "$(recipe install-from-clone | local_url)") > "$log" 2>&1 &&
  grep -q '^evalyaml 0\.1\.0$' "$log"; then
  pass "install-from-clone: $(grep '^evalyaml ' "$log") from $home/.local/share/evalyaml-venv"
else
  fail "install-from-clone" "$log"
fi

# 2. GitHub Actions: the run steps, in order, in a copy of examples/ with a venv first on PATH.
gha=$scratch/gha
cp -r "$repo/examples" "$gha"
python3 -m venv "$scratch/gha-python"
run_steps() {  # NAME LOG: runs the recipe's run steps; a step's status is in $scratch/status.N
  local name=$1 out=$2 n=0 step
  : > "$out"
  while IFS= read -r step; do
    n=$((n + 1))
    echo "\$ $step" >> "$out"
    local rc=0
    (cd "$gha" && PATH="$scratch/gha-python/bin:$PATH" bash -eo pipefail -c "$step") >> "$out" 2>&1 || rc=$?
    echo "$rc" > "$scratch/status.$n"
  done < <(recipe --run-steps "$name" | local_url)
}
log=$scratch/gha.log
run_steps github-actions "$log"
if [ "$(cat "$scratch/status.1")" = 0 ] && [ "$(cat "$scratch/status.2")" = 0 ]; then
  pass "github-actions: pip install from the default branch, then the check passes on examples/"
else
  fail "github-actions on examples/: steps exited $(cat "$scratch/status.1") and $(cat "$scratch/status.2")" "$log"
fi
# A typo in a dataset: --strict makes it an error, the job fails with an annotation.
cp "$repo/examples/mistakes/datasets/EY205-typo-expecteed_facts.yaml" "$gha/datasets/"
run_steps github-actions "$log"
annotation=$(grep -m1 '^::error file=datasets/EY205-typo-expecteed_facts.yaml,line=9,' "$log" || true)
if [ "$(cat "$scratch/status.2")" = 1 ] && [ -n "$annotation" ]; then
  pass "github-actions: a typo fails the job with ${annotation%%::unknown*}"
else
  fail "github-actions with a typo: check step exited $(cat "$scratch/status.2"), annotation: ${annotation:-none}" "$log"
fi
# SARIF: the check step may fail (continue-on-error); the file must be SARIF 2.1.0 with the finding.
log=$scratch/sarif.log
run_steps github-actions-sarif "$log"
if [ "$(cat "$scratch/status.1")" = 0 ] && python3 - "$gha/evalyaml.sarif" >> "$log" 2>&1 << 'EOF'
import json, sys
sarif = json.load(open(sys.argv[1], encoding="utf-8"))
assert sarif["version"] == "2.1.0", sarif["version"]
rules = [r.get("ruleId") for run in sarif["runs"] for r in run["results"]]
assert "EY205" in rules, rules
print("sarif ok:", rules)
EOF
then
  pass "github-actions-sarif: evalyaml.sarif is SARIF 2.1.0 with the EY205 result (check step exited $(cat "$scratch/status.2"))"
else
  fail "github-actions-sarif" "$log"
fi

# The first-party action (action.yml, from the clone): every step as GitHub's runner runs a
# composite action (tests/cli/action_runner.py), the install from the action's checkout
# included; the `uses:` upload cannot run outside GitHub. The typo above is still in place.
log=$scratch/action.log
runner_python=python3
if [ -x "$repo/.venv/bin/python" ]; then runner_python=$repo/.venv/bin/python; fi
(PATH="$scratch/gha-python/bin:$PATH" "$runner_python" "$repo/tests/cli/action_runner.py" "$gha" \
  --action "$origin/action.yml" --input args=--strict) > "$log" 2>&1 && rc=0 || rc=$?
if [ "$rc" = 1 ] && grep -q "^--- step Install evalyaml from the action's checkout: exit 0$" "$log" &&
  grep -q '^::error file=datasets/EY205-typo-expecteed_facts.yaml,line=9,' "$log" &&
  grep -q '^--- step Fail on errors: exit 1$' "$log" && grep -q '"ruleId": "EY205"' "$gha/evalyaml.sarif"; then
  pass "github-action: action.yml installs from its checkout, writes SARIF with EY205, annotates, fails"
else
  fail "github-action (exit $rc)" "$log"
fi

# 3. pre-commit: the config block as written, in a scratch repository of eval files.
log=$scratch/pre-commit.log
pc=$scratch/pc
cp -r "$repo/examples" "$pc"
# Every mistakes/ folder (the contract's and each format's): pre-commit names files one by one,
# and a named file is always checked.
find "$pc" -type d -name mistakes -prune -exec rm -rf {} +
recipe pre-commit | local_url > "$pc/.pre-commit-config.yaml"
python3 -m venv "$scratch/pc-venv"
{
  "$scratch/pc-venv/bin/pip" install -q pre-commit &&
    git -C "$pc" init -q && git -C "$pc" add -A &&
    (cd "$pc" && "$scratch/pc-venv/bin/pre-commit" run --all-files)
} > "$log" 2>&1 && rc=0 || rc=$?
if [ "$rc" = 0 ] && grep -q '^evalyaml check\.*Passed' "$log"; then
  pass "pre-commit: the hook from the config passes on clean eval files"
else
  fail "pre-commit on clean files (exit $rc)" "$log"
fi
# A dangling rubric_ref (an error even in soft mode) staged: the hook fails and says why.
cp "$repo/examples/mistakes/datasets/EY301-dangling-rubric-ref.yaml" "$pc/datasets/"
git -C "$pc" add datasets/EY301-dangling-rubric-ref.yaml
(cd "$pc" && "$scratch/pc-venv/bin/pre-commit" run) > "$log" 2>&1 && rc=0 || rc=$?
if [ "$rc" = 1 ] && grep -q 'EY301' "$log"; then
  pass "pre-commit: a staged dangling rubric_ref fails the hook with EY301"
else
  fail "pre-commit with a staged error (exit $rc)" "$log"
fi
(cd "$pc" && "$scratch/pc-venv/bin/pre-commit" try-repo "$origin" evalyaml-check --ref main --all-files) > "$log" 2>&1 && rc=0 || rc=$?
if [ "$rc" = 1 ] && grep -q 'EY301' "$log" && grep -q 'evalyaml check\.*Failed' "$log"; then
  pass "pre-commit try-repo: the hook, tried from the clone, fails on the same file"
else
  fail "pre-commit try-repo (exit $rc)" "$log"
fi

# 4. pre-commit installed as the repository's git hook (`pre-commit install`): real commits.
git -C "$pc" rm -q --cached datasets/EY301-dangling-rubric-ref.yaml
rm "$pc/datasets/EY301-dangling-rubric-ref.yaml"
gitc() { git -C "$pc" -c user.name=ci -c user.email=ci@example.invalid "$@"; }
gitc commit -q --no-verify -m "eval files" && (cd "$pc" && "$scratch/pc-venv/bin/pre-commit" install) > "$log" 2>&1
# A samples file edited after its aggregate's checksum was written (only the samples staged):
# the aggregate's EY721 refuses the commit.
samples=eee/data/arith-demo/acme/tiny-model/3b1f6c2e-7a4d-4e8b-9c5f-2d1e0a9b8c7d_samples.jsonl
echo >> "$pc/$samples"
gitc add "$samples"
(gitc commit -m "edit the samples") > "$log" 2>&1 && rc=0 || rc=$?
if [ "$rc" != 0 ] && grep -q "^eee/data/arith-demo/acme/tiny-model/3b1f6c2e-7a4d-4e8b-9c5f-2d1e0a9b8c7d.json:55:17: error EY721 " "$log" &&
  [ "$(git -C "$pc" rev-list --count HEAD)" = 1 ]; then
  pass "pre-commit commit: a staged samples edit that stales the EEE checksum is refused (EY721 on the aggregate)"
else
  fail "pre-commit commit with a stale checksum (exit $rc)" "$log"
fi
gitc reset -q && gitc checkout -q -- "$samples"
# A rubric's version bumped (only the rubric staged): the dataset's references no longer resolve.
sed -i 's/^version: "1.0.0"/version: "2.0.0"/' "$pc/rubrics/order_status.yaml"
gitc add rubrics/order_status.yaml
(gitc commit -m "bump the rubric") > "$log" 2>&1 && rc=0 || rc=$?
if [ "$rc" != 0 ] && grep -q '^datasets/support_faq.yaml:42:17: error EY302 no version of rubric/order_status matches @1.0.0; available: 2.0.0$' "$log" &&
  [ "$(git -C "$pc" rev-list --count HEAD)" = 1 ]; then
  pass "pre-commit commit: a rubric version bump is refused with the dataset's dangling rubric_ref (EY302)"
else
  fail "pre-commit commit with a rubric bump (exit $rc)" "$log"
fi
gitc reset -q && gitc checkout -q -- rubrics/order_status.yaml

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
