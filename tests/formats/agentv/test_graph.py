"""`evalyaml graph` on an AgentV suite: an edge to the grader prompt it adopts (`file://`), at
the line that names it; a bare path (sent as inline text, not read) draws none."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_the_graph_has_an_edge_from_a_suite_to_its_grader_prompt(tmp_path: Path) -> None:
    (tmp_path / "evals").mkdir()
    (tmp_path / "graders").mkdir()
    (tmp_path / "graders" / "refusal.md").write_text("Grade {{ output }}.\n", encoding="utf-8")
    (tmp_path / "evals" / "a.eval.yaml").write_text(
        "tests:\n  - id: one\n    input: hi\n    assertions:\n      - type: llm-grader\n"
        "        prompt: file://../graders/refusal.md\n      - type: llm-grader\n"
        "        prompt: ../graders/refusal.md\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "evalyaml", "graph", ".", "--format", "json"],
                          capture_output=True, text=True, timeout=120, check=True, cwd=tmp_path)
    graph = json.loads(done.stdout)
    edges = [(e["from"], e["to"], e["line"]) for e in graph["edges"]]
    assert edges == [("file:evals/a.eval.yaml", "file:graders/refusal.md", 5)]
    kinds = {n["id"]: n["kind"] for n in graph["nodes"]}
    assert kinds == {"file:evals/a.eval.yaml": "AgentV eval suite",
                     "file:graders/refusal.md": "AgentV grader prompt"}
