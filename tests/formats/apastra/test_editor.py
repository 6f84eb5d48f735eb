"""Editor features on Apastra files through the pure `ide` layer: completion of schema keys and
enum values (the quick eval's cases walked into the case schema by `$id`), ids where a file
names another, assertion types; hover from the schemas and from the referenced file."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from evalyaml.core.kinds import Kind
from evalyaml.formats.apastra.kinds import CANARY, QUICK_EVAL, SUITE
from evalyaml.ide.completion import Request, complete, context_for
from evalyaml.ide.hover import hover
from evalyaml.ide.source import Text
from evalyaml.syntax.text import Position
from evalyaml.workspace.index import Workspace

FILES = {
    "promptops/evaluators/exact.yaml": "id: exact-match\ntype: deterministic\n"
                                       "metrics: [exact_match_score]\n",
    "promptops/evaluators/recall.yaml": "id: keyword-recall\ntype: judge\n"
                                        "metrics: [keyword_recall]\n",
    "promptops/prompts/summarize.yaml": "id: summarize\nvariables: {text: {type: string}}\n"
                                        "template: \"{{text}}\"\n",
    "promptops/datasets/faq.jsonl": '{"case_id": "a", "inputs": {"text": "x"}}\n',
    "promptops/suites/s.yaml": "id: s\nname: S\ndatasets: [faq]\nevaluators: [exact-match]\n"
                               "model_matrix: [default]\n",
}


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    (tmp_path / "evalyaml.toml").write_text("", "utf-8")
    for relative, text in FILES.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    found = Workspace([tmp_path])
    found.index_all()
    return found


def _labels(workspace: Workspace, relative: str, text: str, kind: Kind) -> list[str]:
    text = textwrap.dedent(text)
    line, column = _cursor(text)
    source = Text(text.replace("$0", ""), workspace.roots[0].path / relative)
    req = Request(source, kind, line, workspace, False, list)
    ctx = context_for(req, column)
    assert ctx is not None
    return [c.label for c in complete(req, ctx)]


def _cursor(text: str) -> tuple[int, int]:
    for number, line in enumerate(text.split("\n")):
        if "$0" in line:
            return number, line.index("$0")
    raise AssertionError("no $0")


def test_suite_keys_and_enum_values(workspace: Workspace) -> None:
    labels = _labels(workspace, "promptops/suites/n.yaml", "id: n\nti$0\n", SUITE)
    assert {"tier", "trials", "thresholds", "tags", "prompt"} <= set(labels)
    assert _labels(workspace, "promptops/suites/n.yaml", "tier: $0\n", SUITE) == [
        "smoke", "regression", "full", "release-candidate"]


def test_ids_where_a_suite_names_datasets_evaluators_and_its_prompt(workspace: Workspace
                                                                     ) -> None:
    assert _labels(workspace, "promptops/suites/n.yaml", "evaluators:\n  - $0\n", SUITE) == [
        "exact-match", "keyword-recall"]
    assert _labels(workspace, "promptops/suites/n.yaml", "datasets:\n  - $0\n", SUITE) == [
        "faq"]
    assert _labels(workspace, "promptops/suites/n.yaml", "prompt: $0\n", SUITE) == [
        "summarize"]
    assert _labels(workspace, "promptops/canaries/c.yaml", "suite_ref: $0\n", CANARY) == ["s"]


def test_quick_eval_cases_follow_the_case_schema_by_id(workspace: Workspace) -> None:
    text = "id: q\nprompt: p\ncases:\n  - case_id: a\n    $0\n"
    labels = _labels(workspace, "promptops/evals/q.yaml", text, QUICK_EVAL)
    assert {"inputs", "assert", "expected_outputs", "metadata"} <= set(labels)
    text = "cases:\n  - case_id: a\n    assert:\n      - type: $0\n"
    labels = _labels(workspace, "promptops/evals/q.yaml", text, QUICK_EVAL)
    assert labels[:3] == ["equals", "contains", "icontains"]
    assert "not-llm-rubric" in labels and len(labels) == 32


def test_hover_on_a_suites_evaluator_id_shows_its_metrics(workspace: Workspace) -> None:
    path = workspace.roots[0].path / "promptops/suites/s.yaml"
    text = path.read_text("utf-8")
    info = hover(Text(text, path), SUITE, Position(3, 16), workspace=workspace, today=None)
    assert info is not None
    assert "deterministic evaluator · metrics: `exact_match_score`" in info.markdown
    assert (info.span.start.character, info.span.end.character) == (13, 24)


def test_hover_on_a_key_reads_the_schema_description(workspace: Workspace) -> None:
    path = workspace.roots[0].path / "promptops/suites/s.yaml"
    text = "id: s\ntier: smoke\n"
    info = hover(Text(text, path), SUITE, Position(1, 1), workspace=workspace, today=None)
    assert info is not None and info.markdown.startswith("**tier**")


def test_a_file_name_reference_navigates_but_renames_nothing(workspace: Workspace) -> None:
    """`runtime/canary.py` opens `promptops/suites/<suite_ref>.yaml`: a canary naming the
    suite's file resolves (no EY301) and goes to the suite's id, but renaming it would rename
    a file, so no rename is offered; the suite's own id still renames, and only its id."""
    from evalyaml.ide.navigation import definition, rename_edits, rename_target
    root = workspace.roots[0].path
    suite = root / "promptops/suites/nightly.yaml"
    suite.write_text("id: nightly-v1\nname: N\ndatasets: [faq]\nevaluators: [exact-match]\n"
                     "model_matrix: [default]\n", "utf-8")
    canary = root / "promptops/canaries/c.yaml"
    canary.parent.mkdir(parents=True, exist_ok=True)
    canary.write_text('id: c\nschedule: "0 6 * * *"\nsuite_ref: nightly\nname: C\n'
                      "datasets: [faq]\nevaluators: [exact]\nmodel_matrix: [default]\n", "utf-8")
    workspace.index_all()
    assert [f.code for f in workspace.findings(canary)] == []
    assert [f.code for f in workspace.findings(suite)] == []  # no duplicate of its own name
    text = Text(canary.read_text("utf-8"), canary)
    analysis = workspace.analysis(canary)
    at = Position(2, 13)  # in `nightly`
    targets = definition(workspace, text, at)
    assert [(t.path, t.span.start) for t in targets] == [(suite, Position(0, 4))]
    assert rename_target(workspace, text, analysis, at) is None
    stext = Text(suite.read_text("utf-8"), suite)
    target = rename_target(workspace, stext, workspace.analysis(suite), Position(0, 5))
    assert target is not None and target.id == "nightly-v1"
    assert list(rename_edits(workspace, target, "nightly-v2")) == [suite]


def _json_labels(workspace: Workspace, relative: str, text: str, kind: Kind) -> list[str]:
    from evalyaml.ide.json_features import complete as complete_json
    line, column = _cursor(text)
    source = Text(text.replace("$0", ""), workspace.roots[0].path / relative)
    return [c.label for c in complete_json(source, kind, Position(line, column), snippets=False,
                                           workspace=workspace)]


def test_keys_enum_values_ids_and_assertion_types_in_json_and_jsonl(workspace: Workspace
                                                                      ) -> None:
    from evalyaml.formats.apastra.kinds import CASES, EVALUATOR
    labels = _json_labels(workspace, "promptops/evaluators/n.json", '{"id": "n", "$0"}',
                          EVALUATOR)
    assert {"type", "metrics", "config", "metric_versions", "digest"} <= set(labels)
    assert _json_labels(workspace, "promptops/evaluators/n.json", '{"type": "$0"}',
                        EVALUATOR) == ["deterministic", "schema", "judge", "human"]
    assert _json_labels(workspace, "promptops/suites/n.json", '{"evaluators": ["$0"]}',
                        SUITE) == ["exact-match", "keyword-recall"]
    assert _json_labels(workspace, "promptops/suites/n.json", '{"prompt": $0}',
                        SUITE) == ["summarize"]
    rows = '{"case_id": "a", "inputs": {}}\n{"case_id": "b", "$0"}\n'
    labels = _json_labels(workspace, "promptops/datasets/faq.jsonl", rows, CASES)
    assert {"inputs", "assert", "expected_outputs", "metadata"} <= set(labels)
    rows = '{"case_id": "a", "inputs": {}, "assert": [{"type": "$0"}]}\n'
    labels = _json_labels(workspace, "promptops/datasets/faq.jsonl", rows, CASES)
    assert labels[:3] == ["equals", "contains", "icontains"] and len(labels) == 32
