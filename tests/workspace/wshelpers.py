"""Helpers for workspace tests: real files in tmp_path, no mocked file system."""

from __future__ import annotations

import textwrap
from datetime import date
from pathlib import Path

from evalyaml.core.findings import Finding
from evalyaml.workspace.index import Workspace

TODAY = date(2026, 11, 21)


def rubric(rubric_id: str, version: str = "1.0.0", *, composite: list[str] | None = None,
           judge: str | None = None) -> str:
    checks = ["  - id: has_json\n    kind: format\n    format: json\n"]
    for index, ref in enumerate(composite or []):
        checks.append(f"  - id: inc_{index}\n    kind: composite\n    rubric_ref: {ref}\n")
    if judge:
        checks.append(f"  - id: judged\n    kind: llm_judge\n    judge_prompt_ref: {judge}\n")
    return (f'id: {rubric_id}\nversion: "{version}"\nchecks:\n{"".join(checks)}'
            "scoring:\n  combine: all_pass\n")


def judge(judge_id: str, version: str = "1.0.0", *, validated_at: str | None = "2026-11-01"
          ) -> str:
    text = (f'id: {judge_id}\nversion: "{version}"\nscore_type: binary\n'
            "template: |\n  {{ input }} {{ output }} PASS or FAIL?\n")
    if validated_at is not None:
        text += ("validation:\n  tpr: 0.9\n  tnr: 0.9\n  validated_against: gold\n"
                 f'  validated_at: "{validated_at}"\n  sample_size: 100\n')
    return text


def dataset(*refs: str) -> str:
    cases = "".join(f"  - id: case_{n}\n    input: question {n}\n    rubric_ref: {ref}\n"
                    for n, ref in enumerate(refs))
    return "questions:\n" + cases


class Tree:
    """A workspace folder with an `evalyaml.toml`, and a Workspace over it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        (root / "evalyaml.toml").write_text("", "utf-8")

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), "utf-8")
        return path

    def config(self, text: str) -> None:
        (self.root / "evalyaml.toml").write_text(textwrap.dedent(text), "utf-8")

    def workspace(self, **kwargs: object) -> Workspace:
        kwargs.setdefault("today", TODAY)
        workspace = Workspace([self.root], **kwargs)  # type: ignore[arg-type]
        workspace.index_all()
        return workspace


def codes(findings: list[Finding]) -> list[str]:
    return [f.code for f in findings]


def only(findings: list[Finding], code: str) -> list[Finding]:
    return [f for f in findings if f.code == code]


