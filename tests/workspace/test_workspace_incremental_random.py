"""Random edits: the incremental index always agrees with a fresh one, and every file whose
findings changed is in the set the update returned."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from wshelpers import TODAY, dataset, judge, rubric

from evalyaml.core.findings import Finding
from evalyaml.workspace.index import Workspace

RUBRIC_IDS = ["alpha", "beta", "gamma", "delta"]
JUDGE_IDS = ["jay", "kay"]
VERSIONS = ["1.0.0", "1.1.0", "1.2.0-beta", "2.0.0"]
PINS = ["", "@1", "@1.1", "@1.0.0", "@2", "@1.2.0-beta", "@3"]


def _random_file(rng: random.Random, name: str) -> str:
    kind = name.split("/", maxsplit=1)[0]
    if kind == "rubrics":
        composite = [f"rubric/{rng.choice([*RUBRIC_IDS, 'alhpa'])}{rng.choice(PINS)}"
                     for _ in range(rng.choice([0, 0, 1, 2]))]
        judge_ref = f"judge/{rng.choice([*JUDGE_IDS, 'jya'])}{rng.choice(PINS)}" \
            if rng.random() < 0.5 else None
        return rubric(rng.choice(RUBRIC_IDS), rng.choice(VERSIONS), composite=composite,
                      judge=judge_ref)
    if kind == "judges":
        return judge(rng.choice(JUDGE_IDS), rng.choice(VERSIONS),
                     validated_at=rng.choice([None, "2026-11-01", "2025-01-01"]))
    return dataset(*(f"rubric/{rng.choice([*RUBRIC_IDS, 'gama'])}{rng.choice(PINS)}"
                     for _ in range(rng.randint(1, 3))))


def _snapshot(workspace: Workspace) -> dict[Path, list[Finding]]:
    return {p: workspace.findings(p) for p in workspace.eval_files()}


@pytest.mark.parametrize("seed", range(25))
def test_random_edits(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    (tmp_path / "evalyaml.toml").write_text("", "utf-8")
    names = [f"rubrics/r{n}.yaml" for n in range(6)] + [f"judges/j{n}.yaml" for n in range(3)] \
        + [f"datasets/d{n}.yaml" for n in range(4)]
    for name in names:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_random_file(rng, name), "utf-8")
    workspace = Workspace([tmp_path], today=TODAY)
    workspace.index_all()
    before = _snapshot(workspace)
    for _ in range(8):
        name = rng.choice(names)
        path = tmp_path / name
        action = rng.random()
        if action < 0.15 and path.exists():
            path.unlink()
            # a deleted file that is open in the editor stays until the editor lets go of it
            touched = workspace.remove(path) if workspace.is_open(path) else \
                workspace.refresh(path)
        elif action < 0.6:
            text = _random_file(rng, name)
            path.write_text(text, "utf-8")
            touched = workspace.set_text(path, text)
            if rng.random() < 0.5:
                touched |= workspace.close(path)  # saved and closed: the disk has the same text
        else:
            text = _random_file(rng, name)
            path.write_text(text, "utf-8")
            touched = workspace.refresh(path) if not workspace.is_open(path) else \
                workspace.set_text(path, text)
        after = _snapshot(workspace)
        fresh = Workspace([tmp_path], today=TODAY)
        fresh.index_all()
        assert after == _snapshot(fresh)
        for other in set(before) | set(after):
            if other not in touched:
                assert before.get(other) == after.get(other), (other, touched)
        before = after
