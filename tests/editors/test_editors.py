"""Real editors, headless, with the recipes from docs/editors.md run verbatim.

Each test runs a script that prints PASS/FAIL lines and exits non-zero on failure; the output is
shown when a test fails. A test is skipped only when its editor is not installed
(`.ci/editors-e2e.sh` installs them); a missing or broken `evalyaml` server is a failure.
The server under test is $EVALYAML_BIN, else `.venv/bin/evalyaml`, else `evalyaml` on PATH.
VS Code (code-server) runs from `.ci/vscode-e2e.sh`, not from pytest: its install takes minutes.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
EXTRACT = HERE / "extract_recipe.py"


def run(script: Path) -> None:
    proc = subprocess.run(
        ["bash", str(script)], capture_output=True, text=True, timeout=600, check=False
    )
    sys.stdout.write(proc.stdout)
    if proc.returncode != 0:
        pytest.fail(f"{script.relative_to(HERE)} failed:\n{proc.stdout}\n{proc.stderr}")


@pytest.mark.skipif(
    shutil.which("nvim") is None, reason="nvim not installed (apt-get install neovim)"
)
def test_neovim_recipe() -> None:
    run(HERE / "nvim" / "run.sh")


@pytest.mark.skipif(
    shutil.which("emacs") is None,
    reason="emacs not installed (apt-get install emacs-nox elpa-eglot elpa-yaml-mode)",
)
def test_emacs_eglot_recipe() -> None:
    run(HERE / "emacs" / "run.sh")


@pytest.mark.parametrize("name", ["neovim-0.7", "emacs-eglot"])
def test_recipes_are_in_the_docs(name: str) -> None:
    """The blocks the editor tests run exist in docs/editors.md (no editor needed)."""
    out = subprocess.run(
        [sys.executable, str(EXTRACT), name], capture_output=True, text=True, check=True
    ).stdout
    assert "evalyaml" in out
    assert "lsp" in out
