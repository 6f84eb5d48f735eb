"""Command-line overrides and SARIF paths that tools must be able to parse."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from evalyaml.cli import main

TYPO = "questions:\n  - id: a\n    input: x\n    expecteed_facts: [y]\n"


def test_no_strict_overrides_a_strict_config(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "evalyaml.toml").write_text("strict = true\n", "utf-8")
    (tmp_path / "d.yaml").write_text(TYPO, "utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "d.yaml"]) == 1
    assert "error EY205" in capsys.readouterr().out
    assert main(["check", "d.yaml", "--no-strict"]) == 0
    assert "warning EY205" in capsys.readouterr().out


def test_sarif_uris_are_percent_encoded(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "a b#c"
    folder.mkdir()
    (folder / "d.yaml").write_text(TYPO, "utf-8")
    monkeypatch.chdir(tmp_path)
    main(["check", "--format", "sarif", "a b#c"])
    log = json.loads(capsys.readouterr().out)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in log["runs"][0]["results"]]
    assert uris == ["a%20b%23c/d.yaml"]


def test_sarif_uri_outside_the_current_folder_is_a_file_uri(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "d.yaml").write_text(TYPO, "utf-8")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    main(["check", "--format", "sarif", os.fspath(tmp_path / "ws")])
    log = json.loads(capsys.readouterr().out)
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert uri["uri"] == (tmp_path / "ws" / "d.yaml").as_uri()
