"""examples/eee/: the clean datastore analyses clean (a 0.3.0 pair and a 0.2.0 multi-turn pair,
checksums and row counts true), and each folder of mistakes/ is a datastore of its own whose
only finding is the code its name starts with."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalyaml.core.codes import CODES
from evalyaml.workspace.index import Workspace

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "eee"
MISTAKES = sorted(p for p in (EXAMPLES / "mistakes").iterdir() if p.is_dir())


def _found(root: Path) -> list[tuple[str, str]]:
    workspace = Workspace([root])
    workspace.index_all()
    files = workspace.eval_files()
    assert files
    return sorted((p.relative_to(root).as_posix(), f.code) for p in files
                  for f in workspace.findings(p))


def test_the_clean_datastore_is_clean() -> None:
    workspace = Workspace([EXAMPLES / "data"])
    workspace.index_all()
    assert len(workspace.eval_files()) == 4
    for path in workspace.eval_files():
        assert workspace.findings(path) == [], path


def test_every_eee_code_has_a_mistake_folder() -> None:
    """EY712 needs a row over 16 MB: tests/formats/eee/test_eee_stream.py makes one."""
    assert {p.name.split("-")[0] for p in MISTAKES} == \
        {c for c in CODES if c.startswith("EY7")} - {"EY712"}


@pytest.mark.parametrize("folder", MISTAKES, ids=lambda p: p.name)
def test_mistake_gives_its_finding_and_nothing_else(folder: Path) -> None:
    code = folder.name.split("-")[0]
    assert {c for _, c in _found(folder)} == {code}  # EY726: the aggregate and its samples
