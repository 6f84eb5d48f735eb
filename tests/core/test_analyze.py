"""`analyze_text` / `analyze_bytes`: kind detection, hostile input, limits, incremental reuse."""

from __future__ import annotations

import time
from datetime import date
from pathlib import Path

import pytest

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.incremental import CaseCache
from evalyaml.core.kinds import FileKind
from evalyaml.core.options import Options
from evalyaml.dispatch import analyze_bytes, analyze_text
from evalyaml.formats.contract.detect import (
    NotOurs,
    detect_kind,
    folder_kind,
    modeline_kind,
    schema_kind,
    shape_kind,
)
from evalyaml.syntax.yaml.parse import parse_text

TODAY = date(2026, 11, 21)
OPTIONS = Options(today=TODAY)
DATASET_MODELINE = "# yaml-language-server: $schema=https://evalyaml.dev/schemas/v1/dataset.schema.json\n"
CORPUS = Path("/work/shared/corpus")

Row = tuple[str, tuple[int, int, int, int], str]


def rows(findings: list[Finding]) -> list[Row]:
    return [(f.code, (f.span.start.line, f.span.start.character, f.span.end.line,
                      f.span.end.character), f.message) for f in findings]


# -- kind detection -----------------------------------------------------------------------------

@pytest.mark.parametrize(("reference", "kind"), [
    ("https://evalyaml.dev/schemas/v1/dataset.schema.json", FileKind.DATASET),
    ("https://evalyaml.dev/schemas/v1/rubric.schema.json", FileKind.RUBRIC),
    ("../schemas/judge.schema.json", FileKind.JUDGE),
    ("schemas\\judge.schema.json", FileKind.JUDGE),
    ("judge.schema.json#/$defs/x", FileKind.JUDGE),
    ("https://json.schemastore.org/github-workflow.json", NotOurs.FOREIGN_SCHEMA),
    ("https://example.com/mydataset.schema.json", NotOurs.FOREIGN_SCHEMA),
    ("https://example.com/my-rubric.schema.json", NotOurs.FOREIGN_SCHEMA),
])
def test_schema_reference_kind(reference: str, kind: FileKind | NotOurs) -> None:
    assert schema_kind(reference) == kind


@pytest.mark.parametrize(("text", "kind"), [
    ("# yaml-language-server: $schema=../schemas/rubric.schema.json\nid: x\n", FileKind.RUBRIC),
    ("\ufeff#yaml-language-server:$schema=judge.schema.json\n", FileKind.JUDGE),
    ("# a comment first\n\n# yaml-language-server: $schema=dataset.schema.json\n",
     FileKind.DATASET),
    ("id: x\n# yaml-language-server: $schema=dataset.schema.json\n", None),  # not leading
    ("# yaml-language-server: $schema=https://json.schemastore.org/x.json\n",
     NotOurs.FOREIGN_SCHEMA),
    ("# just a comment\nkey: value\n", None),
])
def test_modeline_is_read_from_the_leading_comments_only(text: str,
                                                         kind: FileKind | NotOurs | None) -> None:
    assert modeline_kind(text) == kind


@pytest.mark.parametrize(("path", "kind"), [
    ("rubrics/x.yaml", FileKind.RUBRIC),
    ("/abs/evals/judges/x.yml", FileKind.JUDGE),
    ("judges/archive/rubrics/x.yaml", FileKind.RUBRIC),  # the nearest folder wins
    ("rubrics.yaml", None),
    ("datasets/x.yaml", None),  # datasets are known by modeline or shape, not folder
    ("my_rubrics/x.yaml", None),
    (None, None),
])
def test_folder_convention(path: str | None, kind: FileKind | None) -> None:
    assert folder_kind(path) == kind


def _root(text: str) -> object:
    parsed = parse_text(text, FindingSink(strict=False))
    return parsed.documents[0] if parsed.documents else None


@pytest.mark.parametrize(("text", "kind"), [
    ("questions:\n  - id: a\n", FileKind.DATASET),
    ("questions: []\n", FileKind.DATASET),
    ("questions: {a: 1}\n", None),
    ("questions: 3\n", None),
    ("checks: []\nscoring: {}\n", FileKind.RUBRIC),
    ("checks: []\n", None),
    ("template: x\nscore_type: binary\n", FileKind.JUDGE),
    ("template: x\nlevel_names: [a]\n", FileKind.JUDGE),
    ("template: x\n", None),
    ("id: x\nversion: 1.0.0\ntemplate: x\n", None),  # an Apastra prompt, not a judge
    ("- questions\n", None),
    ("plain scalar\n", None),
])
def test_shape(text: str, kind: FileKind | None) -> None:
    assert shape_kind(_root(text)) == kind  # type: ignore[arg-type]


def test_detection_order_modeline_then_schema_key_then_folder_then_shape() -> None:
    rubric_shape = "checks: []\nscoring: {}\n"
    foreign = "# yaml-language-server: $schema=https://json.schemastore.org/x.json\n"
    judge_modeline = "# yaml-language-server: $schema=judge.schema.json\n"
    text = judge_modeline + "$schema: rubric.schema.json\n" + rubric_shape
    assert detect_kind(text, "rubrics/x.yaml", _root(text)) is FileKind.JUDGE  # type: ignore[arg-type]
    text = "$schema: dataset.schema.json\n" + rubric_shape
    assert detect_kind(text, "rubrics/x.yaml", _root(text)) is FileKind.DATASET  # type: ignore[arg-type]
    text = "$schema: https://example.com/other.json\n" + rubric_shape
    assert detect_kind(text, "rubrics/x.yaml", _root(text)) is None  # type: ignore[arg-type]
    text = foreign + rubric_shape
    assert detect_kind(text, "rubrics/x.yaml", _root(text)) is None  # type: ignore[arg-type]
    # The folder beats the shape, when the file has something of a rubric (its `id`)...
    text = "id: x\ntemplate: x\nscore_type: binary\n"
    assert detect_kind(text, "rubrics/x.yaml", _root(text)) is FileKind.RUBRIC  # type: ignore[arg-type]
    # ...and a folder alone claims nothing (#25): a judge's keys in rubrics/ make a judge.
    text = "template: x\nscore_type: binary\n"
    assert detect_kind(text, "rubrics/x.yaml", _root(text)) is FileKind.JUDGE  # type: ignore[arg-type]
    assert detect_kind(text, "x.yaml", _root(text)) is FileKind.JUDGE  # type: ignore[arg-type]


FOREIGN = {
    "github_workflow": "name: CI\non: [push]\njobs:\n  t:\n    runs-on: ubuntu-latest\n"
                       "    steps:\n      - run: echo hi\n",
    "docker_compose": "services:\n  web:\n    image: nginx\n    image: nginx:2\n",
    "app_config": "id: Notifier\nversion: 1.10\ntemplate: 'Hi {{ name }}'\nchecks: {a: 1}\n",
    "openapi": "openapi: 3.1.0\ninfo: {title: x, version: 1.0}\npaths: {}\n",
    "ansible": "- hosts: all\n  tasks:\n    - name: questions\n      debug: {msg: hi}\n",
    "broken": "key: [unclosed\n\tother: value: x\n",
    "alias_bomb": "a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
                  "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
                  "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n",
}


@pytest.mark.parametrize("name", sorted(FOREIGN))
def test_other_peoples_yaml_is_never_linted(name: str) -> None:
    for path in (f"{name}.yaml", f".github/workflows/{name}.yml", f"deploy/{name}.yaml"):
        analysis = analyze_text(FOREIGN[name], path, OPTIONS)
        assert (analysis.kind, analysis.findings) == (None, [])


def _corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and not p.name.startswith("_"))


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not on this machine")
def test_corpus_of_other_projects_eval_files_gets_no_finding() -> None:
    """~300 real eval files from other projects (promptfoo, AgentV, Apastra, lm-eval-harness,
    openai/evals, ...): evalyaml must stay silent on every one, even when named explicitly."""
    files = _corpus_files()
    assert len(files) >= 150
    noisy = []
    claimed = {}
    for path in files:
        relative = path.relative_to(CORPUS).as_posix()
        analysis = analyze_bytes(path.read_bytes(), relative, OPTIONS, explicit=True)
        own = relative.startswith(  # each has its format's test_corpus in tests/formats/
            ("agentv/", "agentv-head/", "apastra/", "every_eval_ever/", "promptfoo/",
             "lm-evaluation-harness/"))
        if analysis.findings and not own:
            noisy.append(f"{relative}: {analysis.kind} {rows(analysis.findings)[:3]}")
        if analysis.kind is not None and not own:
            claimed[relative] = analysis.kind.value
    assert noisy == []
    # Only the formats we serve claim files, and only their own (Padosoft's two real files;
    # AgentV's, Apastra's, Every Eval Ever's, promptfoo's and lm-eval's are tested in
    # tests/formats/).
    assert claimed == {
        "padosoft-eval-harness/readme-extracted/eval/golden/factuality.yml": "Padosoft dataset",
        "padosoft-eval-harness/tests/Fixtures/calibration/judge-cases.v1.yaml":
            "Padosoft calibration file",
    }


# -- hostile input ------------------------------------------------------------------------------

def test_alias_bomb_in_each_kind_is_a_located_ey104_in_well_under_a_second() -> None:
    bomb = FOREIGN["alias_bomb"]
    for text, path in [
        (bomb + "questions:\n  - id: a\n    input: b\n", "d.yaml"),
        (bomb + "checks: [{kind: php_lint}]\nscoring: {combine: all_pass}\n", "rubrics/r.yaml"),
        ("template: x\nscore_type: binary\n" + bomb, "judges/j.yaml"),
    ]:
        started = time.perf_counter()
        analysis = analyze_text(text, path, OPTIONS)
        assert time.perf_counter() - started < 1
        codes = [f.code for f in analysis.findings]
        assert codes == ["EY104"], rows(analysis.findings)
        finding = analysis.findings[0]
        assert finding.message == ("aliases here expand to more nodes than evalyaml allows (an "
                                   "alias bomb?); the rest of this document is not checked")
        assert finding.span.start.line < 6


def test_alias_bomb_inside_one_case_spares_the_other_cases() -> None:
    """Per-case expansion limits exist (EY104 '...the rest of this value is not checked'); the
    dataset's root check must not expand every case first and abort the whole document."""
    lines = [DATASET_MODELINE.rstrip("\n"), "questions:", "  - id: bomb", "    input: x",
             "    extra:", "      a: &a [x,x,x,x,x,x,x,x,x,x]"]
    for name, prev in zip("bcdefg", "abcdef", strict=True):
        lines.append(f"      {name}: &{name} [" + ",".join([f"*{prev}"] * 10) + "]")
    lines += ["  - id: later", "    input: y", "    expecteed_facts: [z]"]
    analysis = analyze_text("\n".join(lines) + "\n", "d.yaml", OPTIONS)
    assert sorted(f.code for f in analysis.findings) == ["EY104", "EY205"]


def test_file_over_the_size_limit_is_ey107_and_not_parsed() -> None:
    options = Options(today=TODAY, max_file_bytes=1024)
    data = (DATASET_MODELINE + "questions:\n" + "  - id: a\n    input: b\n" * 100).encode()
    analysis = analyze_bytes(data, "big.yaml", options)
    assert analysis.kind is FileKind.DATASET
    assert rows(analysis.findings) == [
        ("EY107", (0, 0, 0, 0), "the file is 0.0 MB, over the 0.000976562 MB limit; it is not "
         "checked (raise max_file_mb in evalyaml.toml to check it)")]
    # Not ours and not named: a big foreign file is skipped silently.
    foreign = ("key: value\n" * 200).encode()
    assert analyze_bytes(foreign, "big.yaml", options).kind is None


def test_invalid_utf8_in_a_dataset_is_ey100() -> None:
    """The documented example for EY100: a dataset saved as Windows-1252. It has a modeline, so
    evalyaml knows it is a dataset and must say why it cannot read it."""
    data = (DATASET_MODELINE + "questions:\n  - id: cafe\n    input: Caf").encode() + b"\xe9\n"
    analysis = analyze_bytes(data, "datasets/support.yaml", OPTIONS)
    assert analysis.kind is FileKind.DATASET
    assert rows(analysis.findings) == [
        ("EY100", (0, 0, 0, 0), "the file is not valid UTF-8: byte 0xe9 at line 4")]


def test_invalid_utf8_in_a_rubrics_folder_is_ey100() -> None:
    analysis = analyze_bytes(b"id: caf\xe9\n", "rubrics/cafe.yaml", OPTIONS)
    assert analysis.kind is FileKind.RUBRIC
    assert rows(analysis.findings) == [
        ("EY100", (0, 0, 0, 0), "the file is not valid UTF-8: byte 0xe9 at line 1")]


def test_binary_bytes_are_left_alone_unless_named() -> None:
    data = bytes(range(256)) * 4
    assert analyze_bytes(data, "x.yaml", OPTIONS).kind is None
    named = analyze_bytes(data, "rubrics/x.yaml", OPTIONS)
    assert rows(named.findings) == [
        ("EY100", (0, 0, 0, 0), "the file looks binary (it contains NUL bytes), not YAML text")]


@pytest.mark.parametrize("text", ["", "\n", "# yaml-language-server: $schema=dataset.schema.json\n"
                                  ], ids=["empty", "newline", "modeline-only"])
def test_empty_file_declared_as_a_dataset_is_ey200(text: str) -> None:
    """docs/diagnostics.md, EY200: 'or an empty file named as a dataset'."""
    analysis = analyze_text(text, "d.yaml", OPTIONS, forced_kind=FileKind.DATASET)
    assert analysis.kind is FileKind.DATASET
    assert [f.code for f in analysis.findings] == ["EY200"]
    if text.startswith("#"):
        analysis = analyze_text(text, "d.yaml", OPTIONS)
        assert [f.code for f in analysis.findings] == ["EY200"]


def test_empty_file_without_a_kind_is_not_ours() -> None:
    for text in ("", "\n\n", "# comment\n", "---\n...\n"):
        assert analyze_text(text, "x.yaml", OPTIONS).kind is None


@pytest.mark.parametrize(("text", "path", "message"), [
    ("- id: a\n  input: b\n", "rubrics/r.yaml", "a rubric file must be a mapping of keys at its "
     "top level"),
    (DATASET_MODELINE + "- id: a\n  input: b\n", "d.yaml",
     "a dataset file must be a mapping of keys at its top level"),
    ("just text\n", "judges/j.yaml", "a judge file must be a mapping of keys at its top level"),
])
def test_root_that_is_not_a_mapping_is_ey200_on_its_first_line(text: str, path: str,
                                                               message: str) -> None:
    analysis = analyze_text(text, path, OPTIONS)
    line = text.count("\n", 0, text.index("- id") if "- id" in text else 0)
    end = len(text.split("\n")[line])
    assert rows(analysis.findings) == [("EY200", (line, 0, line, end), message)]


def test_forced_kind_analyses_anything_as_that_kind() -> None:
    text = "id: x\nversion: '1.0.0'\ntemplate: '{{ inptu }}'\n"
    assert analyze_text(text, "x.yaml", OPTIONS).kind is None
    forced = analyze_text(text, "x.yaml", OPTIONS, forced_kind=FileKind.JUDGE)
    assert forced.kind is FileKind.JUDGE
    assert rows(forced.findings) == [
        ("EY400", (2, 14, 2, 19), "unknown template variable 'inptu'; did you mean 'input'?")]


@pytest.mark.parametrize("path", ["README.md", "docs/Rubrics.MARKDOWN", "prompts/grader.txt"])
def test_prose_is_never_claimed_from_its_text(path: str) -> None:
    """Editors send every Markdown buffer; a fenced rubric, a dataset's schema_version line or a
    modeline in one is not that file (an unknown suffix would otherwise be read as YAML)."""
    texts = [
        "# Rubrics\n\n```yaml\nid: helpfulness\nchecks:\n  - kind: regexx\n```\n",
        "```yaml\nschema_version: eval-harness.dataset.v1\nname: x\nsamples: [\n```\n",
        DATASET_MODELINE + "questions:\n  - id: a\n    inptu: b\n",
    ]
    for text in texts:
        analysis = analyze_text(text, path, OPTIONS)
        assert (analysis.kind, analysis.findings) == (None, [])
        # What a file naming it adopts it as still applies.
        forced = analyze_text("{{ inptu }}\n", path, OPTIONS, forced_kind=FileKind.JUDGE)
        assert forced.kind is FileKind.JUDGE


def test_strict_mode_changes_severity_only() -> None:
    # A misspelt key (EY205) and a case with no input (EY201).
    text = DATASET_MODELINE + "questions:\n  - id: a\n    inptu: b\n  - id: c\n"
    soft = analyze_text(text, "d.yaml", Options(today=TODAY))
    strict = analyze_text(text, "d.yaml", Options(today=TODAY, strict=True))
    assert rows(soft.findings) == rows(strict.findings)
    assert [f.code for f in soft.findings] == ["EY205", "EY201"]
    assert [f.severity.label for f in soft.findings] == ["warning", "warning"]
    assert [f.severity.label for f in strict.findings] == ["error", "error"]


# -- datasets: one case at a time ---------------------------------------------------------------

def _dataset(n: int, broken: int | None = None) -> str:
    lines = [DATASET_MODELINE.rstrip("\n"), "questions:"]
    for i in range(n):
        lines += [f"  - id: case_{i}", f"    input: question {i}"]
        if i == broken:
            lines.append("    expecteed_facts: [x]")
    return "\n".join(lines) + "\n"


def test_cached_and_fresh_analyses_agree_after_an_edit() -> None:
    cache = CaseCache()
    before = _dataset(50)
    analyze_text(before, "d.yaml", OPTIONS, cache)
    after = _dataset(50, broken=20).replace("question 3\n", "question 3\n    extra_line: x\n")
    cached = analyze_text(after, "d.yaml", OPTIONS, cache)
    fresh = analyze_text(after, "d.yaml", OPTIONS)
    assert rows(cached.findings) == rows(fresh.findings)
    assert [(c.id, c.span) for c in cached.cases] == [(c.id, c.span) for c in fresh.cases]
    assert rows(fresh.findings) == [
        ("EY205", (45, 4, 45, 19), "unknown key 'expecteed_facts' in case 'case_20'; did you mean "
         "'expected_facts'? (an unknown key is ignored, so its value has no effect)")]
    assert cache.hits >= 45  # the unchanged cases were not analysed again


def test_case_summaries_locate_every_case() -> None:
    analysis = analyze_text(_dataset(3), "d.yaml", OPTIONS)
    assert [(c.id, c.span.start.line, c.id_span.start.line if c.id_span else None)
            for c in analysis.cases] == [("case_0", 2, 2), ("case_1", 4, 4), ("case_2", 6, 6)]


def test_duplicate_key_in_a_later_case_points_at_the_file_lines() -> None:
    """Cases are parsed on their own; the finding and its related place still use file lines,
    and the message names no (case-relative) line."""
    text = _dataset(5) + "  - id: dup\n    input: a\n    input: b\n"
    analysis = analyze_text(text, "d.yaml", OPTIONS)
    assert rows(analysis.findings) == [
        ("EY102", (14, 4, 14, 9), "duplicate key 'input': only the first 'input' in this mapping "
         "counts, this one is ignored")]
    assert [(r.span.start.line, r.message) for r in analysis.findings[0].related] == [
        (13, "first 'input' is here")]
