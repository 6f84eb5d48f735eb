"""Every pair of files the issue lists, navigable by id through the `ide` layer: suites to
datasets, evaluators and their prompt; quick evals to prompts; canaries to suites; consumption
manifests to prompts; regression policies to baselines. At each reference: go to definition
lands on the id, find references from the definition lists the reference, rename edits both.
A reference by file name (what `canary.py` and `mcp_server.py` also accept) is found from its
target too."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalyaml.ide.navigation import definition, references, rename_edits, rename_target
from evalyaml.ide.source import Text
from evalyaml.syntax.text import Position
from evalyaml.workspace.index import Workspace

FILES = {
    "promptops/suites/smoke.yaml": "id: smoke-v1\nname: S\nprompt: summarize-v1\n"
                                   "datasets: [faq]\nevaluators: [exact-v1]\n"
                                   "model_matrix: [default]\n",
    "promptops/evaluators/exact.yaml": "id: exact-v1\ntype: deterministic\nmetrics: [em]\n",
    "promptops/prompts/summarize.yaml": "id: summarize-v1\nvariables: {text: {type: string}}\n"
                                        "template: \"{{text}}\"\n",
    "promptops/datasets/faq/dataset-manifest.yaml": "id: faq\nversion: \"1\"\n"
                                                    "schema_version: \"1\"\ndigest: x\n",
    "promptops/datasets/faq/dataset.jsonl": '{"case_id": "a", "inputs": {"text": "t"}}\n',
    "promptops/evals/quick.yaml": "id: quick\nprompt: summarize-v1\ncases: []\n",
    "promptops/canaries/nightly.yaml": "id: n\nschedule: x\nsuite_ref: smoke-v1\nname: N\n"
                                       "datasets: [faq]\nevaluators: [exact-v1]\n"
                                       "model_matrix: [default]\n",
    "promptops/canaries/by-name.yaml": "id: b\nschedule: x\nsuite_ref: smoke\nname: N\n"
                                       "datasets: [faq]\nevaluators: [exact-v1]\n"
                                       "model_matrix: [default]\n",
    "promptops/manifests/app.yaml": "version: \"1\"\nprompts:\n  main:\n    id: summarize-v1\n",
    "promptops/policies/regression.yaml": "baseline: nightly-base\nrules: []\n",
    "derived-index/baselines/b.json": '{"baseline_id": "nightly-base", "run_digest": "sha256:'
                                      + "0" * 64 + '", "created_at": "2026-01-01T00:00:00Z"}',
}

# (file with the reference, the id as written there, the file defining it, its id's line)
PAIRS = [
    ("promptops/suites/smoke.yaml", "faq", "promptops/datasets/faq/dataset-manifest.yaml", 0),
    ("promptops/suites/smoke.yaml", "exact-v1", "promptops/evaluators/exact.yaml", 0),
    ("promptops/suites/smoke.yaml", "summarize-v1", "promptops/prompts/summarize.yaml", 0),
    ("promptops/evals/quick.yaml", "summarize-v1", "promptops/prompts/summarize.yaml", 0),
    ("promptops/canaries/nightly.yaml", "smoke-v1", "promptops/suites/smoke.yaml", 0),
    ("promptops/manifests/app.yaml", "summarize-v1", "promptops/prompts/summarize.yaml", 0),
    ("promptops/policies/regression.yaml", "nightly-base", "derived-index/baselines/b.json", 0),
]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Workspace:
    root = tmp_path_factory.mktemp("nav")
    (root / "evalyaml.toml").write_text("", "utf-8")
    for relative, text in FILES.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    found = Workspace([root])
    found.index_all()
    return found


def _at(path: Path, needle: str) -> tuple[Text, Position]:
    text = path.read_text("utf-8")
    lines = text.split("\n")
    line = next(i for i, x in enumerate(lines) if needle in x and not x.startswith("id:"))
    return Text(text, path), Position(line, lines[line].index(needle) + 1)


@pytest.mark.parametrize(("holder", "name", "target", "line"), PAIRS,
                         ids=[f"{p[0].split('/')[1]}-{p[2].split('/')[1]}" for p in PAIRS])
def test_definition_references_and_rename(workspace: Workspace, holder: str, name: str,
                                          target: str, line: int) -> None:
    root = workspace.roots[0].path
    source, at = _at(root / holder, name)
    found = definition(workspace, source, at)
    assert len(found) == 1 and found[0].path == root / target
    assert found[0].span.start.line == line
    target_text = Text((root / target).read_text("utf-8"), root / target)
    listed = references(workspace, target_text, workspace.analysis(root / target),
                        found[0].span.start, include_declaration=False)
    assert (root / holder) in {t.path for t in listed}
    renamed = rename_target(workspace, source, workspace.analysis(root / holder), at)
    assert renamed is not None and renamed.id == name
    edits = rename_edits(workspace, renamed, "renamed")
    assert {root / holder, root / target} <= set(edits)
    assert [f.code for f in workspace.findings(root / holder)] == []


def test_a_reference_by_file_name_is_listed_from_the_definition(workspace: Workspace) -> None:
    root = workspace.roots[0].path
    suite = root / "promptops/suites/smoke.yaml"
    listed = references(workspace, Text(suite.read_text("utf-8"), suite),
                        workspace.analysis(suite), Position(0, 5), include_declaration=True)
    assert {t.path for t in listed} == {suite, root / "promptops/canaries/nightly.yaml",
                                        root / "promptops/canaries/by-name.yaml"}
