"""A format's cross check reads other files by name (`Format.cross_check`, `NamedFiles`).

The probe below stands in for the checks Every Eval Ever and Apastra make (a checksum over a
samples file, a digest over a dataset): it reads `notes.txt` beside a Padosoft eval set and
reports what it found. What is under test is the engine: the buffer wins over the disk, every
change to the file read re-runs the check and names the reader among the files to re-publish,
and no name leads outside the workspace roots.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pytest
from wshelpers import TODAY

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats import padosoft
from evalyaml.formats.base import NamedFiles
from evalyaml.syntax.text import Position, Span
from evalyaml.workspace.index import Workspace
from evalyaml.workspace.named import RecordingFiles

EVAL_SET = ('{"schema_version": "eval-harness.eval-set.v1", "name": "nightly", '
            '"datasets": ["faq"]}\n')
DATASET = "schema_version: eval-harness.dataset.v1\nname: faq\nsamples:\n" \
          "  - id: a\n    input: {question: q}\n    expected_output: x\n"
HERE = Span(Position(0, 0), Position(0, 1))


def probe(path: Path, analysis: FileAnalysis, files: NamedFiles,
          options: Options) -> Iterable[Finding]:
    sink = FindingSink(strict=options.strict)
    target = files.resolve(path.parent, "notes.txt")
    text = files.read_text(target) if target is not None else None
    sink.add("EY311", f"notes: {text!r}", HERE)
    return sink.findings


@pytest.fixture
def probed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Workspace:
    monkeypatch.setattr(padosoft.FORMAT, "cross_check", probe)
    (tmp_path / "eval" / "sets").mkdir(parents=True)
    (tmp_path / "eval" / "golden").mkdir()
    (tmp_path / "eval" / "sets" / "nightly.json").write_text(EVAL_SET)
    (tmp_path / "eval" / "golden" / "faq.yml").write_text(DATASET)
    (tmp_path / "eval" / "sets" / "notes.txt").write_text("first")
    workspace = Workspace([tmp_path], today=TODAY, workers=1)
    workspace.index_all()
    return workspace


def notes(workspace: Workspace, root: Path) -> list[str]:
    found = workspace.findings(root / "eval" / "sets" / "nightly.json")
    return [f.message for f in found if f.code == "EY311"]


def test_the_check_reads_the_disk_then_follows_every_change(probed: Workspace,
                                                            tmp_path: Path) -> None:
    eval_set = tmp_path / "eval" / "sets" / "nightly.json"
    note = tmp_path / "eval" / "sets" / "notes.txt"
    assert notes(probed, tmp_path) == ["notes: 'first'"]

    note.write_text("saved")
    assert probed.refresh(note) == {eval_set}
    assert notes(probed, tmp_path) == ["notes: 'saved'"]

    assert eval_set in probed.set_text(note, "typed, not saved")
    assert notes(probed, tmp_path) == ["notes: 'typed, not saved'"]
    assert probed.dependents(note) == {eval_set}

    assert eval_set in probed.close(note)
    assert notes(probed, tmp_path) == ["notes: 'saved'"]

    note.unlink()
    assert probed.refresh(note) == {eval_set}
    assert notes(probed, tmp_path) == ["notes: None"]

    note.write_text("created again")  # an absent file read is watched too
    assert probed.refresh(note) == {eval_set}
    assert notes(probed, tmp_path) == ["notes: 'created again'"]


def test_deleting_the_folder_re_runs_the_check(probed: Workspace, tmp_path: Path) -> None:
    assert notes(probed, tmp_path) == ["notes: 'first'"]
    sets = tmp_path / "eval" / "sets"
    (sets / "notes.txt").unlink()
    assert sets / "nightly.json" in probed.refresh(sets)  # a watcher reports the folder


def test_an_unrelated_change_does_not_re_run_it(probed: Workspace, tmp_path: Path) -> None:
    assert notes(probed, tmp_path) == ["notes: 'first'"]
    before = probed.stats_cross_computed
    other = tmp_path / "eval" / "golden" / "other.txt"
    other.write_text("x")
    assert probed.refresh(other) == set()
    assert notes(probed, tmp_path) == ["notes: 'first'"]
    assert probed.stats_cross_computed == before


class _NoIndex:
    def __init__(self, buffers: dict[Path, str] | None = None) -> None:
        self.buffers = buffers or {}

    def buffer_text(self, path: Path) -> str | None:
        return self.buffers.get(path)

    def analysis(self, path: Path) -> FileAnalysis | None:
        return None

    def definitions_of(self, kind: object, id: str) -> list[object]:
        return []


def test_names_never_lead_outside_the_roots(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (outside / "secret.txt").write_text("secret")
    os.symlink(outside / "secret.txt", root / "link.txt")
    files = RecordingFiles(_NoIndex(), [root])  # type: ignore[arg-type]

    assert files.resolve(root, "../outside/secret.txt") is None
    assert files.resolve(root, str(outside / "secret.txt")) is None
    assert files.resolve(root, "link.txt") is None  # a link inside that points outside
    assert files.read_bytes(outside / "secret.txt") is None
    assert files.read_text(root / "link.txt") is None
    assert files.open_binary(root / "link.txt") is None
    assert not files.exists(root / "link.txt")
    assert files.resolve(root, "sub/../kept.txt") == root / "kept.txt"
    assert {outside / "secret.txt", root / "link.txt"} <= files.read  # watched all the same


def test_an_open_buffer_keeps_the_disk_bytes_it_equals(tmp_path: Path) -> None:
    samples = tmp_path / "s.jsonl"
    samples.write_bytes(b"\xef\xbb\xbf{}\r\n")
    unchanged = RecordingFiles(_NoIndex({samples: "{}\r\n"}), [tmp_path])  # type: ignore[arg-type]
    assert unchanged.read_bytes(samples) == b"\xef\xbb\xbf{}\r\n"
    edited = RecordingFiles(_NoIndex({samples: "{}\r\n{}\r\n"}), [tmp_path])  # type: ignore[arg-type]
    assert edited.read_bytes(samples) == b"\xef\xbb\xbf{}\r\n{}\r\n"  # the BOM is kept
    stream = edited.open_binary(samples)
    assert stream is not None
    with stream:
        assert stream.read() == b"\xef\xbb\xbf{}\r\n{}\r\n"
    assert edited.read_text(samples) == "{}\r\n{}\r\n"
    assert RecordingFiles(_NoIndex(), [tmp_path]).read_text(samples) == "{}\r\n"  # type: ignore[arg-type]
