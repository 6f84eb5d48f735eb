"""`evalyaml check` and `evalyaml graph` over workspaces, and the shipped examples."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from wshelpers import Tree, dataset, judge, rubric

from evalyaml.checker import check_paths, workspace_root
from evalyaml.cli import main
from evalyaml.core.codes import CODE_PATTERN

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TODAY = date(2026, 11, 21)
MISTAKES = sorted((EXAMPLES / "mistakes").rglob("*.yaml"))

# Exact ranges (0-based line, start character, end character) of the workspace findings.
EY3XX_RANGES = {
    "EY301-dangling-rubric-ref.yaml": (7, 16, 40),
    "EY302-no-matching-version.yaml": (7, 16, 37),
    "EY303-unpinned-ref.yaml": (8, 16, 33),
    "EY306-nested_composite.yaml": (9, 16, 44),
    "EY307-composite_cycle_a.yaml": (9, 16, 46),
    "EY307-composite_cycle_b.yaml": (8, 16, 46),
}


def _expected(path: Path) -> str:
    match = re.match(rf"# expect: ({CODE_PATTERN.pattern})",
                     path.read_text("utf-8").splitlines()[0])
    assert match, f"{path.name} has no '# expect:' first line"
    return match.group(1)


@pytest.fixture(scope="module")
def mistakes_result():  # type: ignore[no-untyped-def]
    return check_paths([EXAMPLES / "mistakes"], today=TODAY)


@pytest.mark.parametrize("path", MISTAKES, ids=lambda p: p.name)
def test_each_mistake_gives_exactly_its_finding(path: Path, mistakes_result) -> None:  # type: ignore[no-untyped-def]
    findings = [f for p, f in mistakes_result.all_findings() if p == path]
    assert [f.code for f in findings] == [_expected(path)]
    if path.name in EY3XX_RANGES:
        line, start, end = EY3XX_RANGES[path.name]
        span = findings[0].span
        assert (span.start.line, span.start.character, span.end.line, span.end.character) == \
            (line, start, line, end)


def test_every_mistake_file_was_checked(mistakes_result) -> None:  # type: ignore[no-untyped-def]
    assert mistakes_result.files_checked == len(MISTAKES)
    assert {p for p, _ in mistakes_result.all_findings()} == set(MISTAKES)


def test_examples_are_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(EXAMPLES), "--today", "2026-11-21"]) == 0
    # 18 files of the contract and Padosoft, and each format's own clean examples.
    assert re.fullmatch(r"No problems: \d+ files checked", capsys.readouterr().out.splitlines()[-1])


def test_mistakes_resolve_against_the_whole_workspace() -> None:
    assert workspace_root(EXAMPLES / "mistakes" / "datasets") == EXAMPLES


def _cycle(tree: Tree) -> tuple[Path, Path]:
    a = tree.write("rubrics/a.yaml", rubric("a", composite=["rubric/b@1.0.0"]))
    b = tree.write("rubrics/b.yaml", rubric("b", composite=["rubric/a@1.0.0"]))
    return a, b


def test_json_has_related_locations(tree: Tree, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _cycle(tree)
    monkeypatch.chdir(tree.root)
    assert main(["check", ".", "--format", "json"]) == 1
    items = json.loads(capsys.readouterr().out)
    assert [(i["path"], i["code"]) for i in items] == [("rubrics/a.yaml", "EY307"),
                                                       ("rubrics/b.yaml", "EY307")]
    assert items[0]["related"] == [{
        "path": "rubrics/b.yaml",
        "range": {"start": {"line": 8, "character": 16}, "end": {"line": 8, "character": 30}},
        "message": "rubric/b@1.0.0 includes rubric/a@1.0.0 here"}]


def test_sarif_has_related_locations(tree: Tree, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    _cycle(tree)
    monkeypatch.chdir(tree.root)
    main(["check", ".", "--format", "sarif"])
    results = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    related = results[0]["relatedLocations"][0]["physicalLocation"]
    assert related["artifactLocation"]["uri"] == "rubrics/b.yaml"
    assert related["region"]["startLine"] == 9


def test_text_output_has_notes(tree: Tree, capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    _cycle(tree)
    monkeypatch.chdir(tree.root)
    main(["check", "rubrics/a.yaml"])
    out = capsys.readouterr().out
    assert "rubrics/a.yaml:9:17: error EY307" in out
    assert "    rubrics/b.yaml:9:17: note: rubric/b@1.0.0 includes" in out
    # b was not asked for, but a named file's change shows in the files that name it: b's
    # half of the cycle is reported too (pre-commit passes only the changed file).
    assert "rubrics/b.yaml:9:17: error EY307 composite cycle: rubric/b@1.0.0" in out
    assert out.endswith("2 errors in 2 files checked\n")


def test_only_named_files_are_reported(tree: Tree) -> None:
    tree.write("rubrics/f.yaml", rubric("f"))
    bad = tree.write("datasets/bad.yaml", dataset("rubric/nope@1"))
    good = tree.write("datasets/good.yaml", dataset("rubric/f@1"))
    result = check_paths([good])
    assert result.files_checked == 1 and list(result.all_findings()) == []
    result = check_paths([bad, good])
    assert [(p, f.code) for p, f in result.all_findings()] == [(bad, "EY301")]


def test_strict_flag_reaches_workspace_findings(tree: Tree) -> None:
    tree.write("rubrics/f.yaml", rubric("f"))
    path = tree.write("datasets/d.yaml", dataset("rubric/f"))
    (finding,) = [f for _, f in check_paths([path], strict=True).all_findings()]
    assert finding.code == "EY303" and finding.severity.label == "error"


def test_without_config_a_conventional_folder_resolves_against_its_siblings(
        tmp_path: Path) -> None:
    (tmp_path / "rubrics").mkdir()
    (tmp_path / "rubrics" / "f.yaml").write_text(rubric("f"), "utf-8")
    (tmp_path / "datasets").mkdir()
    user = tmp_path / "datasets" / "d.yaml"
    user.write_text(dataset("rubric/f@1"), "utf-8")
    assert workspace_root(user) == tmp_path
    assert list(check_paths([user]).all_findings()) == []


def test_validate_forces_the_kind_and_still_resolves(tree: Tree) -> None:
    from evalyaml.core.kinds import FileKind

    path = tree.write("odd/thing.yaml", rubric("thing", judge="judge/j@1"))
    tree.write("judges/j.yaml", judge("j"))
    result = check_paths([path], force_kind=FileKind.RUBRIC)
    assert result.files_checked == 1 and list(result.all_findings()) == []
    result = check_paths([path], force_kind=FileKind.JUDGE)
    assert "EY201" in [f.code for _, f in result.all_findings()]  # no template


def test_graph_json(tree: Tree, capsys: pytest.CaptureFixture[str],
                    monkeypatch: pytest.MonkeyPatch) -> None:
    tree.write("judges/j.yaml", judge("j"))
    tree.write("rubrics/f.yaml", rubric("f", judge="judge/j@1"))
    tree.write("datasets/d.yaml", dataset("rubric/f@1", "rubric/missing@1"))
    monkeypatch.chdir(tree.root)
    assert main(["graph", "datasets", "--format", "json"]) == 0
    graph = json.loads(capsys.readouterr().out)
    kinds = sorted((n["kind"], n["label"]) for n in graph["nodes"])
    assert kinds == [("case", "case_0"), ("case", "case_1"), ("judge", "judge/j@1.0.0"),
                     ("rubric", "rubric/f@1.0.0"), ("unresolved", "rubric/missing@1")]
    edges = sorted((e["from"].split("#")[-1], e["to"], e["resolved"]) for e in graph["edges"])
    assert edges == [("case_0@1", "rubric/f@1.0.0", True),
                     ("case_1@4", "unresolved:rubric/missing@1", False),
                     ("rubric/f@1.0.0", "judge/j@1.0.0", True)]


def test_graph_dot(tree: Tree, capsys: pytest.CaptureFixture[str],
                   monkeypatch: pytest.MonkeyPatch) -> None:
    tree.write("judges/j.yaml", judge("j"))
    tree.write("rubrics/f.yaml", rubric("f", judge="judge/j@1"))
    tree.write("datasets/d.yaml", dataset("rubric/f@1"))
    monkeypatch.chdir(tree.root)
    assert main(["graph"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("digraph evalyaml {")
    assert '"rubric/f@1.0.0" -> "judge/j@1.0.0" [label="llm_judge"];' in out
    assert 'label="datasets/d.yaml";' in out
    assert out.rstrip().endswith("}")


def test_graph_of_a_missing_path_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["graph", "/no/such/place"]) == 2
    assert "no such file" in capsys.readouterr().err
