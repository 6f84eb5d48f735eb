"""Pin resolution (DESIGN §3) across 1.0.0 / 1.1.3 / 1.2.0-beta / 2.0.0."""

from __future__ import annotations

import pytest
from wshelpers import Tree, codes, dataset, only, rubric

from evalyaml.formats.contract.references import parse_pin
from evalyaml.workspace.resolve import match_pin, newer_than, newest_first

VERSIONS = ["1.0.0", "1.1.3", "1.2.0-beta", "2.0.0"]


@pytest.mark.parametrize(("pin", "expected"), [
    ("1.0.0", "1.0.0"),
    ("1.1.3", "1.1.3"),
    ("1.2.0-beta", "1.2.0-beta"),  # a pre-release matches an exact pin
    ("2.0.0", "2.0.0"),
    ("1.1", "1.1.3"),
    ("1.0", "1.0.0"),
    ("1.2", None),  # only 1.2.0-beta exists: pre-releases never match a partial pin
    ("1", "1.1.3"),  # not 1.2.0-beta
    ("2", "2.0.0"),
    ("2.0", "2.0.0"),
    ("3", None),
    ("1.1.2", None),
    ("1.2.0", None),
])
def test_pins(pin: str, expected: str | None) -> None:
    assert match_pin(parse_pin(pin), VERSIONS) == expected


def test_no_pin_is_highest_release() -> None:
    assert match_pin(None, VERSIONS) == "2.0.0"
    assert match_pin(None, ["1.0.0", "1.2.0-beta"]) == "1.0.0"
    assert match_pin(None, ["2.0.0-rc.1"]) is None


def test_ordering_is_semantic_not_textual() -> None:
    assert match_pin(parse_pin("1"), ["1.9.0", "1.10.0", "1.2.0"]) == "1.10.0"
    assert newest_first(["1.9.0", "1.10.0", "1.0.0-rc.1", "1.0.0"]) == \
        ["1.10.0", "1.9.0", "1.0.0", "1.0.0-rc.1"]


def test_newer_ignores_prereleases() -> None:
    assert newer_than("1.1.3", VERSIONS) == "2.0.0"
    assert newer_than("2.0.0", [*VERSIONS, "2.1.0-beta"]) is None


def _workspace(tree: Tree) -> Tree:
    for version in VERSIONS:
        tree.write(f"rubrics/quality-{version}.yaml", rubric("quality", version))
    return tree


@pytest.mark.parametrize(("ref", "resolved", "code"), [
    ("rubric/quality@1.0.0", "1.0.0", "EY304"),
    ("rubric/quality@1.1", "1.1.3", "EY304"),
    ("rubric/quality@1", "1.1.3", "EY304"),
    ("rubric/quality@1.2.0-beta", "1.2.0-beta", "EY304"),
    ("rubric/quality@2", "2.0.0", None),
    ("rubric/quality@2.0.0", "2.0.0", None),
    ("rubric/quality", "2.0.0", "EY303"),
    ("rubric/quality@1.2", None, "EY302"),
    ("rubric/quality@3", None, "EY302"),
])
def test_resolution_through_the_workspace(tree: Tree, ref: str, resolved: str | None,
                                          code: str | None) -> None:
    _workspace(tree)
    path = tree.write("datasets/d.yaml", dataset(ref))
    workspace = tree.workspace()
    analysis = workspace.analysis(path)
    assert analysis is not None
    resolution = workspace.resolve(analysis.references[0])
    assert (resolution.definition.version if resolution.definition else None) == resolved
    if resolved is not None:
        assert resolution.path == tree.root / "rubrics" / f"quality-{resolved}.yaml"
    assert codes(workspace.findings(path)) == ([code] if code else [])


def test_newer_message_names_the_version(tree: Tree) -> None:
    _workspace(tree)
    path = tree.write("datasets/d.yaml", dataset("rubric/quality@1.1"))
    (finding,) = only(tree.workspace().findings(path), "EY304")
    assert "2.0.0" in finding.message and "1.1.3" in finding.message
    assert finding.severity.label == "information"
    # The fix keeps the pin's shape: @1.1 becomes @2.0.
    (edit,) = finding.fixes[0].edits
    assert edit.new_text == "2.0"


def test_definitions_of_newest_first(tree: Tree) -> None:
    _workspace(tree)
    from evalyaml.core.kinds import FileKind

    versions = [d.version for _, d in tree.workspace().definitions_of(FileKind.RUBRIC, "quality")]
    assert versions == ["2.0.0", "1.2.0-beta", "1.1.3", "1.0.0"]
