"""Planted mistakes in Apastra's own files: the way a held-out workspace is written.

The base is Apastra's repository at 17667b57 (`../shared/corpus/apastra/`), whose findings are
all confirmed upstream (`test_corpus.py`). Each case below changes one file in one place, the
way a person gets it wrong (a typo in an enum, an id, a key; a stale digest; a spaced
placeholder; a malformed pin...), and the test asserts that the new findings are exactly one, of
the expected code, on the changed text. The mutation names the upstream rule it breaks.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from evalyaml.workspace.index import Workspace

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "apastra"

# (file, text to replace, replacement, code, the replaced text's part the finding is on)
PLANTED: list[tuple[str, str, str, str, str]] = [
    # suite.schema.json `tier` enum
    ("promptops/suites/test-suite.yaml", "trials: 1", "tier: regresion", "EY800", "regresion"),
    # suite.schema.json `trials` minimum 1
    ("promptops/suites/test-suite.yaml", "trials: 1", "trials: 0", "EY800", "0"),
    # suite.schema.json `model_matrix` required (misspelt: one finding, on the key)
    ("promptops/suites/test-suite.yaml", "model_matrix:", "model_matrx:", "EY800",
     "model_matrx"),
    # suites name evaluators by id (or file name): neither
    ("promptops/suites/test-suite.yaml", '"exact-match-v1"', '"exact-match-v2"', "EY301",
     '"exact-match-v2"'),
    # suites name datasets by id (or folder name): neither
    ("promptops/suites/test-suite.yaml", '"test-dataset"', '"test-datset"', "EY301",
     '"test-datset"'),
    # thresholds name metrics the suite's evaluators produce (evaluator `metrics`)
    ("promptops/suites/test-suite.yaml", "exact_match_score: 0.8", "exact_match: 0.8",
     "EY807", "exact_match"),
    # self-digest: the suite without its `digest` key, canonicalised
    ("promptops/suites/test-suite.yaml", "name: \"Test Suite\"", "name: \"Test suite\"",
     "EY802", '"sha256:90594be784fb9f01256f7c38240731474fb4482f0640c15357918f57073a6926"'),
    # evaluator.schema.json `type` enum
    ("promptops/evaluators/exact-match.yaml", "type: deterministic", "type: determinstic",
     "EY800", "determinstic"),
    # evaluator.schema.json `digest` pattern
    ("promptops/evaluators/exact-match.yaml", '"sha256:3ca874b2', '"sha256:3CA874B2', "EY800",
     '"sha256:3CA874B25ac298b51ebc377988bf4e7ec09b61b1534fe202f12796701e32fdb7"'),
    # evaluator.schema.json `metrics` minItems 1
    ("promptops/evaluators/prompt-optimization-review.yaml",
     "metrics:\n  - optimization_score\n", "metrics: []\n", "EY800", "[]"),
    # the manifest's digest is its JSONL's, lines canonicalised and joined with "\n"
    ("promptops/datasets/test-dataset/dataset.jsonl", '"hello world"', '"hello, world"',
     "EY802", '"sha256:933f58da406808ff8680692bfc05fb3b11a01817d80226d6a2daf870703b7907"'),
    # dataset-manifest.schema.json is closed
    ("promptops/datasets/test-dataset/dataset-manifest.yaml", 'version: "1.0.0"',
     'versoin: "1.0.0"', "EY800", "versoin"),
    # dataset-case.schema.json: the assertion type pattern
    ("promptops/datasets/test-dataset/dataset.jsonl", '"metadata": {"tags": ["basic"]}}\n{',
     '"assert": [{"type": "contians", "value": "hello"}], "metadata": {"tags": ["basic"]}}\n{',
     "EY800", '"contians"'),
    # dataset-case.schema.json is closed (`expected_outputs`)
    ("promptops/datasets/test-dataset/dataset.jsonl", '"expected_outputs": {"summary": "goo',
     '"expected_output": {"summary": "goo', "EY800", '"expected_output"'),
    # case_id unique per dataset (the validate skill)
    ("promptops/datasets/test-dataset/dataset.jsonl", '"case_id": "case-2"',
     '"case_id": "case-1"', "EY811", '"case-1"'),
    # the renderer replaces "{{text}}" literally
    ("promptops/prompts/summarize-v1.yaml", "{{text}}", "{{ text }}", "EY810", "{{ text }}"),
    # prompt-spec.schema.json requires `variables`
    ("promptops/prompts/summarize.json", '"variables"', '"variable"', "EY800", '"variable"'),
    # quick eval: a placeholder no case supplies stays in the prompt as written
    ("promptops/evals/my-eval.yaml", "{{text}}", "{{txt}}", "EY809", "{{txt}}"),
    # quick-eval.schema.json: assertion `value` required
    ("promptops/evals/my-eval.yaml", '        value: "fox"\n', "", "EY800",
     'type: "icontains"'),
    # consumption manifest: a pin by the resolver's grammar (semver needs X.Y.Z)
    ("promptops/manifests/consumption-example.yaml", "pin: v1.2.0", "pin: semver:^1.2",
     "EY812", "semver:^1.2"),
    # resolver/workspace.py validate_prompt_id
    ("promptops/manifests/consumption-example.yaml", "id: another-prompt",
     "id: ../another-prompt", "EY813", "../another-prompt"),
    # the workspace resolver finds the prompt by id/file name: neither
    ("promptops/manifests/consumption-example.yaml", "    id: another-prompt\n    pin: v1.2.0\n",
     "    id: sumarize-v1\n", "EY301", "sumarize-v1"),
    # canary.py opens promptops/suites/<suite_ref>.yaml: no such file, no such id
    ("promptops/canaries/test-canary.yaml", "suite_ref: test-suite", "suite_ref: test-suit",
     "EY301", "test-suit"),
    # regression-policy.schema.json `severity` enum
    ("promptops/policies/regression.yaml", "severity: blocker", "severity: blocking", "EY800",
     "blocking"),
    # the digest convention: 'sha256:' + 64 lowercase hex (the manifest's digest has no pattern)
    ("promptops/datasets/test-dataset/dataset-manifest.yaml", '"sha256:933f58da406808ff',
     '"sha256:933f58da406808f', "EY804",
     '"sha256:933f58da406808f8680692bfc05fb3b11a01817d80226d6a2daf870703b7907"'),
    # prompt-package.schema.json `digest` pattern
    ("promptops/prompts/my-prompt-package/package.yaml",
     "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "sha256:e3b0",
     "EY800", "sha256:e3b0"),
    # delivery-target.schema.json: the branch `type: npm` selects needs credentials_ref
    ("promptops/delivery/prod-target.yaml", "type: github_pr", "type: npm", "EY800",
     "type: npm"),
    # delivery-target.schema.json
    ("promptops/delivery/prod-target.yaml", "type: github_pr", "typ: github_pr", "EY800",
     "typ"),
    # harness-adapter.schema.json `capabilities` is a list
    ("promptops/harnesses/reference-adapter/adapter.yaml", 'capabilities: ["run_suite"]',
     'capabilities: "run_suite"', "EY800", '"run_suite"'),
    # baseline.schema.json requires `created_at`
    ("derived-index/baselines/test-suite-test-baseline.json", '"created_at"', '"created"',
     "EY800", '"created"'),
]


Key = tuple[str, str, int, int, int, int, str]


def _findings(root: Path) -> set[Key]:
    workspace = Workspace([root])
    workspace.index_all()
    out: set[Key] = set()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        for f in workspace.findings(path):
            span = f.span
            out.add((path.relative_to(root).as_posix(), f.code, span.start.line,
                     span.start.character, span.end.line, span.end.character, f.message))
    return out


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("apastra") / "ws"
    for folder in ("promptops", "derived-index"):
        shutil.copytree(CORPUS / folder, root / folder,
                        ignore=shutil.ignore_patterns("schemas", "*.md", "*.sh", "*.py"))
    return root


@pytest.fixture(scope="module")
def base_findings(base: Path) -> set[Key]:
    return _findings(base)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not next to this tree")
@pytest.mark.parametrize("planted", PLANTED, ids=[f"{p[3]}-{p[0].rsplit('/', 1)[-1]}-{i}"
                                                  for i, p in enumerate(PLANTED)])
def test_one_planted_mistake_one_finding_on_it(base: Path, base_findings: set[Key],
                                                tmp_path: Path,
                                                planted: tuple[str, str, str, str, str]) -> None:
    relative, old, new, code, marked = planted
    root = tmp_path / "ws"
    shutil.copytree(base, root)
    path = root / relative
    text = path.read_text("utf-8")
    assert text.count(old) == 1, "the mutation must name one place"
    path.write_text(text.replace(old, new), "utf-8")
    added = _findings(root) - base_findings
    if code != "EY802":  # a change to a digested file also makes its digest stale: true, known
        added = {a for a in added if a[1] != "EY802"}
    assert [a[1] for a in added] == [code], sorted(added)
    where, _, line, start, end_line, end, _ = next(iter(added))
    lines = (root / where).read_text("utf-8").split("\n")
    assert line == end_line
    assert lines[line][start:end] == marked
