"""`evalyaml check | validate-* | schema`: output formats, exit codes, positions."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from evalyaml import __version__
from evalyaml.cli import main

REPO = Path(__file__).resolve().parents[2]
TODAY = "2026-11-21"
MODELINE = "# yaml-language-server: $schema=https://evalyaml.dev/schemas/v1/dataset.schema.json\n"

TYPO_DATASET = MODELINE + """questions:
  - id: reset_password
    input: I forgot my password.
    expecteed_facts: [The link expires after 30 minutes.]
"""
BROKEN_DATASET = MODELINE + """questions:
  - id: colon
    input: Status: where is my order?
    criteria: x
"""
DUPLICATE_RUBRIC = """id: dup
version: "1.0.0"
checks:
  - id: a
    kind: format
    format: json
  - id: a
    kind: php_lint
scoring:
  combine: all_pass
"""
CLEAN_JUDGE = """id: clean
version: "1.0.0"
score_type: binary
template: "{{ input }} {{ output }}"
validation:
  validated_at: 2026-11-01
"""
UNICODE_DATASET = MODELINE + """questions:
  - id: emoji
    input: "😀😀 where is my 📦?"
    expected: {note: "表格", format: yaml}
"""


@dataclass
class Run:
    code: int
    out: str
    err: str


@contextlib.contextmanager
def chdir(path: Path) -> Iterator[None]:
    before = Path.cwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(before)


def run(*args: str, cwd: Path) -> Run:
    out, err = io.StringIO(), io.StringIO()
    with chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exit_:  # argparse
            code = int(exit_.code or 0)
    return Run(code, out.getvalue(), err.getvalue())


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A small workspace: a dataset with a typo, a broken dataset, a rubric with a duplicate
    check id, a clean judge."""
    files = {
        "datasets/typo.yaml": TYPO_DATASET,
        "datasets/broken.yaml": BROKEN_DATASET,
        "rubrics/dup.yaml": DUPLICATE_RUBRIC,
        "judges/clean.yaml": CLEAN_JUDGE,
        "ci.yml": "on: push\njobs: {}\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "evalyaml.toml").write_text("", encoding="utf-8")
    return tmp_path


# -- text ---------------------------------------------------------------------------------------

def test_text_format_lines_are_one_based_with_summary(ws: Path) -> None:
    result = run("check", "--today", TODAY, cwd=ws)
    assert result.code == 1
    assert result.err == ""
    assert result.out.splitlines() == [
        "datasets/broken.yaml:4:18: error EY101 YAML syntax error: a ': ' inside a plain value "
        "starts a mapping here; quote the whole value",
        "datasets/typo.yaml:5:5: warning EY205 unknown key 'expecteed_facts' in case "
        "'reset_password'; did you mean 'expected_facts'? (an unknown key is ignored, so its "
        "value has no effect)",
        "rubrics/dup.yaml:7:9: warning EY211 check id 'a' is already used on line 4; check ids "
        "must be unique within a rubric",
        "    rubrics/dup.yaml:4:9: note: first check 'a'",
        "Checked by format: 4 evalyaml contract; 1 YAML/JSON file left alone as not eval "
        "files",
        "1 error, 2 warnings in 4 files checked",
    ]


def test_summary_wording(ws: Path) -> None:
    assert run("check", "judges", "--today", TODAY, cwd=ws).out == (
        "No problems: 1 file checked\n")
    assert run("check", "ci.yml", "--today", TODAY, cwd=ws).out == (
        "ci.yml: notice: not checked: no eval format recognises this file (see 'What it checks' "
        "in the README)\n"
        "Checked by format: none; 1 YAML/JSON file left alone as not eval files\n"
        "No problems: 0 files checked\n")
    assert run("check", "datasets/typo.yaml", "--today", TODAY, cwd=ws).out.splitlines()[-1] == (
        "1 warning in 1 file checked")
    assert run("check", "--strict", "datasets", "--today", TODAY,
               cwd=ws).out.splitlines()[-1] == "2 errors in 2 files checked"


def test_text_columns_count_code_points(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text(UNICODE_DATASET, encoding="utf-8")
    result = run("check", "d.yaml", "--today", TODAY, cwd=tmp_path)
    assert result.out.splitlines()[0] == (
        "d.yaml:5:36: warning EY203 'yaml' is not a valid format: expected one of json, text")


def test_crlf_file_positions(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_bytes(TYPO_DATASET.replace("\n", "\r\n").encode())
    result = run("check", "d.yaml", "--today", TODAY, "--format", "json", cwd=tmp_path)
    item = json.loads(result.out)[0]
    assert (item["code"], item["range"]) == ("EY205", {"start": {"line": 4, "character": 4},
                                                       "end": {"line": 4, "character": 19}})


def test_bom_file_columns_match_what_editors_show(tmp_path: Path) -> None:
    """Editors hide a UTF-8 byte-order mark (VS Code drops it from the document), so column 1 of
    line 1 is the first visible character, in the CLI as in the editor."""
    rubric = "descripton: x\n" + DUPLICATE_RUBRIC.replace("  - id: a\n    kind: php_lint",
                                                          "  - id: b\n    kind: php_lint")
    (tmp_path / "rubrics").mkdir()
    (tmp_path / "rubrics/dup.yaml").write_bytes(b"\xef\xbb\xbf" + rubric.encode())
    result = run("check", "rubrics/dup.yaml", "--today", TODAY, cwd=tmp_path)
    assert result.out.splitlines()[0].startswith("rubrics/dup.yaml:1:1: warning EY205 ")


# -- exit codes ---------------------------------------------------------------------------------

def test_exit_codes(ws: Path) -> None:
    assert run("check", "judges", "--today", TODAY, cwd=ws).code == 0  # clean
    assert run("check", "datasets/typo.yaml", "--today", TODAY, cwd=ws).code == 0  # warnings
    assert run("check", "--strict", "datasets/typo.yaml", "--today", TODAY, cwd=ws).code == 1
    assert run("check", "datasets/broken.yaml", "--today", TODAY, cwd=ws).code == 1  # error


@pytest.mark.parametrize("args", [
    ("validate-rubric", "missing.yaml"),
    ("check", "--format", "xml", "."),
    ("check", "--today", "21/11/2026", "."),
    ("validate-rubric",),
    ("schema", "workflow"),
    ("frobnicate",),
])
def test_usage_and_io_errors_exit_2(ws: Path, args: tuple[str, ...]) -> None:
    result = run(*args, cwd=ws)
    assert result.code == 2
    assert result.out == ""
    assert result.err.strip()
    assert "Traceback" not in result.err


def test_missing_path_message(ws: Path) -> None:
    assert run("validate-rubric", "missing.yaml", cwd=ws).err == (
        "evalyaml: no such file or directory: missing.yaml\n")
    # `check` (what pre-commit runs, with deleted files among those staged) skips it.
    done = run("check", "judges", "missing/", cwd=ws)
    assert (done.code, done.err) == (
        0, "evalyaml: notice: skipped missing: no such file or directory\n")


def test_version() -> None:
    result = run("--version", cwd=REPO)
    assert (result.code, result.out) == (0, f"evalyaml {__version__}\n")


# -- json ---------------------------------------------------------------------------------------

def test_json_shape_is_stable(ws: Path) -> None:
    result = run("check", "--format", "json", "--today", TODAY, cwd=ws)
    assert result.code == 1
    items = json.loads(result.out)
    assert items == [
        {"path": "datasets/broken.yaml",
         "range": {"start": {"line": 3, "character": 17}, "end": {"line": 3, "character": 37}},
         "severity": "error", "code": "EY101",
         "message": "YAML syntax error: a ': ' inside a plain value starts a mapping here; "
                    "quote the whole value"},
        {"path": "datasets/typo.yaml",
         "range": {"start": {"line": 4, "character": 4}, "end": {"line": 4, "character": 19}},
         "severity": "warning", "code": "EY205",
         "message": "unknown key 'expecteed_facts' in case 'reset_password'; did you mean "
                    "'expected_facts'? (an unknown key is ignored, so its value has no effect)",
         "fixes": [{"title": "Rename to 'expected_facts'", "safe": False, "edits": [
             {"range": {"start": {"line": 4, "character": 4},
                        "end": {"line": 4, "character": 19}},
              "newText": "expected_facts"}]}]},
        {"path": "rubrics/dup.yaml",
         "range": {"start": {"line": 6, "character": 8}, "end": {"line": 6, "character": 9}},
         "severity": "warning", "code": "EY211",
         "message": "check id 'a' is already used on line 4; check ids must be unique within a "
                    "rubric",
         "related": [{"path": "rubrics/dup.yaml",
                      "range": {"start": {"line": 3, "character": 8},
                                "end": {"line": 3, "character": 9}},
                      "message": "first check 'a'"}]},
    ]
    assert list(items[0]) == ["path", "range", "severity", "code", "message"]


def test_json_columns_are_code_points_and_text_is_not_escaped(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text(UNICODE_DATASET.replace("id: emoji", "id: 表情"),
                                     encoding="utf-8")
    result = run("check", "d.yaml", "--format", "json", "--today", TODAY, cwd=tmp_path)
    [item] = json.loads(result.out)
    assert item["range"] == {"start": {"line": 4, "character": 35},
                             "end": {"line": 4, "character": 39}}
    assert "表" not in result.out or "\\u" not in result.out


def test_json_empty_when_clean(ws: Path) -> None:
    result = run("check", "judges", "--format", "json", "--today", TODAY, cwd=ws)
    assert (result.code, result.out) == (0, "[]\n")


# -- github -------------------------------------------------------------------------------------

def test_github_annotations(ws: Path) -> None:
    result = run("check", "--format", "github", "--today", TODAY, cwd=ws)
    assert result.code == 1
    assert result.out.splitlines() == [
        "::error file=datasets/broken.yaml,line=4,col=18,endLine=4,endColumn=38,title=EY101::"
        "YAML syntax error: a ': ' inside a plain value starts a mapping here; quote the whole "
        "value",
        "::warning file=datasets/typo.yaml,line=5,col=5,endLine=5,endColumn=20,title=EY205::"
        "unknown key 'expecteed_facts' in case 'reset_password'; did you mean 'expected_facts'? "
        "(an unknown key is ignored, so its value has no effect)",
        "::warning file=rubrics/dup.yaml,line=7,col=9,endLine=7,endColumn=10,title=EY211::"
        "check id 'a' is already used on line 4; check ids must be unique within a rubric",
    ]
    assert run("check", "judges", "--format", "github", cwd=ws).out == ""


def test_github_escapes_percent_and_property_separators(tmp_path: Path) -> None:
    folder = tmp_path / "a,b:c%"
    (folder / "rubrics").mkdir(parents=True)
    (folder / "rubrics" / "pct.yaml").write_text(
        'id: pct\nversion: "1.0.0"\nchecks: [{kind: php_lint}]\nscoring: {combine: "50%"}\n',
        encoding="utf-8")
    result = run("check", "a,b:c%", "--format", "github", cwd=tmp_path)
    assert result.out == (
        "::warning file=a%2Cb%3Ac%25/rubrics/pct.yaml,line=4,col=20,endLine=4,endColumn=25,"
        "title=EY203::'50%25' is not a valid combine: expected one of all_pass, any_pass, "
        "weighted_avg, min, max, median\n")


# -- sarif --------------------------------------------------------------------------------------

def test_sarif_log(ws: Path) -> None:
    result = run("check", "--format", "sarif", "--today", TODAY, cwd=ws)
    assert result.code == 1
    log = json.loads(result.out)
    assert log["version"] == "2.1.0"
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    [sarif_run] = log["runs"]
    assert sarif_run["columnKind"] == "unicodeCodePoints"
    driver = sarif_run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("evalyaml", __version__)
    assert [r["id"] for r in driver["rules"]] == ["EY101", "EY205", "EY211"]
    assert driver["rules"][1] == {
        "id": "EY205", "name": "likely-typo",
        "shortDescription": {"text": "An unknown key is close to a known one."},
        "helpUri": "https://github.com/evalyaml/evalyaml/blob/main/docs/diagnostics.md#ey205"}
    results = sarif_run["results"]
    assert [(r["ruleId"], r["ruleIndex"], r["level"]) for r in results] == [
        ("EY101", 0, "error"), ("EY205", 1, "warning"), ("EY211", 2, "warning")]
    location = results[1]["locations"][0]["physicalLocation"]
    assert location == {"artifactLocation": {"uri": "datasets/typo.yaml"},
                        "region": {"startLine": 5, "startColumn": 5, "endLine": 5,
                                   "endColumn": 20}}
    related = results[2]["relatedLocations"]
    assert related == [{"id": 0, "message": {"text": "first check 'a'"}, "physicalLocation": {
        "artifactLocation": {"uri": "rubrics/dup.yaml"},
        "region": {"startLine": 4, "startColumn": 9, "endLine": 4, "endColumn": 10}}}]


def test_sarif_clean_run_has_no_rules(ws: Path) -> None:
    log = json.loads(run("check", "judges", "--format", "sarif", cwd=ws).out)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []


# -- validate-* ---------------------------------------------------------------------------------

def test_validate_forces_the_kind(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text(
        'id: x\nversion: "1.0.0"\ntemplate: "{{ inptu }}"\n', encoding="utf-8")
    assert run("check", "x.yaml", cwd=tmp_path).out.splitlines() == [
        "x.yaml: notice: not checked: no eval format recognises this file (see 'What it checks' "
        "in the README)",
        "Checked by format: none; 1 YAML/JSON file left alone as not eval files",
        "No problems: 0 files checked"]
    judge = run("validate-judge", "x.yaml", "--today", TODAY, cwd=tmp_path)
    assert (judge.code, judge.out) == (0, (
        "x.yaml:3:15: warning EY400 unknown template variable 'inptu'; did you mean "
        "'input'?\n1 warning in 1 file checked\n"))
    rubric = run("validate-rubric", "--strict", "x.yaml", cwd=tmp_path)
    assert rubric.code == 1
    assert [line.split()[2] for line in rubric.out.splitlines()[:-1]] == [
        "EY201", "EY201"]  # checks and scoring missing
    dataset = run("validate-dataset", "x.yaml", "--format", "json", cwd=tmp_path)
    assert [(i["code"], i["message"]) for i in json.loads(dataset.out)] == [
        ("EY201", "the dataset is missing required key 'questions'")]


def test_validate_several_files(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.yaml").write_text(DUPLICATE_RUBRIC.replace("id: dup", f"id: {name}"),
                                               encoding="utf-8")
    result = run("validate-rubric", "a.yaml", "b.yaml", cwd=tmp_path)
    assert result.out.splitlines()[-1] == "2 warnings in 2 files checked"


# -- schema -------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["dataset", "rubric", "judge"])
def test_schema_prints_the_shipped_schema(kind: str) -> None:
    result = run("schema", kind, cwd=REPO)
    assert result.code == 0
    printed = json.loads(result.out)
    assert printed == json.loads((REPO / "schemas" / f"{kind}.schema.json").read_text("utf-8"))
    assert printed["$id"] == f"https://evalyaml.dev/schemas/v1/{kind}.schema.json"
    assert printed["$schema"] == "https://json-schema.org/draft/2020-12/schema"


# -- the real entry points ----------------------------------------------------------------------

def test_console_script_and_module_entry_points(ws: Path) -> None:
    script = Path(sys.executable).with_name("evalyaml")
    for command in ([str(script)], [sys.executable, "-m", "evalyaml"]):
        done = subprocess.run([*command, "check", "--today", TODAY], cwd=ws, capture_output=True,
                              text=True, timeout=60, check=False)
        assert (done.returncode, done.stderr) == (1, "")
        assert done.stdout.splitlines()[-1] == "1 error, 2 warnings in 4 files checked"


def test_output_to_a_closed_pipe_is_quiet(ws: Path) -> None:
    done = subprocess.run(
        f"'{sys.executable}' -m evalyaml check --format sarif --today {TODAY} | head -c 10",
        shell=True, cwd=ws, capture_output=True, text=True, timeout=60, check=False)
    assert "Traceback" not in done.stderr


CORPUS = Path("/work/shared/corpus")


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not on this machine")
def test_corpus_of_other_projects_checks_silently() -> None:
    """~300 eval files from other projects (promptfoo, AgentV, Apastra, openai/evals,
    lm-evaluation-harness, ...): outside the folders of the formats evalyaml serves, nothing is
    reported, folder or file."""
    result = run("check", str(CORPUS), "--format", "json", cwd=REPO)
    # The AgentV, Apastra, Every Eval Ever and lm-eval folders are their formats' own (the corpus
    # tests in tests/formats/ list each finding there with the upstream rule that makes it true).
    own = ("agentv", "agentv-head", "apastra", "every_eval_ever", "lm-evaluation-harness")
    findings = json.loads(result.out)
    errors = [f for f in findings if f["severity"] == "error"]
    assert (result.code, result.err) == (1 if errors else 0, "")
    assert [f for f in findings
            if Path(f["path"]).resolve().relative_to(CORPUS.resolve()).parts[0] not in own] == []
    yaml_files = sorted(p for p in CORPUS.rglob("*") if p.suffix in (".yaml", ".yml")
                        and p.relative_to(CORPUS).parts[0] not in own)
    assert len(yaml_files) >= 25  # openai/evals, promptfoo, inspect_ai, padosoft, ...
    result = run("check", *map(str, yaml_files), "--today", TODAY, cwd=REPO)
    assert (result.code, result.err) == (0, "")
    lines = result.out.splitlines()
    # Files no format claims are named as not checked; those a format claims have no finding.
    assert all(line.endswith(": notice: not checked: no eval format recognises this file "
                             "(see 'What it checks' in the README)")
               for line in lines[:-2]), lines
    assert re.fullmatch(r"Checked by format: .*; \d+ YAML/JSON files left alone as not eval "
                        r"files", lines[-2])
    assert re.fullmatch(r"No problems: \d+ files? checked", lines[-1])


def test_a_near_miss_is_reported_and_counted_apart(tmp_path: Path) -> None:
    (tmp_path / "d.yaml").write_text("questons:\n  - id: a\n    input: hi\n", encoding="utf-8")
    (tmp_path / "ci.yml").write_text("on: push\n", encoding="utf-8")
    result = run("check", ".", "--today", TODAY, cwd=tmp_path)
    assert (result.code, result.out.splitlines()) == (0, [
        "d.yaml:1:1: warning EY312 this looks like an evalyaml dataset, but its root key is "
        "'questons', not 'questions', so it was not recognised and none of its cases were "
        "checked",
        "Checked by format: none; 1 near miss not checked (EY312); 1 YAML/JSON file left alone "
        "as not eval files",
        "1 warning in 1 file checked"])
