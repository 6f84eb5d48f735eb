#!/usr/bin/env python3
"""Run the `run:` steps of action.yml as GitHub's runner would, outside GitHub.

GitHub itself cannot run here, so this plays the part of its runner for a composite action, and
no more of it than action.yml uses: each step's `env:` with `${{ inputs.NAME }}` and
`${{ steps.ID.outputs.NAME }}` substituted (any other expression is an error, so action.yml
cannot quietly start depending on one this does not evaluate), GitHub's shell
(`bash --noprofile --norc -eo pipefail {0}`),
`$GITHUB_OUTPUT` read back into the step's outputs and `$GITHUB_PATH` prepended to `PATH` for
the steps after it, `$GITHUB_ACTION_PATH` the repository, `$RUNNER_TEMP` a scratch folder. A
`uses:` step (the SARIF upload) cannot run outside GitHub and is skipped, its `if:` evaluated
and reported. A failing step stops the job, as on GitHub.

Used by tests/cli/test_action.py (the steps after the install, with the test's evalyaml on
PATH) and by tests/editors/ci/run.sh (every step, the install from the checkout included):
    action_runner.py WORKSPACE [--input NAME=VALUE ...] [--skip-install] [--action PATH]
prints one `step NAME: exit N` line a step and exits with the job's status.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
ACTION = REPO / "action.yml"
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
INSTALL_STEP = "Install evalyaml from the action's checkout"


def load_action(path: Path = ACTION) -> dict[str, Any]:
    text = path.read_text("utf-8")
    try:
        from ruamel.yaml import YAML

        loaded: dict[str, Any] = YAML(typ="safe").load(text)
    except ImportError:  # run.sh's python may have PyYAML instead
        import yaml

        loaded = yaml.safe_load(text)
    return loaded


@dataclass
class StepRun:
    name: str
    status: int | None  # None: skipped (a `uses:` step or a false `if:`)
    output: str = ""
    outputs: dict[str, str] = field(default_factory=dict)


@dataclass
class JobRun:
    steps: list[StepRun]
    outputs: dict[str, str]

    @property
    def status(self) -> int:
        return next((s.status for s in self.steps if s.status), 0)

    def step(self, name: str) -> StepRun:
        return next(s for s in self.steps if s.name == name)


def _evaluate(expr: str, inputs: dict[str, str], steps: dict[str, dict[str, str]]) -> str:
    m = re.fullmatch(r"inputs\.([\w-]+)", expr)
    if m:
        return inputs[m.group(1)]
    m = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
    if m:
        return steps.get(m.group(1), {}).get(m.group(2), "")
    m = re.fullmatch(r"inputs\.([\w-]+) == '([^']*)'", expr)
    if m:
        return "true" if inputs[m.group(1)] == m.group(2) else "false"
    raise ValueError(f"action.yml uses an expression this runner does not evaluate: {expr}")


def _substitute(value: str, inputs: dict[str, str], steps: dict[str, dict[str, str]]) -> str:
    return EXPRESSION.sub(lambda m: _evaluate(m.group(1), inputs, steps), str(value))


def _read_pairs(path: Path) -> dict[str, str]:
    pairs = {}
    for line in path.read_text("utf-8").splitlines():
        key, sep, value = line.partition("=")
        if sep:
            pairs[key] = value
    return pairs


def run_action(workspace: Path, given: dict[str, str] | None = None, *,
               skip_install: bool = False, action: Path = ACTION) -> JobRun:
    """Every step of the composite action, in order, in `workspace` (the checkout)."""
    spec = load_action(action)
    inputs = {name: str(decl.get("default", "")) for name, decl in spec["inputs"].items()}
    for name, value in (given or {}).items():
        if name not in inputs:
            raise KeyError(f"action.yml has no input {name!r}")
        inputs[name] = value
    steps: dict[str, dict[str, str]] = {}
    runs: list[StepRun] = []
    extra_path: list[str] = []
    with tempfile.TemporaryDirectory(prefix="evalyaml-action-") as scratch:
        temp = Path(scratch)
        for n, step in enumerate(spec["runs"]["steps"]):
            name = step.get("name", f"step {n + 1}")
            condition = step.get("if")
            if condition is not None and _substitute(condition, inputs, steps) != "true":
                runs.append(StepRun(name, None, "skipped: if is false"))
                continue
            if "uses" in step or (skip_install and name == INSTALL_STEP):
                runs.append(StepRun(name, None, f"skipped: {step.get('uses', 'install')}"))
                continue
            output_file, path_file = temp / f"output.{n}", temp / f"path.{n}"
            output_file.touch()
            path_file.touch()
            env = dict(os.environ)
            env.update({k: _substitute(v, inputs, steps) for k, v in step.get("env", {}).items()})
            env.update(GITHUB_OUTPUT=str(output_file), GITHUB_PATH=str(path_file),
                       GITHUB_ACTION_PATH=str(action.parent), GITHUB_WORKSPACE=str(workspace),
                       RUNNER_TEMP=str(temp),
                       PATH=os.pathsep.join([*reversed(extra_path), env.get("PATH", "")]))
            assert step["shell"] == "bash", step
            script = _substitute(step["run"], inputs, steps)
            shell = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script]
            proc = subprocess.run(shell, cwd=workspace, env=env, capture_output=True,
                                  text=True, check=False, timeout=600)
            outputs = _read_pairs(output_file)
            if "id" in step:
                steps[step["id"]] = outputs
            extra_path += [line for line in path_file.read_text("utf-8").splitlines() if line]
            runs.append(StepRun(name, proc.returncode, proc.stdout + proc.stderr, outputs))
            if proc.returncode != 0:
                break
    declared = {k: _substitute(v["value"], inputs, steps) for k, v in spec["outputs"].items()}
    return JobRun(runs, declared)


def main(argv: list[str]) -> int:
    args = list(argv[1:])
    skip_install = "--skip-install" in args
    args = [a for a in args if a != "--skip-install"]
    action = ACTION
    if "--action" in args:
        i = args.index("--action")
        action = Path(args[i + 1]).resolve()
        del args[i : i + 2]
    given: dict[str, str] = {}
    while "--input" in args:
        i = args.index("--input")
        name, _, value = args[i + 1].partition("=")
        given[name] = value
        del args[i : i + 2]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    job = run_action(Path(args[0]).resolve(), given, skip_install=skip_install,
                     action=action)
    for step in job.steps:
        status = "skipped" if step.status is None else f"exit {step.status}"
        print(f"--- step {step.name}: {status}")
        sys.stdout.write(step.output if step.output.endswith("\n") or not step.output
                         else step.output + "\n")
    print(f"job: exit {job.status}; outputs {job.outputs}")
    return job.status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
