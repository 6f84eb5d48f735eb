"""Apastra's own repository at the seed's commit (17667b57), exported from the fetched mirror
and checked whole: exactly the findings `upstream_expected_17667b57.json` lists, each with the
upstream rule that confirms it. Skipped when the mirror is not on this machine."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.formats.agentv.test_upstream_trees import expected, export, findings

MIRROR = Path("/work/.mirror/BintzGavin+apastra/repo")


def test_the_upstream_tree_gives_only_findings_an_upstream_rule_confirms(tmp_path: Path
                                                                           ) -> None:
    tree = export(MIRROR, "17667b57", tmp_path / "apastra")
    if tree is None:
        pytest.skip("the Apastra mirror is not on this machine")
    assert findings(tree) == expected(Path(__file__).parent / "upstream_expected_17667b57.json")
