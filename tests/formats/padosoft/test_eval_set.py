"""Padosoft eval sets (JSON): `EvalSetDefinition::fromJson` and its constructor, every rule
located, and the dataset names an eval set references (resolved by the engine, not here).

JSON has no comments, so the expectations are written here rather than as annotations.
"""

from __future__ import annotations

from datetime import date

from evalyaml.core.codes import Severity
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.base import Claim
from evalyaml.formats.padosoft import DATASET, EVAL_SET, FORMAT

OPTIONS = Options(today=date(2026, 11, 21))
PATH = "eval/sets/nightly.json"


def _analyze(text: str) -> FileAnalysis:
    claim = FORMAT.claim(text, PATH, None)
    assert isinstance(claim, Claim) and claim.kind is EVAL_SET
    return FORMAT.analyze(text, PATH, EVAL_SET, OPTIONS)


def _found(analysis: FileAnalysis) -> list[tuple[str, tuple[int, int, int, int], str]]:
    return [(f.code, (f.span.start.line, f.span.start.character, f.span.end.line,
                      f.span.end.character), f.message) for f in analysis.findings]


def test_a_clean_eval_set_references_its_datasets() -> None:
    text = ('{\n  "schema_version": "eval-harness.eval-set.v1",\n  "name": "nightly",\n'
            '  "datasets": ["rag.factuality.fy2026", "support.rag.fy2026"]\n}\n')
    analysis = _analyze(text)
    assert analysis.findings == []
    assert [(r.target, r.raw, r.id, r.owner, r.origin, r.pin) for r in analysis.references] == [
        (DATASET, "rag.factuality.fy2026", "rag.factuality.fy2026", "nightly", "eval-set", None),
        (DATASET, "support.rag.fy2026", "support.rag.fy2026", "nightly", "eval-set", None)]
    first = analysis.references[0].span  # the string value, quotes included
    assert (first.start.line, first.start.character, first.end.character) == (3, 15, 38)


def test_every_rule_at_once() -> None:
    text = ('{\n  "schema_version": "eval-harness.eval-set.v2",\n  "name": " nightly",\n'
            '  "datasets": ["rag.factuality.fy2026", 3, "", "rag.factuality.fy2026 ", '
            '"rag.factuality.fy2026"],\n  "dataset": []\n}\n')
    refuse = "eval-harness refuses the eval set"
    analysis = _analyze(text)
    assert _found(analysis) == [
        ("EY501", (2, 10, 2, 20), f"{refuse}: the name has leading or trailing whitespace "
         "(eval-harness matches names exactly and does not trim them) (loader: \"Eval set name "
         "must be a non-empty string without leading or trailing whitespace.\")"),
        ("EY500", (1, 20, 1, 46), f"{refuse}: this eval-harness reads only "
         "eval-harness.eval-set.v1 (loader: \"Eval set ' nightly' uses unsupported schema "
         "version 'eval-harness.eval-set.v2'. Supported version: eval-harness.eval-set.v1.\")"),
        ("EY512", (3, 40, 3, 41), f"{refuse}: dataset 1 is the integer 3, not a dataset name "
         "(loader: \"Eval set definition dataset at index 1 must be a string.\")"),
        ("EY512", (3, 43, 3, 45), f"{refuse}: the dataset name is empty (loader: \"Eval set "
         "' nightly' dataset name at index 2 must be a non-empty string without leading or "
         "trailing whitespace.\")"),
        ("EY512", (3, 47, 3, 71), f"{refuse}: the dataset name has leading or trailing "
         "whitespace (eval-harness matches dataset names exactly and does not trim them) "
         "(loader: \"Eval set ' nightly' dataset name at index 3 must be a non-empty string "
         "without leading or trailing whitespace.\")"),
        ("EY506", (3, 73, 3, 96), f"{refuse}: dataset 'rag.factuality.fy2026' is already listed "
         "on line 4 (loader: \"Eval set ' nightly' contains duplicate dataset "
         "'rag.factuality.fy2026'.\")"),
        ("EY513", (4, 2, 4, 11), "unknown key 'dataset' in the eval set; did you mean "
         "'datasets'? eval-harness ignores unknown keys, so its value has no effect"),
    ]
    assert [f.severity for f in analysis.findings] == [Severity.ERROR] * 6 + [Severity.WARNING]
    assert analysis.findings[5].related[0].message == "first 'rag.factuality.fy2026'"
    assert [r.id for r in analysis.references] == ["rag.factuality.fy2026"]
    fixes = {f.code: f.fixes[0].edits[0].new_text for f in analysis.findings if f.fixes}
    assert fixes["EY501"] == '"nightly"' and fixes["EY500"] == '"eval-harness.eval-set.v1"'


def test_misspelt_and_missing_fields() -> None:
    fields = "Eval set definition requires schema_version, name, and datasets fields."
    analysis = _analyze('{"schema_version": "eval-harness.eval-set.v1", "nmae": "nightly", '
                        '"datasets": {"a": "rag"}}')
    assert _found(analysis) == [
        ("EY501", (0, 47, 0, 53), "eval-harness refuses the eval set: the eval set has no "
         f"'name' ('nmae' is not 'name': did you mean 'name'?) (loader: \"{fields}\")"),
        ("EY502", (0, 78, 0, 90), "eval-harness refuses the eval set: 'datasets' is an object; "
         "list the dataset names in an array (loader: \"Eval set definition datasets field "
         "must be a zero-based list.\")"),
    ]
    analysis = _analyze('{"schema_version": "eval-harness.eval-set.v1", "name": 7}')
    assert [(code, where) for code, where, _ in _found(analysis)] == [
        ("EY501", (0, 55, 0, 56)), ("EY502", (0, 1, 0, 45))]


def test_empty_datasets() -> None:
    analysis = _analyze('{"schema_version": "eval-harness.eval-set.v1", "name": "nightly", '
                        '"datasets": []}')
    assert _found(analysis) == [
        ("EY503", (0, 78, 0, 80), "eval-harness refuses the eval set: 'datasets' is empty; an "
         "eval set runs at least one dataset (loader: \"Eval set 'nightly' must include at "
         "least one dataset.\")")]


def test_json_syntax_errors_are_the_readers() -> None:
    text = '{"schema_version": "eval-harness.eval-set.v1", "name": "nightly", "datasets": ["a"'
    analysis = _analyze(text)
    assert analysis.kind is EVAL_SET
    assert analysis.findings and all(f.code.startswith("EY1") for f in analysis.findings)
    assert analysis.references == []


def test_run_artefacts_are_not_eval_sets() -> None:
    manifest = '{"schema_version": "eval-harness.eval-set-manifest.v1", "eval_set": "nightly"}'
    assert FORMAT.claim(manifest, "storage/manifest.json", None) is None
    assert FORMAT.near_miss(manifest, "storage/manifest.json", None) is None
