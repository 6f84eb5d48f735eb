"""Bundles: case fields of a domain extension, from schemas the configuration names."""

from __future__ import annotations

import json
from pathlib import Path

from wshelpers import Tree, codes, only

from evalyaml.checker import check_paths
from evalyaml.config import load_config
from evalyaml.workspace.bundles import load_bundles

RAG = {
    "type": "object",
    "properties": {
        "context_docs": {"type": "array", "items": {"type": "string"},
                         "description": "Documents retrieved for the question."},
        "retrieval_k": {"type": "integer", "minimum": 1},
    },
    "required": ["context_docs"],
}


def _schema(tree: Tree, relative: str, schema: object) -> Path:
    return tree.write(relative, json.dumps(schema))


def _case(extra: str) -> str:
    return f"questions:\n  - id: a\n    input: what is the refund window?\n{extra}"


def test_bundles_dir_schema_validates_the_case(tree: Tree) -> None:
    tree.config('bundles_dir = "bundles"\n')
    _schema(tree, "bundles/rag.schema.json", RAG)
    good = tree.write("datasets/good.yaml", _case(
        "    bundle: rag\n    context_docs: [policy.md]\n    retrieval_k: 3\n"))
    bad = tree.write("datasets/bad.yaml", _case(
        "    bundle: rag\n    context_docs: [policy.md]\n    retrieval_k: zero\n"))
    missing = tree.write("datasets/missing.yaml", _case("    bundle: rag\n"))
    workspace = tree.workspace()
    assert workspace.findings(good) == []
    (wrong,) = workspace.findings(bad)
    assert wrong.span.start.line == 5 and "retrieval_k" in wrong.message
    assert codes(workspace.findings(missing)) == ["EY201"]
    assert workspace.config_findings() == []


def test_bundle_fields_take_part_in_typo_detection(tree: Tree) -> None:
    tree.config('bundles_dir = "bundles"\n')
    _schema(tree, "bundles/rag.schema.json", RAG)
    path = tree.write("datasets/d.yaml", _case(
        "    bundle: rag\n    context_docs: [a]\n    retreival_k: 3\n"))
    (typo,) = only(tree.workspace().findings(path), "EY205")
    assert "did you mean 'retrieval_k'?" in typo.message


def test_explicit_mapping(tree: Tree) -> None:
    tree.config('[bundles]\nagent = "schemas/agent.schema.json"\n')
    _schema(tree, "schemas/agent.schema.json",
            {"type": "object", "properties": {"max_steps": {"type": "integer"}}})
    path = tree.write("datasets/d.yaml", _case("    bundle: agent\n    max_steps: many\n"))
    (finding,) = tree.workspace().findings(path)
    assert "max_steps" in finding.message


def test_unknown_bundle_with_did_you_mean(tree: Tree) -> None:
    tree.config('bundles_dir = "bundles"\n')
    _schema(tree, "bundles/rag.schema.json", RAG)
    path = tree.write("datasets/d.yaml", _case("    bundle: rga\n"))
    (finding,) = tree.workspace().findings(path)
    assert finding.code == "EY309" and "did you mean 'rag'?" in finding.message
    assert finding.severity.label == "warning"
    assert (finding.span.start.line, finding.span.start.character) == (3, 12)


def test_no_bundles_configured_means_no_opinion(tree: Tree) -> None:
    path = tree.write("datasets/d.yaml", _case("    bundle: rag\n"))
    assert tree.workspace().findings(path) == []


def test_schema_outside_the_root_is_refused(tree: Tree, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    outside = tmp_path_factory.mktemp("elsewhere") / "rag.schema.json"
    outside.write_text(json.dumps(RAG), "utf-8")
    tree.config(f'[bundles]\nrag = "{outside}"\nsneaky = "../x.schema.json"\n')
    bundles = load_bundles(load_config(tree.root))
    assert bundles.schemas == {}
    assert [f.code for f in bundles.findings] == ["EY321", "EY321"]
    assert "outside the workspace root" in bundles.findings[0].message
    assert bundles.findings[0].span.start.line == 1


def test_remote_refs_are_refused_never_fetched(tree: Tree) -> None:
    tree.config('bundles_dir = "bundles"\n')
    _schema(tree, "bundles/rag.schema.json",
            {"type": "object", "properties": {"doc": {"$ref": "https://example.com/d.json"}}})
    _schema(tree, "bundles/local.schema.json",
            {"$defs": {"d": {"type": "string"}}, "properties": {"doc": {"$ref": "#/$defs/d"}}})
    bundles = load_bundles(load_config(tree.root))
    assert set(bundles.schemas) == {"local"}
    (finding,) = bundles.findings
    assert "never fetches" in finding.message


def test_broken_schema_files_are_config_findings(tree: Tree) -> None:
    tree.config('bundles_dir = "bundles"\n[bundles]\nmissing = "nope.schema.json"\n')
    tree.write("bundles/notjson.schema.json", "{")
    _schema(tree, "bundles/invalid.schema.json", {"type": 12})
    _schema(tree, "bundles/list.schema.json", [1, 2])
    workspace = tree.workspace()
    ((source, findings),) = workspace.config_findings()
    assert source == tree.root / "evalyaml.toml"
    assert len(findings) == 4 and all(f.code == "EY321" for f in findings)
    assert workspace.roots[0].bundles.schemas == {}


def test_bundles_dir_must_be_a_folder(tree: Tree) -> None:
    tree.config('bundles_dir = "nowhere"\n')
    (finding,) = load_bundles(load_config(tree.root)).findings
    assert "not a folder" in finding.message and finding.span.start.line == 0


def test_check_reports_bundle_config_problems(tree: Tree) -> None:
    tree.config('bundles_dir = "nowhere"\n')
    tree.write("datasets/d.yaml", _case(""))
    result = check_paths([tree.root])
    assert [(p.name, f.code) for p, f in result.all_findings()] == [("evalyaml.toml", "EY321")]


def test_findings_point_at_the_bundle_entry_not_a_key_of_the_same_name(tree: Tree) -> None:
    """A bundle named like another key of the file (`name`, `strict`) is located in its own
    table, and a quoted name (dots need quotes in TOML) is found with its quotes."""
    (tree.root / "evalyaml.toml").unlink()
    tree.write("pyproject.toml", '[project]\nname = "demo"\nversion = "1.0"\n\n'
                                 '[tool.evalyaml]\nstrict = false\nbundles_dir = "nowhere"\n\n'
                                 '[tool.evalyaml.bundles]\nname = "missing.schema.json"\n'
                                 '"rag.v2" = "gone.schema.json"\n')
    bundles = load_bundles(load_config(tree.root))
    where = [(f.span.start.line, f.span.start.character, f.span.end.character, f.message)
             for f in bundles.findings]
    assert where == [
        (6, 0, 11, "bundles_dir 'nowhere' is not a folder"),
        (9, 0, 4, "bundle 'name': cannot read missing.schema.json: No such file or directory"),
        (10, 0, 8, "bundle 'rag.v2': cannot read gone.schema.json: No such file or directory"),
    ]


def test_an_inline_bundles_table_points_at_its_key(tree: Tree) -> None:
    tree.config('strict = false\nbundles = { strict = "missing.schema.json" }\n')
    (finding,) = load_bundles(load_config(tree.root)).findings
    assert (finding.span.start.line, finding.span.start.character,
            finding.span.end.character) == (1, 0, 7)
