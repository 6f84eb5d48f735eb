"""The GitHub Action (action.yml): its shape, and its shell steps run for real on examples/.

GitHub cannot run here; tests/cli/action_runner.py plays its runner for the `run:` steps (the
install step is left to tests/editors/ci/run.sh, which needs the package index: here the test's
own evalyaml stands on PATH where the install step would put its venv).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from tests.cli.action_runner import ACTION, INSTALL_STEP, load_action, run_action

REPO = Path(__file__).resolve().parents[2]
TYPO = REPO / "examples" / "mistakes" / "datasets" / "EY205-typo-expecteed_facts.yaml"
ANNOTATION = ("::error file=datasets/EY205-typo-expecteed_facts.yaml,line=9,col=5,endLine=9,"
              "endColumn=20,title=EY205::unknown key 'expecteed_facts' in case 'reset_password'; "
              "did you mean 'expected_facts'? (an unknown key is ignored, so its value has no "
              "effect)")


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of examples/ as the workflow's checkout, this test's evalyaml first on PATH."""
    work = tmp_path / "checkout"
    shutil.copytree(REPO / "examples", work)
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "evalyaml").exists(), "the test venv has no evalyaml executable"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return work


def test_action_is_a_composite_that_installs_from_its_checkout_and_uploads_sarif() -> None:
    spec = load_action()
    assert spec["runs"]["using"] == "composite"
    steps = spec["runs"]["steps"]
    assert [s["name"] for s in steps] == [
        INSTALL_STEP, "Check (SARIF)", "Annotations", "Upload to code scanning", "Fail on errors"]
    assert '"$GITHUB_ACTION_PATH"' in steps[0]["run"]  # from the action's own checkout
    assert '"$GITHUB_PATH"' in steps[0]["run"]
    for step in steps:
        if "run" in step:
            assert step["shell"] == "bash"
            # Inputs reach a script through env: only (an input spliced in could run commands).
            assert "${{" not in step["run"], step["name"]
    upload = steps[3]
    assert upload["uses"] == "github/codeql-action/upload-sarif@v3"
    assert upload["with"] == {"sarif_file": "${{ inputs.sarif-file }}", "category": "evalyaml"}
    assert upload["if"] == "${{ inputs.upload-sarif == 'true' }}"
    assert "--format sarif" in steps[1]["run"] and steps[1]["id"] == "check"
    assert "--format github" in steps[2]["run"]
    assert {k: v.get("default") for k, v in spec["inputs"].items()} == {
        "paths": ".", "args": "", "sarif-file": "evalyaml.sarif", "upload-sarif": "true",
        "annotations": "true", "fail-on-error": "true"}
    assert all(v["description"] for v in spec["inputs"].values())
    assert spec["outputs"]["exit-code"]["value"] == "${{ steps.check.outputs.exit-code }}"


def test_clean_examples_pass_with_an_empty_sarif(checkout: Path) -> None:
    job = run_action(checkout, skip_install=True)
    assert [(s.name, s.status) for s in job.steps] == [
        (INSTALL_STEP, None), ("Check (SARIF)", 0), ("Annotations", 0),
        ("Upload to code scanning", None), ("Fail on errors", 0)]
    assert job.outputs == {"exit-code": "0", "sarif-file": "evalyaml.sarif"}
    sarif = json.loads((checkout / "evalyaml.sarif").read_text("utf-8"))
    assert sarif["version"] == "2.1.0"
    assert [r for run in sarif["runs"] for r in run["results"]] == []
    assert "::" not in job.step("Annotations").output


def test_a_typo_under_strict_fails_the_job_with_sarif_and_an_annotation(checkout: Path) -> None:
    shutil.copy(TYPO, checkout / "datasets")
    job = run_action(checkout, {"args": "--strict"}, skip_install=True)
    assert [(s.name, s.status) for s in job.steps] == [
        (INSTALL_STEP, None), ("Check (SARIF)", 0), ("Annotations", 0),
        ("Upload to code scanning", None), ("Fail on errors", 1)]
    assert job.status == 1 and job.outputs["exit-code"] == "1"
    assert job.step("Annotations").output.splitlines() == [ANNOTATION]
    assert job.step("Fail on errors").output == "evalyaml check found errors (exit 1)\n"
    sarif = json.loads((checkout / "evalyaml.sarif").read_text("utf-8"))
    (result,) = [r for run in sarif["runs"] for r in run["results"]]
    location = result["locations"][0]["physicalLocation"]
    assert (result["ruleId"], result["level"], location["artifactLocation"]["uri"],
            location["region"]) == (
        "EY205", "error", "datasets/EY205-typo-expecteed_facts.yaml",
        {"startLine": 9, "startColumn": 5, "endLine": 9, "endColumn": 20})


def test_inputs_turn_off_annotations_upload_and_failure(checkout: Path) -> None:
    shutil.copy(TYPO, checkout / "datasets")
    job = run_action(checkout, {"args": "--strict", "annotations": "false",
                                "upload-sarif": "false", "fail-on-error": "false",
                                "paths": "datasets rubrics", "sarif-file": "out/e.sarif"},
                     skip_install=True)
    assert [(s.name, s.status, s.output) for s in job.steps[2:]] == [
        ("Annotations", 0, ""), ("Upload to code scanning", None, "skipped: if is false"),
        ("Fail on errors", 0, "")]
    assert job.outputs == {"exit-code": "1", "sarif-file": "out/e.sarif"}
    sarif = json.loads((checkout / "out" / "e.sarif").read_text("utf-8"))
    assert [r["ruleId"] for run in sarif["runs"] for r in run["results"]] == ["EY205"]


def test_a_path_with_a_command_in_it_is_a_path_not_a_command(checkout: Path) -> None:
    job = run_action(checkout, {"paths": "datasets;touch${IFS}pwned $(touch pwned2)"},
                     skip_install=True)
    assert not (checkout / "pwned").exists() and not (checkout / "pwned2").exists()
    assert job.step("Check (SARIF)").status == 0
    assert "skipped datasets;touch${IFS}pwned: no such file or directory" in \
        job.step("Check (SARIF)").output
    assert ACTION.exists()


def test_the_example_workflow_uses_the_action_with_inputs_it_declares() -> None:
    from ruamel.yaml import YAML

    workflow = YAML(typ="safe").load((REPO / "docs/examples/evalyaml-workflow.yml").read_text())
    job = workflow["jobs"]["evalyaml"]
    assert job["permissions"] == {"contents": "read", "security-events": "write"}
    (step,) = [s for s in job["steps"] if s.get("uses", "").startswith("evalyaml/evalyaml@")]
    assert step["uses"] == "evalyaml/evalyaml@COMMIT"  # no tag exists: a commit, said so
    assert set(step["with"]) <= set(load_action()["inputs"])
    # The action needs a python3 on PATH for its venv, and the checkout for the files.
    uses = [s.get("uses", "") for s in job["steps"]]
    assert uses.index("actions/checkout@v4") < uses.index(step["uses"])
    assert uses.index("actions/setup-python@v5") < uses.index(step["uses"])
