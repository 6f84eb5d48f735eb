"""A check of one folder whose tasks include a template outside it (`include: ../common/x`, 390
of upstream's task files): the template is outside the workspace roots, so it is not read, and
nothing it might hold (`doc_to_text`, `output_type`, `class`) may be judged absent."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

TEMPLATE = """output_type: multiple_choice
doc_to_text: "{{q}}"
doc_to_choice: ["2", "4"]
doc_to_target: 0
dataset_path: json
"""
TASK = """include: ../common/_mc.yaml
task: t14
metric_list:
  - metric: acc
    aggregation: mean
"""


def _check(path: Path) -> list[dict[str, object]]:
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", str(path), "--format",
                           "json"], capture_output=True, text=True, timeout=120, check=False)
    found: list[dict[str, object]] = json.loads(done.stdout)
    return found


def test_a_template_outside_the_checked_folder_hides_no_key(tmp_path: Path) -> None:
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "_mc.yaml").write_text(TEMPLATE, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "t14.yaml").write_text(TASK, encoding="utf-8")
    assert _check(tmp_path / "sub") == []
    assert _check(tmp_path) == []


def test_the_same_task_without_its_template_is_judged(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "t14.yaml").write_text(TASK, encoding="utf-8")
    assert [f["code"] for f in _check(tmp_path)] == ["EYLM003"]
