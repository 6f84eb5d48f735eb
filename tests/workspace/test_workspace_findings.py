"""Every cross-file finding (EY301-EY308, EY310, EY311), on the reference's exact span."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from wshelpers import Tree, codes, dataset, judge, only, rubric

from evalyaml.core.codes import Severity
from evalyaml.syntax.text import Position, Span


def span(line: int, start: int, end: int) -> Span:
    return Span(Position(line, start), Position(line, end))


# ---------------------------------------------------------------- EY301 / EY302 / EY303
def test_dangling_rubric_ref(tree: Tree) -> None:
    """The proposal: reference integrity catches a dangling rubric_ref."""
    tree.write("rubrics/factuality.yaml", rubric("factuality", "1.2.0"))
    path = tree.write("datasets/d.yaml", dataset("rubric/factualty@1.2"))
    (finding,) = tree.workspace().findings(path)
    assert finding.code == "EY301"
    assert finding.severity is Severity.ERROR
    assert finding.span == span(3, 16, 36)
    assert "factualty" in finding.message and "did you mean 'factuality'?" in finding.message
    (edit,) = finding.fixes[0].edits
    assert edit.new_text == "factuality" and edit.span == span(3, 23, 32)


def test_dangling_judge_prompt_ref(tree: Tree) -> None:
    """The proposal: reference integrity catches a dangling judge_prompt_ref."""
    tree.write("judges/accuracy.yaml", judge("accuracy"))
    path = tree.write("rubrics/r.yaml", rubric("r", judge="judge/acuracy@1.0.0"))
    (finding,) = tree.workspace().findings(path)
    assert finding.code == "EY301"
    assert finding.span == span(8, 22, 41)
    assert "no judge with id 'acuracy'" in finding.message
    assert "did you mean 'accuracy'?" in finding.message


def test_dangling_without_suggestion(tree: Tree) -> None:
    tree.write("rubrics/factuality.yaml", rubric("factuality"))
    path = tree.write("datasets/d.yaml", dataset("rubric/helpfulness@1.0.0"))
    (finding,) = tree.workspace().findings(path)
    assert finding.code == "EY301" and "did you mean" not in finding.message
    assert finding.fixes == ()


def test_no_matching_version_lists_available(tree: Tree) -> None:
    tree.write("rubrics/f.yaml", rubric("f", "1.1.0"))
    tree.write("rubrics/f-1.2.yaml", rubric("f", "1.2.0"))
    path = tree.write("datasets/d.yaml", dataset("rubric/f@2.0"))
    (finding,) = tree.workspace().findings(path)
    assert finding.code == "EY302" and finding.severity is Severity.ERROR
    assert finding.span == span(3, 16, 28)
    assert finding.message.endswith("available: 1.2.0, 1.1.0")


def test_unpinned_warns_and_names_the_version(tree: Tree) -> None:
    tree.write("rubrics/f.yaml", rubric("f", "1.2.0"))
    path = tree.write("datasets/d.yaml", dataset("rubric/f"))
    (finding,) = tree.workspace().findings(path)
    assert finding.code == "EY303" and finding.severity is Severity.WARNING
    assert "resolves to 1.2.0" in finding.message
    (edit,) = finding.fixes[0].edits
    assert edit.span == span(3, 24, 24) and edit.new_text == "@1.2"


def test_unpinned_is_an_error_in_strict_mode(tree: Tree) -> None:
    tree.write("rubrics/f.yaml", rubric("f", "1.2.0"))
    path = tree.write("datasets/d.yaml", dataset("rubric/f"))
    (finding,) = tree.workspace(strict=True).findings(path)
    assert finding.code == "EY303" and finding.severity is Severity.ERROR


def test_strict_from_the_config_file(tree: Tree) -> None:
    tree.config("strict = true\n")
    tree.write("rubrics/f.yaml", rubric("f", "1.2.0"))
    path = tree.write("datasets/d.yaml", dataset("rubric/f"))
    (finding,) = tree.workspace().findings(path)
    assert finding.severity is Severity.ERROR


def test_quoted_reference_fix_stays_inside_the_quotes(tree: Tree) -> None:
    tree.write("rubrics/f.yaml", rubric("f", "1.2.0"))
    path = tree.write("datasets/d.yaml", dataset('"rubric/f"'))
    (finding,) = tree.workspace().findings(path)
    assert finding.span == span(3, 16, 26)
    (edit,) = finding.fixes[0].edits
    assert edit.span == span(3, 25, 25)


def test_malformed_reference_is_the_cores_ey300_only(tree: Tree) -> None:
    tree.write("rubrics/f.yaml", rubric("f"))
    path = tree.write("datasets/d.yaml", dataset("f@1.0.0"))
    assert codes(tree.workspace().findings(path)) == ["EY300"]


# ---------------------------------------------------------------- EY304
def test_newer_version_is_information(tree: Tree) -> None:
    tree.write("rubrics/f.yaml", rubric("f", "1.1.0"))
    tree.write("rubrics/f-2.yaml", rubric("f", "1.2.0"))
    path = tree.write("datasets/d.yaml", dataset("rubric/f@1.1.0", "rubric/f@1"))
    (finding,) = tree.workspace().findings(path)
    assert finding.code == "EY304" and finding.severity is Severity.INFORMATION
    assert finding.span.start.line == 3
    assert "1.2.0" in finding.message


# ---------------------------------------------------------------- EY305
def test_duplicate_definition_in_two_files(tree: Tree) -> None:
    first = tree.write("rubrics/f.yaml", rubric("f", "1.2.0"))
    second = tree.write("rubrics/f-copy.yaml", "# a copy\n" + rubric("f", "1.2.0"))
    workspace = tree.workspace()
    (one,) = workspace.findings(first)
    (two,) = workspace.findings(second)
    assert one.code == two.code == "EY305"
    assert one.severity is Severity.ERROR
    assert one.span == span(0, 4, 5) and two.span == span(1, 4, 5)
    (related_one,) = one.related
    (related_two,) = two.related
    assert related_one.path == str(second) and related_one.span == two.span
    assert related_two.path == str(first) and related_two.span == one.span
    assert "f-copy.yaml" in one.message


def test_different_versions_are_not_duplicates(tree: Tree) -> None:
    first = tree.write("rubrics/f.yaml", rubric("f", "1.2.0"))
    tree.write("rubrics/f-1.3.yaml", rubric("f", "1.3.0"))
    assert tree.workspace().findings(first) == []


# ---------------------------------------------------------------- EY306 / EY307
def test_composite_of_composite(tree: Tree) -> None:
    """The proposal: cycle detection catches composite-of-composite (depth limit 1)."""
    tree.write("rubrics/safety.yaml", rubric("safety"))
    inner = tree.write("rubrics/quality.yaml", rubric("quality",
                                                      composite=["rubric/safety@1.0.0"]))
    outer = tree.write("rubrics/gate.yaml", rubric("gate", composite=["rubric/quality@1"]))
    workspace = tree.workspace()
    assert workspace.findings(inner) == []
    (finding,) = workspace.findings(outer)
    assert finding.code == "EY306" and finding.severity is Severity.ERROR
    assert finding.span == span(8, 16, 32)
    assert "rubric/quality@1.0.0 is itself a composite" in finding.message
    (related,) = finding.related
    assert related.path == str(inner) and related.span.start.line == 8


def test_cycle_of_two(tree: Tree) -> None:
    a = tree.write("rubrics/a.yaml", rubric("a", composite=["rubric/b@1.0.0"]))
    b = tree.write("rubrics/b.yaml", rubric("b", composite=["rubric/a@1.0.0"]))
    workspace = tree.workspace()
    (fa,) = workspace.findings(a)
    (fb,) = workspace.findings(b)
    assert fa.code == fb.code == "EY307"  # and not EY306 as well
    assert "rubric/a@1.0.0 -> rubric/b@1.0.0 -> rubric/a@1.0.0" in fa.message
    assert "rubric/b@1.0.0 -> rubric/a@1.0.0 -> rubric/b@1.0.0" in fb.message
    assert fa.span == span(8, 16, 30)
    assert [(r.path, r.span) for r in fa.related] == [(str(b), fb.span)]


def test_cycle_of_three(tree: Tree) -> None:
    a = tree.write("rubrics/a.yaml", rubric("a", composite=["rubric/b@1"]))
    b = tree.write("rubrics/b.yaml", rubric("b", composite=["rubric/c@1"]))
    c = tree.write("rubrics/c.yaml", rubric("c", composite=["rubric/a@1"]))
    outsider = tree.write("rubrics/d.yaml", rubric("d", composite=["rubric/a@1"]))
    workspace = tree.workspace()
    for path, cycle in ((a, "a b c a"), (b, "b c a b"), (c, "c a b c")):
        (finding,) = workspace.findings(path)
        assert finding.code == "EY307"
        expected = " -> ".join(f"rubric/{x}@1.0.0" for x in cycle.split())
        assert expected in finding.message
        assert len(finding.related) == 2  # the two other hops
        assert {r.path for r in finding.related} == {str(p) for p in (a, b, c) if p != path}
    # d points into the cycle without being part of it: a nested composite, not a cycle.
    assert codes(workspace.findings(outsider)) == ["EY306"]


def test_rubric_including_itself(tree: Tree) -> None:
    a = tree.write("rubrics/a.yaml", rubric("a", composite=["rubric/a@1.0.0"]))
    (finding,) = tree.workspace().findings(a)
    assert finding.code == "EY307"
    assert "rubric/a@1.0.0 -> rubric/a@1.0.0" in finding.message
    assert finding.related == ()


# ---------------------------------------------------------------- EY308
def test_judge_without_validation(tree: Tree) -> None:
    tree.write("judges/j.yaml", judge("j", validated_at=None))
    path = tree.write("rubrics/r.yaml", rubric("r", judge="judge/j@1.0.0"))
    (finding,) = tree.workspace().findings(path)
    assert finding.code == "EY308" and finding.severity is Severity.WARNING
    assert finding.span == span(8, 22, 35)
    assert "no validation" in finding.message


def test_stale_judge_names_the_age(tree: Tree) -> None:
    tree.write("judges/j.yaml", judge("j", validated_at="2025-01-10"))
    path = tree.write("rubrics/r.yaml", rubric("r", judge="judge/j@1.0.0"))
    (finding,) = tree.workspace().findings(path)
    assert finding.code == "EY308"
    assert "680 days ago" in finding.message and "90-day" in finding.message
    assert finding.data["age_days"] == "680"


def test_freshness_days_from_the_config(tree: Tree) -> None:
    tree.config("freshness_days = 1000\n")
    tree.write("judges/j.yaml", judge("j", validated_at="2025-01-10"))
    path = tree.write("rubrics/r.yaml", rubric("r", judge="judge/j@1.0.0"))
    assert tree.workspace().findings(path) == []


def test_fresh_judge_is_fine(tree: Tree) -> None:
    tree.write("judges/j.yaml", judge("j"))
    path = tree.write("rubrics/r.yaml", rubric("r", judge="judge/j@1.0.0"))
    assert tree.workspace().findings(path) == []


def test_jury_members_are_checked(tree: Tree) -> None:
    tree.write("judges/fresh.yaml", judge("fresh"))
    tree.write("judges/old.yaml", judge("old", validated_at="2026-01-01"))
    path = tree.write("rubrics/r.yaml", """\
        id: r
        version: "1.0.0"
        checks:
          - id: jury
            kind: llm_judge
            jury:
              - judge_prompt_ref: judge/fresh@1.0.0
                weight: 1
              - judge_prompt_ref: judge/old@1.0.0
                weight: 1
            aggregation: mean
        scoring:
          combine: all_pass
        """)
    (finding,) = tree.workspace().findings(path)
    assert finding.code == "EY308" and finding.span == span(8, 26, 41)
    assert "judge/old@1.0.0 was validated 324 days ago" in finding.message


# ---------------------------------------------------------------- EY310
@pytest.mark.parametrize(("name", "hint"), [
    ("factuality.yaml", False),
    ("factuality-1.1.yaml", False),
    ("EY208-factuality.yaml", False),
    ("old_factuality_rubric.yaml", False),
    ("quality.yaml", True),
    ("r1.yaml", True),
])
def test_file_name_hint(tree: Tree, name: str, hint: bool) -> None:
    path = tree.write(f"rubrics/{name}", rubric("factuality"))
    found = tree.workspace().findings(path)
    assert codes(found) == (["EY310"] if hint else [])
    if hint:
        assert found[0].severity is Severity.HINT
        assert found[0].span == span(0, 4, 14)


def test_file_name_hint_for_camel_case(tree: Tree) -> None:
    path = tree.write("rubrics/supportQuality.yaml", rubric("support_quality"))
    assert tree.workspace().findings(path) == []


# ---------------------------------------------------------------- EY311 and friends
def test_broken_symlink_is_reported_once(tree: Tree) -> None:
    link = tree.root / "rubrics" / "gone.yaml"
    link.parent.mkdir()
    link.symlink_to(tree.root / "rubrics" / "missing.yaml")
    workspace = tree.workspace()
    (finding,) = workspace.findings(link)
    assert finding.code == "EY311" and finding.severity is Severity.WARNING
    assert workspace.analysis(link) is None


def test_symlink_loop_file_is_reported_not_fatal(tree: Tree) -> None:
    folder = tree.root / "rubrics"
    folder.mkdir()
    (folder / "a.yaml").symlink_to(folder / "b.yaml")
    (folder / "b.yaml").symlink_to(folder / "a.yaml")
    tree.write("rubrics/ok.yaml", rubric("ok"))
    workspace = tree.workspace()
    assert codes(workspace.findings(folder / "a.yaml")) == ["EY311"]
    assert codes(workspace.findings(folder / "b.yaml")) == ["EY311"]
    assert workspace.findings(folder / "ok.yaml") == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_unreadable_file(tree: Tree) -> None:
    path = tree.write("rubrics/secret.yaml", rubric("secret"))
    path.chmod(0)
    try:
        assert codes(tree.workspace().findings(path)) == ["EY311"]
    finally:
        path.chmod(0o644)


def test_non_utf8_file_is_reported_once(tree: Tree) -> None:
    path = tree.root / "rubrics" / "latin1.yaml"
    path.parent.mkdir()
    path.write_bytes(b"id: caf\xe9\nversion: '1.0.0'\n")
    other = tree.root / "stray.yaml"
    other.write_bytes(b"name: caf\xe9\n")  # not ours: left alone
    workspace = tree.workspace()
    assert codes(workspace.findings(path)) == ["EY100"]
    assert workspace.findings(other) == []


def test_the_files_own_findings_are_included_once(tree: Tree) -> None:
    tree.write("rubrics/f.yaml", rubric("f"))
    path = tree.write("datasets/d.yaml", """\
        questions:
          - id: a
            input: x
            rubric_ref: rubric/f
            expected_tool: [search]
        """)
    workspace = tree.workspace()
    first = workspace.findings(path)
    assert codes(first) == ["EY303", "EY205"]
    assert workspace.findings(path) == first


def test_related_paths_are_absolute(tree: Tree) -> None:
    a = tree.write("rubrics/a.yaml", rubric("a", composite=["rubric/b@1.0.0"]))
    tree.write("rubrics/b.yaml", rubric("b", composite=["rubric/a@1.0.0"]))
    (finding,) = tree.workspace().findings(a)
    assert all(r.path is not None and Path(r.path).is_absolute() for r in finding.related)


def test_only_ey3xx_codes_come_from_the_workspace(tree: Tree) -> None:
    tree.write("rubrics/a.yaml", rubric("a", composite=["rubric/b@1.0.0"]))
    tree.write("rubrics/b.yaml", rubric("b", composite=["rubric/a@1.0.0"]))
    path = tree.write("datasets/d.yaml", dataset("rubric/a", "rubric/zzz@1"))
    workspace = tree.workspace()
    for file in workspace.eval_files():
        assert all(f.code.startswith("EY3") for f in workspace.cross_file_findings(file))
    assert only(workspace.findings(path), "EY301")


def test_unpinned_with_only_prereleases(tree: Tree) -> None:
    tree.write("rubrics/f.yaml", rubric("f", "2.0.0-beta"))
    path = tree.write("datasets/d.yaml", dataset("rubric/f"))
    (finding,) = tree.workspace().findings(path)
    assert finding.code == "EY302"
    assert finding.message == ("rubric/f has no released version for an unpinned reference to "
                               "take; available: 2.0.0-beta")
