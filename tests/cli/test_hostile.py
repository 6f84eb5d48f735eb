"""Hostile files through the real CLI: a located finding or a clean pass within seconds, never a
traceback. Each file lives alone in its own workspace (a folder with an empty evalyaml.toml), so
the check reads nothing else. Large inputs are generated here, in tmp_path."""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from evalyaml.core.codes import CODE_PATTERN

TODAY = "2026-11-21"
MODELINE = b"# yaml-language-server: $schema=https://evalyaml.dev/schemas/v1/dataset.schema.json\n"
TIMEOUT = 20  # seconds; a hang fails the test instead of the suite
FINDING = re.compile(r"^(?P<path>[^\s:]+):(?P<line>\d+):(?P<col>\d+): "
                     r"(?P<severity>error|warning|information|hint) "
                     rf"(?P<code>{CODE_PATTERN.pattern}) \S")


@dataclass
class Outcome:
    code: int
    out: str
    err: str
    seconds: float

    @property
    def findings(self) -> list[tuple[str, int, int, str, str]]:
        found = []
        for line in self.out.splitlines():
            match = FINDING.match(line)
            if match:
                found.append((match["path"], int(match["line"]), int(match["col"]),
                              match["severity"], match["code"]))
        return found


def check(tmp_path: Path, name: str, data: bytes, *args: str) -> Outcome:
    (tmp_path / "evalyaml.toml").write_bytes(b"")
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "evalyaml", *(args or ("check",)), "--today", TODAY, name],
        cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT, check=False,
        env={**os.environ, "PYTHONFAULTHANDLER": "1"})
    outcome = Outcome(done.returncode, done.stdout, done.stderr, time.perf_counter() - started)
    assert "Traceback" not in outcome.err and "Fatal Python error" not in outcome.err
    assert outcome.err == ""
    assert outcome.code in (0, 1), outcome
    lines = outcome.out.splitlines()
    assert lines, "no output at all"
    assert re.match(r"^(No problems: \d+ files? checked|.* in \d+ files? checked)$", lines[-1])
    if outcome.code == 1:
        assert outcome.findings, "exit 1 without a located finding"
    for found_path, line, col, _, _ in outcome.findings:
        assert found_path == name
        assert line >= 1 and col >= 1
    return outcome


NOT_CHECKED = (": notice: not checked: no eval format recognises this file (see 'What it checks' "
               "in the README)")
LEFT_ALONE_ONE = "Checked by format: none; 1 YAML/JSON file left alone as not eval files"


def codes(outcome: Outcome) -> list[str]:
    return [f[4] for f in outcome.findings]


def test_empty_file(tmp_path: Path) -> None:
    assert check(tmp_path, "empty.yaml", b"").out.splitlines() == [
        f"empty.yaml{NOT_CHECKED}", LEFT_ALONE_ONE, "No problems: 0 files checked"]


def test_empty_file_in_rubrics_folder(tmp_path: Path) -> None:
    outcome = check(tmp_path, "rubrics/empty.yaml", b"")
    assert outcome.code == 0


def test_binary_bytes(tmp_path: Path) -> None:
    data = bytes(random.Random(7).randrange(256) for _ in range(64 * 1024)) + b"\x00"
    assert check(tmp_path, "blob.yaml", data).out.splitlines() == [
        f"blob.yaml{NOT_CHECKED}", LEFT_ALONE_ONE, "No problems: 0 files checked"]
    outcome = check(tmp_path, "rubrics/blob.yaml", data)
    assert outcome.findings == [("rubrics/blob.yaml", 1, 1, "error", "EY100")]


def test_invalid_utf8(tmp_path: Path) -> None:
    outcome = check(tmp_path, "judges/latin1.yaml",
                    b'id: caf\xe9\nversion: "1.0.0"\ntemplate: x\n')
    assert outcome.findings == [("judges/latin1.yaml", 1, 1, "error", "EY100")]
    assert "byte 0xe9 at line 1" in outcome.out


def test_invalid_utf8_dataset_named_explicitly(tmp_path: Path) -> None:
    data = MODELINE + b"questions:\n  - id: cafe\n    input: Caf\xe9 au lait\n"
    outcome = check(tmp_path, "support.yaml", data)
    assert codes(outcome) in ([], ["EY100"])


def test_fifty_megabyte_dataset(tmp_path: Path) -> None:
    case = b"  - id: case_%07d\n    input: What is the refund window for order ORD-%06d?\n"
    body = b"".join(case % (n, n) for n in range(660_000))
    data = MODELINE + b"questions:\n" + body
    assert len(data) >= 50 * 1024 * 1024
    outcome = check(tmp_path, "huge.yaml", data)
    assert outcome.seconds < 10
    assert outcome.findings == [("huge.yaml", 1, 1, "error", "EY107")]
    assert "the file is 50." in outcome.out and "over the 20 MB limit" in outcome.out


def test_fifty_megabyte_foreign_file_in_a_workspace(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "dump.yaml").write_bytes(b"- {k: v, n: 12345678}\n" * 2_400_000)
    outcome = check(tmp_path, "judges/ok.yaml",
                    b'id: ok\nversion: "1.0.0"\nscore_type: binary\ntemplate: "{{ output }}"\n',
                    "check")
    assert outcome.seconds < 10
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", "--today", TODAY],
                          cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT,
                          check=False)
    assert (done.returncode, done.stderr, done.stdout) == (
        0, "", "Checked by format: 1 evalyaml contract; 1 YAML/JSON file left alone as not eval "
        "files\nNo problems: 1 file checked\n")


def test_alias_bomb(tmp_path: Path) -> None:
    lines = [b"a: &a [x,x,x,x,x,x,x,x,x,x]"]
    for name, prev in zip("bcdefghi", "abcdefgh", strict=True):
        lines.append(f"{name}: &{name} [".encode() + b",".join([f"*{prev}".encode()] * 10) + b"]")
    bomb = b"\n".join(lines) + b"\n"  # 10^9 nodes once expanded
    outcome = check(tmp_path, "bomb.yaml", MODELINE + bomb + b"questions:\n  - {id: a, input: b}\n")
    assert outcome.seconds < 10
    assert codes(outcome) == ["EY104"]
    outcome = check(tmp_path, "rubrics/bomb.yaml", bomb + b"checks: [*i]\nscoring: {}\n")
    assert codes(outcome) == ["EY104"]


def test_nesting_ten_thousand_deep_flow(tmp_path: Path) -> None:
    data = (MODELINE + b"questions:\n  - id: deep\n    input: " + b"[" * 10_000 + b"]" * 10_000
            + b"\n")
    outcome = check(tmp_path, "deep.yaml", data)
    assert outcome.findings == [("deep.yaml", 4, 268, "error", "EY105")]


def test_nesting_ten_thousand_deep_block(tmp_path: Path) -> None:
    data = MODELINE + b"questions:\n  - id: deep\n    input:\n      " + b"- " * 10_000 + b"x\n"
    outcome = check(tmp_path, "deep.yaml", data)
    assert codes(outcome) == ["EY105"]
    assert outcome.findings[0][1] == 5


def test_nesting_ten_thousand_deep_mappings(tmp_path: Path) -> None:
    # `id` makes the rubrics/ folder claim it (a file with none of a rubric's keys is not one).
    data = b"id: deep\n" + b"".join(b" " * n + b"k:\n" for n in range(10_000))
    outcome = check(tmp_path, "rubrics/deep.yaml", data)
    assert codes(outcome) in (["EY105"], ["EY107"])


def test_tabs_for_indentation(tmp_path: Path) -> None:
    data = MODELINE + b"questions:\n  - id: reset_password\n\tinput: I forgot my password.\n"
    outcome = check(tmp_path, "tabs.yaml", data)
    assert outcome.findings == [("tabs.yaml", 4, 1, "error", "EY106")]


@pytest.mark.parametrize(("name", "data"), [
    ("cr_only.yaml", MODELINE.replace(b"\n", b"\r") + b"questions:\r  - id: a\r    inptu: b\r"),
    ("nul_only.yaml", b"\x00" * 1000),
    ("long_line.yaml", MODELINE + b"questions:\n  - id: a\n    input: " + b"x" * 2_000_000 + b"\n"),
    ("many_keys.yaml", MODELINE + b"questions:\n  - id: a\n    input: b\n"
     + b"".join(b"    k%d: v\n" % n for n in range(100_000))),
    ("separators.yaml", MODELINE + "questions:\n  - id: a\n    input: |\n      x\u2028y\u0085z\n"
     .encode()),
    ("utf16.yaml", "questions:\n  - id: a\n".encode("utf-16")),
    ("control_chars.yaml", MODELINE + b"questions:\n  - id: a\x07\x1b[31m\n    input: b\n"),
    ("only_bom.yaml", b"\xef\xbb\xbf"),
    ("unclosed.yaml", MODELINE + b"questions:\n  - id: a\n    input: \"" + b"x\n" * 10_000),
])
def test_more_hostile_files(tmp_path: Path, name: str, data: bytes) -> None:
    outcome = check(tmp_path, name, data)
    assert outcome.seconds < 10
