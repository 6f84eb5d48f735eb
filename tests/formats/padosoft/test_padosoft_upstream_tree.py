"""padosoft/eval-harness's own repository at the mirror's HEAD (`bacd9a4`), checked whole, with
the YAML examples of its README written out as the files they show.

The repository keeps no dataset file (its tests build datasets in PHP), so the tree itself
must give no claim and no finding; the README's dataset example is what `YamlDatasetLoader`
loads in its own test suite (`tests/Unit/Datasets/YamlDatasetLoaderTest.php` parses the same
shape), so it is claimed as a dataset and clean. All three are written where the docs keep
datasets (`eval/golden/`): the CI workflow snippet and the metadata fragment have none of a
dataset's keys, so the folder alone does not claim them. Skipped when the mirror is absent.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.formats.eee.test_eee_upstream_trees import export

from evalyaml.formats.padosoft.kinds import DATASET
from evalyaml.workspace.index import Workspace

MIRROR = Path("/work/.mirror/padosoft+eval-harness/repo")
COMMIT = "bacd9a4"
needs_mirror = pytest.mark.skipif(not MIRROR.is_dir(), reason="the upstream mirror is not here")
_BLOCK = re.compile(r"```ya?ml\n(.*?)```", re.S)


@needs_mirror
def test_the_upstream_tree_and_its_readme_examples(tmp_path: Path) -> None:
    assert export(MIRROR, COMMIT, tmp_path) > 0
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    blocks = _BLOCK.findall(readme)
    assert len(blocks) == 3
    golden = tmp_path / "eval" / "golden"
    golden.mkdir(parents=True)
    for number, block in enumerate(blocks):
        (golden / f"readme-{number}.yml").write_text(block, encoding="utf-8")
    workspace = Workspace([tmp_path])
    workspace.index_all()
    kinds = {path.relative_to(tmp_path).as_posix(): workspace.analysis(path).kind  # type: ignore[union-attr]
             for path in workspace.eval_files()}
    assert kinds == {"eval/golden/readme-0.yml": DATASET}
    assert [f for path in workspace.eval_files() for f in workspace.findings(path)] == []
