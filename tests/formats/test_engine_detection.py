"""The engine's side of recognising files, across formats: modelines naming any shipped schema,
refusals, claims that must stay narrow, near misses, and kinds that survive a worker process."""

from __future__ import annotations

import json
import pickle
from datetime import date

import pytest

from evalyaml.core.kinds import FileKind
from evalyaml.core.options import Options
from evalyaml.dispatch import analyze_text
from evalyaml.formats import FORMATS
from evalyaml.formats.padosoft import kinds as padosoft

OPTIONS = Options(today=date(2026, 11, 21))
SAMPLES = ("name: support.faq\nsamples:\n  - id: a\n    input: {q: 1}\n"
           "    expected_output: y\n  - id: a\n    input: {q: 2}\n    expected_output: z\n")


def _codes(text: str, path: str) -> tuple[object, list[str]]:
    analysis = analyze_text(text, path, OPTIONS)
    return analysis.kind, [f.code for f in analysis.findings]


def test_a_modeline_naming_a_shipped_schema_claims_for_that_format() -> None:
    modeline = ("# yaml-language-server: $schema=https://evalyaml.dev/schemas/padosoft/"
                "padosoft-dataset.schema.json\n")
    assert _codes(modeline + SAMPLES, "notes/faq.yaml") == (padosoft.DATASET, ["EY506"])
    rubric = "# yaml-language-server: $schema=../schemas/rubric.schema.json\nid: r\n"
    assert _codes(rubric, "x.yaml")[0] is FileKind.RUBRIC
    foreign = "# yaml-language-server: $schema=https://json.schemastore.org/x.json\n"
    assert _codes(foreign + SAMPLES, "x.yaml") == (None, [])


def test_a_foreign_root_schema_keeps_padosoft_s_shape_claim_off() -> None:
    assert _codes(SAMPLES, "x.yaml") == (padosoft.DATASET, ["EY506"])
    assert _codes("$schema: https://example.com/deepeval.json\n" + SAMPLES, "x.yaml") == (
        None, [])


def test_an_eval_set_version_nested_in_a_report_is_not_an_eval_set() -> None:
    nested = '{"report": {"schema_version": "eval-harness.eval-set.v1", "name": ""}}'
    assert _codes(nested, "out/report.json") == (None, [])
    tricky = '{"note": "{[", "schema_version": "eval-harness.eval-set.v1", "name": "n", ' \
             '"datasets": ["a"]}'
    assert _codes(tricky, "sets/n.json")[0] is padosoft.EVAL_SET


@pytest.mark.parametrize("text", [
    "Questions:\n  - id: q1\n    input: What is 2 + 2?\n",  # a quiz: capitalised, not ours
    "questons:\n  - id: q1\n    text: What is 2 + 2?\n",  # no input: not a case
    "questons: # a list\nother: 1\n  - id: q1\n",
    "name: quiz\nsample:\n  - id: a\n    input: {q: 1}\n",  # no expected_output
])
def test_no_near_miss_on_look_alikes(text: str) -> None:
    assert _codes(text, "x.yaml") == (None, [])


def test_near_misses_are_located_once() -> None:
    analysis = analyze_text("questons:\n\n  # first\n  - id: a\n    input: hi\n", "x.yaml",
                            OPTIONS)
    assert [(f.code, f.span.start.line, f.span.start.character, f.span.end.character)
            for f in analysis.findings] == [("EY312", 0, 0, 8)]
    sampels = "name: n\nsampels:\n  - id: a\n    input: {q: 1}\n    expected_output: y\n"
    analysis = analyze_text(sampels, "x.yaml", OPTIONS)
    assert analysis.kind is padosoft.DATASET
    assert [(f.code, f.span.start.line, f.span.start.character) for f in analysis.findings] == [
        ("EY312", 1, 0)]


def test_kinds_are_one_object_across_processes() -> None:
    for fmt in FORMATS:
        for kind in fmt.kinds:
            assert pickle.loads(pickle.dumps(kind)) is kind


def _apply(text: str, edits: list[tuple[int, int, int, int, str]]) -> str:
    lines = text.split("\n")
    for sl, sc, el, ec, new in sorted(edits, reverse=True):
        head, tail = lines[sl][:sc], lines[el][ec:]
        lines[sl:el + 1] = (head + new + tail).split("\n")
    return "\n".join(lines)


@pytest.mark.parametrize("text", [
    '{"schema_version": "eval-harness.eval-set.v1", "nmae": "n", "datasets": [" a\\\\b "]}',
    '{"schema_version": "eval-harness.eval-set.v1", "name": " \\"q\\" ",\n'
    ' "datasets": ["a", "a", " b "]}',
])
def test_every_fix_to_a_json_eval_set_leaves_valid_json(text: str) -> None:
    analysis = analyze_text(text, "eval/sets/n.json", OPTIONS)
    fixes = [fix for finding in analysis.findings for fix in finding.fixes]
    assert fixes
    for fix in fixes:
        fixed = _apply(text, [(e.span.start.line, e.span.start.character, e.span.end.line,
                               e.span.end.character, e.new_text) for e in fix.edits])
        json.loads(fixed)
