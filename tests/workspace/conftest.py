"""Fixtures for workspace tests (helpers live in wshelpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from wshelpers import Tree


@pytest.fixture
def tree(tmp_path: Path) -> Tree:
    return Tree(tmp_path)
