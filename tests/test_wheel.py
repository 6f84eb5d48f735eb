"""The real wheel: built from a copy of the source, installed into a fresh plain venv (no system
site-packages, no editable install), and run from there. Proves the schemas ship inside the wheel
and that `evalyaml` works without the repository.

Needs the package index for the dependencies (pip's configured indexes); slow, so marked `slow`:
deselect with `-m "not slow"`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = ("dataset", "rubric", "judge")

pytestmark = pytest.mark.slow


def _run(command: list[str], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          check=False, env=env)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build from a clean copy, so nothing in the working tree (egg-info, build/) leaks in."""
    source = tmp_path_factory.mktemp("source")
    ignore = shutil.ignore_patterns("*.egg-info", "__pycache__", "build", "dist", "*.pyc")
    shutil.copytree(REPO / "server", source / "server", symlinks=False, ignore=ignore)
    shutil.copytree(REPO / "schemas", source / "schemas")
    for name in ("pyproject.toml", "README.md", "LICENSE", "LICENSE.txt"):
        if (REPO / name).exists():
            shutil.copy2(REPO / name, source / name)
    out = tmp_path_factory.mktemp("wheelhouse")
    done = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                 "-w", str(out), str(source)], cwd=source)
    if done.returncode != 0:  # no setuptools in this interpreter: let `build` isolate it
        done = _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out),
                     str(source)], cwd=source)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    [built] = out.glob("evalyaml-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A plain venv (system_site_packages=False) with the wheel installed; its bin folder."""
    env_dir = tmp_path_factory.mktemp("venv")
    venv.EnvBuilder(system_site_packages=False, with_pip=True, clear=True).create(env_dir)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    done = _run([str(python), "-m", "pip", "install", "--disable-pip-version-check",
                 str(wheel)], cwd=env_dir, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return bin_dir


def test_wheel_contains_the_schemas_and_no_tests(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        for kind in SCHEMAS:
            member = f"evalyaml/schemas/{kind}.schema.json"
            assert member in names
            shipped = json.loads(archive.read(member))
            assert shipped == json.loads((REPO / "schemas" / f"{kind}.schema.json").read_text())
        assert "evalyaml/py.typed" in names
        # Apastra's 55 schemas ship unchanged, with Apastra's licence beside them.
        apastra = sorted((REPO / "schemas" / "apastra").glob("*.schema.json"))
        assert len(apastra) == 55
        for path in apastra:
            member = f"evalyaml/schemas/apastra/{path.name}"
            assert archive.read(member) == path.read_bytes()
        assert "evalyaml/schemas/apastra/LICENSE" in names
        assert not [n for n in names if n.startswith(("tests/", "examples/", "bench/"))]
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        assert "evalyaml = evalyaml.cli:main" in archive.read(entry_points).decode()


def test_installed_package_is_the_wheel_not_the_repository(installed: Path,
                                                           tmp_path: Path) -> None:
    done = _run([str(installed / "python"), "-c",
                 "import evalyaml, sys; print(evalyaml.__file__); "
                 "print(any('site-packages' in p and 'venv' not in p for p in sys.path))"],
                cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    location, leaks_system = done.stdout.splitlines()
    assert Path(location).is_relative_to(installed.parent)
    assert "site-packages" in location and not location.startswith(str(REPO))
    assert leaks_system == "False"


def test_installed_cli_checks_a_file(installed: Path, tmp_path: Path) -> None:
    (tmp_path / "rubrics").mkdir()
    (tmp_path / "rubrics" / "typo.yaml").write_text(
        'id: typo\nversion: 1.10\nchecks:\n  - kind: regx\nscoring:\n  combine: all_pass\n',
        encoding="utf-8")
    done = _run([str(installed / "evalyaml"), "check", "rubrics", "--today", "2026-11-21"],
                cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "rubrics/typo.yaml:2:10: warning EY208 [*] version 1.10 is a YAML number (it reads as "
        '1.1), not a version string; write it quoted: "1.10.0"',
        "rubrics/typo.yaml:4:11: warning EY206 unknown check kind 'regx'; did you mean 'regex'?",
        "[*] 1 fixable with `evalyaml check --fix` (1 more with --unsafe-fixes)",
        "2 warnings in 1 file checked",
    ]


def test_installed_rule_reads_the_docs_page_from_the_wheel(installed: Path,
                                                           tmp_path: Path) -> None:
    done = _run([str(installed / "evalyaml"), "rule", "EY208"], cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.startswith("## EY208 numeric-version\n")


@pytest.mark.parametrize("kind", SCHEMAS)
def test_installed_cli_prints_schemas_from_the_wheel(installed: Path, tmp_path: Path,
                                                     kind: str) -> None:
    done = _run([str(installed / "evalyaml"), "schema", kind], cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["$id"] == f"https://evalyaml.dev/schemas/v1/{kind}.schema.json"
