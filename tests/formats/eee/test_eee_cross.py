"""What binds an aggregate to its samples file, on a real workspace: the checksum and row count
recomputed over the samples file (its open buffer first), every row's ids, the fixes, and the
bounded-memory count and digest."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pytest

from evalyaml.cli import main as cli_main
from evalyaml.core.findings import Finding, Fix
from evalyaml.core.incremental import CaseCache
from evalyaml.core.options import Options
from evalyaml.formats.eee import FORMAT, SAMPLES, cross
from evalyaml.formats.eee import rows as rows_module
from evalyaml.formats.eee.rows import check_samples
from evalyaml.ide.navigation import references
from evalyaml.ide.source import Text
from evalyaml.syntax.text import LineIndex, Position
from evalyaml.workspace.index import Workspace

UUID = "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b"
FOLDER = "data/arith/org/model"
FILE_PATH = f"{FOLDER}/{UUID}_samples.jsonl"


def row(sample: str, *, evaluation_id: str = "arith/org_model/1", model_id: str = "org/model"
        ) -> str:
    return json.dumps({
        "schema_version": "0.3.0", "evaluation_id": evaluation_id, "model_id": model_id,
        "evaluation_name": "arith", "sample_id": sample, "interaction_type": "single_turn",
        "input": {"raw": f"q {sample}", "reference": ["a"]}, "output": {"raw": ["a"]},
        "answer_attribution": [], "evaluation": {"score": 1, "is_correct": True}})


def aggregate(checksum: str, rows: int, *, algorithm: str = "sha256",
              file_path: str = FILE_PATH) -> str:
    return json.dumps({
        "schema_version": "0.3.0", "evaluation_id": "arith/org_model/1",
        "retrieved_timestamp": "1", "source_metadata": {
            "source_type": "evaluation_run", "source_organization_name": "org",
            "evaluator_relationship": "first_party"},
        "eval_library": {"name": "inspect_ai", "version": "0.3"},
        "model_info": {"name": "model", "id": "org/model", "additional_details": {
            "deployment_type": "externally_managed", "model_availability": "open_weights"}},
        "evaluation_results": [],
        "detailed_evaluation_results": {"format": "jsonl", "file_path": file_path,
                                        "hash_algorithm": algorithm, "checksum": checksum,
                                        "total_rows": rows}}, indent=2) + "\n"


def datastore(tmp_path: Path, samples: bytes, *, algorithm: str = "sha256",
              rows: int | None = None, file_path: str = FILE_PATH) -> tuple[Path, Path]:
    (tmp_path / "evalyaml.toml").write_text("")
    folder = tmp_path / FOLDER
    folder.mkdir(parents=True)
    samples_path = folder / f"{UUID}_samples.jsonl"
    samples_path.write_bytes(samples)
    digest = hashlib.new(algorithm, samples).hexdigest()
    count = rows if rows is not None else sum(1 for line in samples.splitlines() if line.strip())
    aggregate_path = folder / f"{UUID}.json"
    aggregate_path.write_text(aggregate(digest, count, algorithm=algorithm, file_path=file_path))
    return aggregate_path, samples_path


def codes(workspace: Workspace, path: Path) -> list[str]:
    return sorted(f.code for f in workspace.findings(path))


def apply(text: str, fix: Fix) -> str:
    lines = LineIndex(text)
    for edit in sorted(fix.edits, key=lambda e: (e.span.start.line, e.span.start.character),
                       reverse=True):
        start = lines.offset(edit.span.start)
        end = lines.offset(edit.span.end)
        text = text[:start] + edit.new_text + text[end:]
    return text


def only(findings: list[Finding], code: str) -> Finding:
    found = [f for f in findings if f.code == code]
    assert len(found) == 1, findings
    return found[0]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_datastore_that_agrees_is_clean(tmp_path: Path, newline: str) -> None:
    body = (newline.join(row(f"s{i}") for i in range(3)) + newline).encode()
    agg, samples = datastore(tmp_path, body)
    workspace = Workspace([tmp_path])
    workspace.index_all()
    assert codes(workspace, agg) == []
    assert codes(workspace, samples) == []


def test_md5_is_the_declared_algorithm(tmp_path: Path) -> None:
    agg, _ = datastore(tmp_path, (row("s1") + "\n").encode(), algorithm="md5")
    workspace = Workspace([tmp_path])
    workspace.index_all()
    assert codes(workspace, agg) == []


def test_typing_in_the_samples_file_rechecks_its_aggregate(tmp_path: Path) -> None:
    agg, samples = datastore(tmp_path, (row("s1") + "\n").encode())
    workspace = Workspace([tmp_path])
    workspace.index_all()
    assert codes(workspace, agg) == []  # published once, as the editor does: the read is known
    edited = row("s1") + "\n" + row("s2") + "\n\n"
    touched = workspace.set_text(samples, edited)
    assert agg in touched
    findings = workspace.findings(agg)
    assert sorted(f.code for f in findings) == ["EY721", "EY722"]
    rows = only(findings, "EY722")
    assert rows.message == f"total_rows is 1 but {UUID}_samples.jsonl has 2 non-blank lines"
    checksum = only(findings, "EY721")
    digest = hashlib.sha256(edited.encode()).hexdigest()
    assert digest in checksum.message
    text = agg.read_text()
    written = json.loads(text)["detailed_evaluation_results"]
    for finding, value in ((checksum, f'"{written["checksum"]}"'), (rows, "1")):
        start, end = finding.span
        assert start.line == end.line
        assert text.splitlines()[start.line][start.character:end.character] == value
    fixed = apply(apply(text, checksum.fixes[0]), rows.fixes[0])
    assert json.loads(fixed)["detailed_evaluation_results"]["checksum"] == digest
    assert json.loads(fixed)["detailed_evaluation_results"]["total_rows"] == 2
    workspace.set_text(agg, fixed)
    assert codes(workspace, agg) == []
    # Closing the buffer goes back to the disk, which still has one row.
    workspace.close(samples)
    assert codes(workspace, agg) == ["EY721", "EY722"]


def test_a_missing_samples_file_is_an_error_on_the_path(tmp_path: Path) -> None:
    agg, samples = datastore(tmp_path, (row("s1") + "\n").encode())
    samples.unlink()
    workspace = Workspace([tmp_path])
    workspace.index_all()
    finding = only(workspace.findings(agg), "EY720")
    line = agg.read_text().splitlines()[finding.span.start.line]
    assert line[finding.span.start.character:finding.span.end.character] == f'"{FILE_PATH}"'
    samples.write_bytes((row("s1") + "\n").encode())
    assert agg in workspace.refresh(samples)
    assert codes(workspace, agg) == []


def test_a_path_outside_the_workspace_is_not_read(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (tmp_path / "secret.jsonl").write_text(row("s1") + "\n")
    agg, _ = datastore(root, (row("s1") + "\n").encode(), file_path="../secret.jsonl")
    workspace = Workspace([root])
    workspace.index_all()
    finding = only(workspace.findings(agg), "EY720")
    assert "leads outside the workspace" in finding.message


def test_rows_whose_ids_disagree_point_at_the_aggregate(tmp_path: Path) -> None:
    body = "\n".join([row("s1"), row("s2", evaluation_id="other"),
                      row("s3", model_id="org/else")]) + "\n"
    agg, samples = datastore(tmp_path, body.encode())
    workspace = Workspace([tmp_path])
    workspace.index_all()
    findings = workspace.findings(samples)
    assert sorted((f.code, f.span.start.line) for f in findings) == [("EY723", 1),
                                                                       ("EY724", 2)]
    wrong_id = only(findings, "EY723")
    assert wrong_id.related[0].path == str(agg)
    fixed = apply(body, wrong_id.fixes[0])
    assert json.loads(fixed.splitlines()[1])["evaluation_id"] == "arith/org_model/1"
    # Editing the aggregate re-checks the rows.
    text = agg.read_text().replace('"evaluation_id": "arith/org_model/1"',
                                   '"evaluation_id": "other"')
    assert samples in workspace.set_text(agg, text)
    assert sorted((f.code, f.span.start.line) for f in workspace.findings(samples)) == [
        ("EY723", 0), ("EY723", 2), ("EY724", 2)]


def test_the_sample_hash_fix_writes_the_canonical_recipe() -> None:
    data = json.loads(row("s1"))
    data["sample_hash"] = "0" * 64
    text = json.dumps(data) + "\n"
    analysis = FORMAT.analyze(text, f"{FOLDER}/{UUID}_samples.jsonl", SAMPLES, Options())
    finding = only(analysis.findings, "EY725")
    fixed = apply(text, finding.fixes[0])
    assert FORMAT.analyze(fixed, f"{FOLDER}/{UUID}_samples.jsonl", SAMPLES,
                          Options()).findings == []
    payload = json.dumps({"raw": "q s1", "reference": ["a"]}, sort_keys=True,
                         separators=(",", ":"))
    assert json.loads(fixed)["sample_hash"] == hashlib.sha256(payload.encode()).hexdigest()


@pytest.mark.parametrize("recipe", ["default-separators", "helm", "inspect", "string-ref"])
def test_every_known_sample_hash_recipe_is_accepted(recipe: str) -> None:
    raw, reference = "q", ["a", "b"]
    payload = {
        "default-separators": json.dumps({"raw": raw, "reference": reference}, sort_keys=True),
        "helm": raw + reference[0],
        "inspect": raw + "".join(reference),
        "string-ref": json.dumps({"raw": raw, "reference": ["a"]}, sort_keys=True,
                                 separators=(",", ":")),
    }[recipe]
    data = json.loads(row("s1"))
    data["schema_version"] = "0.2.0"
    data["input"] = {"raw": raw, "reference": "a" if recipe == "string-ref" else reference}
    data["output"] = {"raw": "a"}
    if recipe != "string-ref":
        data["schema_version"] = "0.2.2"
        data["output"] = {"raw": ["a"]}
    data["sample_hash"] = hashlib.sha256(payload.encode()).hexdigest()
    analysis = FORMAT.analyze(json.dumps(data), "x_samples.jsonl", SAMPLES, Options())
    assert analysis.findings == []


class _Files:
    """Just enough of NamedFiles for the streaming reader."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def open_binary(self, path: Path) -> io.BytesIO:
        return io.BytesIO(self.data)


@pytest.mark.parametrize("data", [b"", b"\n", b"a", b"a\n", b"a\r\nb\r\n", b"a\rb", b" \t\n\n",
                                  b"a\n  \nb", b"\r\n" * 5 + b"x", b"x\r", b"x\r\r\ny"])
@pytest.mark.parametrize("chunk", [1, 2, 3, 1 << 20])
def test_rows_and_digest_are_streamed_in_chunks(data: bytes, chunk: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cross, "_CHUNK", chunk)
    digest, rows = cross._digest_and_rows(_Files(data), Path("x"), "sha256")  # type: ignore[arg-type]
    expected = sum(1 for line in data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")
                   if line.strip())
    assert (digest, rows) == (hashlib.sha256(data).hexdigest(), expected)


def test_an_edit_re_analyses_only_the_lines_it_touched(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A 2,000-row samples file in the editor: typing in one row checks that row again, and
    no other (the rest come from the line cache); the findings are a fresh analysis's."""
    lines = [row(f"s{i}") for i in range(2000)]
    agg, samples = datastore(tmp_path, ("\n".join(lines) + "\n").encode())
    workspace = Workspace([tmp_path])
    workspace.index_all()
    assert codes(workspace, samples) == []
    checked: list[str] = []
    real = rows_module.check_row

    def counting(text: str, *, strict: bool) -> object:
        checked.append(text)
        return real(text, strict=strict)

    monkeypatch.setattr(rows_module, "check_row", counting)
    cache = CaseCache()  # the editor keeps one per open document
    workspace.set_text(samples, "\n".join(lines) + "\n", cache)  # opened: each line read once
    checked.clear()
    edited = list(lines)
    edited[1500] = edited[1500].replace('"single_turn"', '"single-turn"')
    workspace.set_text(samples, "\n".join(edited) + "\n", cache)
    assert checked == [edited[1500]]
    found = workspace.findings(samples)
    assert [(f.code, f.span.start.line) for f in found] == [("EY703", 1500)]
    edited[1500] = lines[1500]
    edited.insert(10, row("new"))
    checked.clear()
    workspace.set_text(samples, "\n".join(edited) + "\n", cache)
    assert checked == [row("new")]
    assert sorted(codes(workspace, agg)) == ["EY721", "EY722"]
    # The cases the editor keeps between edits (symbols) are a fresh analysis's, moved lines
    # included.
    for step in (lambda: edited.pop(3), lambda: edited.__setitem__(7, row("x7"))):
        step()
        workspace.set_text(samples, "\n".join(edited) + "\n", cache)
        kept = workspace.analysis(samples)
        assert kept is not None
        assert kept.cases == check_samples("\n".join(edited) + "\n", strict=False,
                                           cache=None).cases


def test_the_graph_names_eee_files_by_relative_path_with_one_edge_per_direction(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`evalyaml graph` shows an aggregate and its samples file by the path the user typed from
    (as every other node), not by the absolute id the index keeps; three rows naming their
    aggregate are one edge."""
    datastore(tmp_path, ("\n".join(row(f"s{i}") for i in range(3)) + "\n").encode())
    monkeypatch.chdir(tmp_path)
    assert cli_main(["graph", "--format", "json", "."]) == 0
    drawn = json.loads(capsys.readouterr().out)
    assert str(tmp_path) not in json.dumps(drawn)
    samples = f"Every Eval Ever samples file '{FOLDER}/{UUID}_samples.jsonl'"
    whole = f"Every Eval Ever aggregate '{FOLDER}/{UUID}.json'"
    assert sorted((e["from"], e["to"], e["origin"]) for e in drawn["edges"]) == [
        (whole, samples, "file_path"), (samples, whole, "evaluation_id")]


def test_a_byte_order_mark_is_one_finding_on_the_file_that_has_it(tmp_path: Path) -> None:
    """every_eval_ever reads files as `utf-8` and `json.loads` refuses a BOM: the aggregate
    fails whole, a samples file on its first line. The mark is in the bytes, not in the text
    editors show, so the finding sits on the first character."""
    body = (row("s1") + "\n").encode()
    agg, samples = datastore(tmp_path, b"\xef\xbb\xbf" + body)
    agg.write_bytes(b"\xef\xbb\xbf" + agg.read_bytes())
    workspace = Workspace([tmp_path])
    workspace.index_all()
    for path, what in ((agg, "the whole file"), (samples, "its first line")):
        finding = only(workspace.findings(path), "EY729")
        assert (finding.span.start.line, finding.span.start.character,
                finding.span.end.line, finding.span.end.character) == (0, 0, 0, 1)
        assert f"refuses {what}" in finding.message


def test_find_references_from_an_aggregate_lists_its_rows(tmp_path: Path) -> None:
    """A samples row leads to the aggregate beside it (go to definition, in the fixtures);
    from the aggregate's `evaluation_id`, find references lists every row."""
    agg, samples = datastore(tmp_path, ("\n".join(row(f"s{i}") for i in range(3)) + "\n")
                             .encode())
    workspace = Workspace([tmp_path])
    workspace.index_all()
    text = agg.read_text()
    line = next(i for i, t in enumerate(text.splitlines()) if '"evaluation_id"' in t)
    column = text.splitlines()[line].index("arith/")
    listed = references(workspace, Text(text, agg), workspace.analysis(agg),
                        Position(line, column), include_declaration=False)
    assert sorted((t.path, t.span.start.line) for t in listed) == [
        (samples, 0), (samples, 1), (samples, 2)]


def test_an_edit_in_place_keeps_the_rows_references() -> None:
    """A row edit the short way absorbs (same ids, same columns) reuses the rows' references
    to the aggregate: a 20,000-row file does not rebuild 20,000 of them per keystroke."""
    lines = [row(f"s{i}") for i in range(2000)]
    path = f"{FOLDER}/{UUID}_samples.jsonl"
    cache, options = CaseCache(), Options()
    first = FORMAT.analyze("\n".join(lines) + "\n", path, SAMPLES, options, cache=cache)
    lines[5] = lines[5].replace('"q s5"', '"q s5?"')
    second = FORMAT.analyze("\n".join(lines) + "\n", path, SAMPLES, options, cache=cache)
    assert second.references is first.references and len(first.references) == 2000
    lines[7] = row("s7", evaluation_id="other")
    third = FORMAT.analyze("\n".join(lines) + "\n", path, SAMPLES, options, cache=cache)
    assert third.references is not first.references
    assert [r.raw for r in third.references].count("other") == 1
