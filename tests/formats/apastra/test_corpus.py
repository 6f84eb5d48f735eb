"""Apastra's own repository (`../shared/corpus/apastra/`, BintzGavin/apastra at 17667b57): every
finding evalyaml makes there, each with the upstream rule that confirms it, and nothing else;
no Apastra claim anywhere else in the corpus.

`canaries/test-canary.yaml` names `suite_ref: test-suite` while the suite's id is
`test-suite-v1`: not a dangling reference, because `runtime/canary.py` opens
`promptops/suites/<suite_ref>.yaml`, and `suites/test-suite.yaml` is there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evalyaml.formats.apastra import FORMAT
from evalyaml.workspace.index import Workspace

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus"
APASTRA = CORPUS / "apastra"

# (file, line:col (1-based), code, the start of the message) -> the upstream rule.
EXPECTED: dict[tuple[str, str, str, str], str] = {
    ("promptops/canaries/test-canary.yaml", "1:1", "EY800",
     "the document misses the required keys 'name', 'datasets', 'evaluators', 'model_matrix'"):
        "canary-suite.schema.json `required` (python-jsonschema Draft7Validator and ajv "
        "agree: one of the three files Apastra's own schemas reject)",
    ("promptops/prompts/my-prompt-package/package.yaml", "5:1", "EY800",
     "'version' needs 'public_interface' beside it in the document"):
        "prompt-package.schema.json `dependentRequired` (the second file its schemas reject)",
    ("promptops/prompts/my-prompt-package/package.yaml", "2:9", "EY803",
     "'digest' is the sha256 of nothing"):
        "digest convention: sha256 of the canonical content; e3b0c442... is sha256('')",
    ("promptops/runs/8dd64b79-a419-47e0-ba5f-219643c93cc7/run_request.json", "1:117",
     "EY800", "prompt_digest 'sha256:123' does not match"):
        "run-request.schema.json `pattern` ^sha256:[a-f0-9]{64}$ (the third rejected file)",
    ("promptops/runs/8dd64b79-a419-47e0-ba5f-219643c93cc7/run_request.json", "1:149",
     "EY800", "dataset_digest 'sha256:456' does not match"):
        "run-request.schema.json `pattern`",
    ("promptops/runs/8dd64b79-a419-47e0-ba5f-219643c93cc7/run_request.json", "1:183",
     "EY800", "evaluator_digest 'sha256:789' does not match"):
        "run-request.schema.json `pattern`",
    ("promptops/suites/test-suite.yaml", "12:3", "EY801",
     "Apastra ignores 'cost' in budgets: suite.schema.json defines 'cost_budget'"):
        "suite.schema.json `budgets.cost_budget` (docs: 'Supports cost_budget (dollars) and "
        "time (seconds)'); `cost` is read by nothing",
    ("derived-index/baselines/test-suite-test-baseline.json", "3:17", "EY804",
     "malformed digest 'sha256:dummy'"):
        "digest convention (schemas/digest-convention.md): every digest field is "
        "'sha256:' + 64 lowercase hex",
}


def _actual() -> list[tuple[str, str, str, str]]:
    workspace = Workspace([APASTRA])
    workspace.index_all()
    out = []
    for path in sorted(p for p in APASTRA.rglob("*") if p.is_file()):
        for finding in workspace.findings(path):
            start = finding.span.start
            out.append((path.relative_to(APASTRA).as_posix(),
                        f"{start.line + 1}:{start.character + 1}", finding.code,
                        finding.message))
    return out


@pytest.mark.skipif(not APASTRA.is_dir(), reason="the shared corpus is not next to this tree")
def test_every_finding_on_apastra_is_one_its_rules_confirm() -> None:
    actual = _actual()
    matched = {key for key in EXPECTED for a in actual
               if a[:3] == key[:3] and a[3].startswith(key[3])}
    unexpected = [a for a in actual
                  if not any(a[:3] == k[:3] and a[3].startswith(k[3]) for k in EXPECTED)]
    assert unexpected == []
    assert matched == set(EXPECTED)
    assert len(actual) == len(EXPECTED)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not next to this tree")
def test_no_claim_outside_the_apastra_folder() -> None:
    claimed = []
    for path in sorted(p for p in CORPUS.rglob("*") if p.is_file()):
        rel = path.relative_to(CORPUS).as_posix()
        if rel.startswith("apastra/") or path.name.startswith("_"):
            continue
        text = path.read_bytes().decode("utf-8-sig", errors="replace")
        if FORMAT.claim(text, str(path), str(CORPUS)) is not None or \
                FORMAT.claim(text, rel, None) is not None:
            claimed.append(rel)
    assert claimed == []


@pytest.mark.skipif(not APASTRA.is_dir(), reason="the shared corpus is not next to this tree")
def test_the_dataset_and_self_digests_of_apastra_match() -> None:
    """The manifest's digest over its JSONL, and the suite's and evaluator's self-digests, are
    recomputed and agree (a changed recipe would report them stale)."""
    actual = _actual()
    assert not [a for a in actual if a[2] in ("EY802", "EY805", "EY806")]
    workspace = Workspace([APASTRA])
    workspace.index_all()
    manifest = workspace.analysis(APASTRA / "promptops/datasets/test-dataset/dataset-manifest.yaml")
    assert manifest is not None and "digest" in manifest.facts
