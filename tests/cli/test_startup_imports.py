"""`evalyaml check` imports what the files it meets need, and no more (issue #27, start-up).

A pre-commit hook pays the command's start on every commit, so a one-file workspace must not
import every format's rules, editor tables and schemas: a format's registration (its package's
`__init__`) holds only what discovery needs, and the rest loads with the first file of that
format (ARCHITECTURE.md, "What loads when"). A user notices these only as speed, so they are
held here, on the modules a real check leaves in `sys.modules`.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from evalyaml.cli import build_parser, check_fast

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
FORMATS = ("agentv", "apastra", "contract", "eee", "lmeval", "padosoft", "promptfoo")
# Modules that hold a format's rules, schemas or editor tables, in one format or another.
HEAVY = {"analyze", "ide", "rules", "cross", "schemas", "complete", "suite", "config", "dataset",
         "rows", "bytest", "tests"}

# Runs the real CLI in a fresh interpreter; prints the modules the registry alone loads and
# those loaded after `evalyaml check`, with the exit code.
PROBE = """
import json, sys
import evalyaml.formats
registry = sorted(sys.modules)
from evalyaml.cli import main
code = main(["check", sys.argv[1]])
sys.stdout.flush()
print(json.dumps({"registry": registry, "after": sorted(sys.modules), "code": code}))
"""


def _check(root: Path) -> tuple[set[str], set[str], str]:
    """(modules the registry loads, modules loaded after the check, the check's report)."""
    done = subprocess.run([sys.executable, "-c", PROBE, str(root)], capture_output=True,
                          text=True, timeout=120, check=True, cwd=root)
    *report, last = done.stdout.strip().splitlines()
    out = json.loads(last)
    return set(out["registry"]), set(out["after"]), "\n".join(report)


def _workspace(tmp_path: Path, rel: str) -> Path:
    (tmp_path / rel).parent.mkdir(parents=True)
    shutil.copyfile(EXAMPLES / rel, tmp_path / rel)
    return tmp_path


def _of(modules: set[str], fmt: str) -> set[str]:
    package = f"evalyaml.formats.{fmt}"
    return {m for m in modules if m == package or m.startswith(package + ".")}


def test_a_format_registration_loads_no_rules_schemas_or_editor_tables(tmp_path: Path) -> None:
    registry, _, _ = _check(_workspace(tmp_path, "padosoft/eval/golden/support_faq.yml"))
    for fmt in FORMATS:
        loaded = {m.rsplit(".", 1)[-1] for m in _of(registry, fmt)}
        assert not loaded & HEAVY, fmt
    assert not {m for m in registry if m.split(".")[0] in ("ruamel", "jsonschema", "semver")}


def test_checking_one_padosoft_file_imports_no_other_format_rules(tmp_path: Path) -> None:
    registry, after, report = _check(_workspace(tmp_path, "padosoft/eval/golden/support_faq.yml"))
    assert report == "No problems: 1 file checked"
    assert "evalyaml.formats.padosoft.dataset" in after  # the file was analysed
    for fmt in FORMATS:
        if fmt != "padosoft":
            assert _of(after, fmt) == _of(registry, fmt), fmt
            assert not {m.rsplit(".", 1)[-1] for m in _of(after, fmt)} & HEAVY, fmt
    assert not {m for m in after if m.split(".")[0] in ("jsonschema", "pygls", "lsprotocol")}
    # `check PATH` is parsed without argparse, its help formatter (shutil) and translation
    # look-ups (gettext, locale); records are built without dataclasses (and its inspect);
    # blake2b and sha256 come without hashlib's OpenSSL library.
    assert not {"argparse", "gettext", "locale", "shutil", "dataclasses", "inspect",
                "_hashlib"} & after


def test_simple_block_yaml_is_read_without_ruamel(tmp_path: Path) -> None:
    """The fast path reads it and tags its scalars from our own table (`syntax/yaml/tags.py`);
    ruamel.yaml, 15-25 ms to import, loads only for a text outside the fast path's subset."""
    for rel in ("padosoft/eval/golden/support_faq.yml", "datasets/support_faq.yaml"):
        root = tmp_path / rel.split("/")[0]
        _, after, _ = _check(_workspace(root, rel))
        assert not {m for m in after if m.split(".")[0] == "ruamel"}, rel
        assert "evalyaml.syntax.yaml.compose" not in after, rel


def test_a_yaml_syntax_error_still_loads_ruamel_and_is_reported(tmp_path: Path) -> None:
    (tmp_path / "datasets").mkdir()
    (tmp_path / "datasets" / "d.yaml").write_text(
        "questions:\n  - id: a\n    input: [hello\n", encoding="utf-8")
    _, after, report = _check(tmp_path)
    assert report.splitlines()[0].startswith("datasets/d.yaml:3:12: error EY101 YAML syntax "
                                             "error: this [ list ] is not closed")
    assert "ruamel.yaml" in after


def test_a_valid_contract_dataset_is_checked_without_jsonschema(tmp_path: Path) -> None:
    """Its cases and its root pass the compiled prechecks (`core/precheck.py`); jsonschema,
    about 60 ms to import, loads only for a value a precheck cannot vouch for."""
    _, after, _ = _check(_workspace(tmp_path, "datasets/support_faq.yaml"))
    assert "evalyaml.formats.contract.dataset" in after
    assert not {m for m in after if m.split(".")[0] in ("jsonschema", "referencing")}
    # Its schema is read from the package's own folder: no `importlib.resources` (with
    # `tempfile` and `zipfile`), its records come without dataclasses, and the full versions
    # its references pin are read without semver (whose import loads argparse and inspect).
    assert "@1.0.0" in (tmp_path / "datasets" / "support_faq.yaml").read_text("utf-8")
    assert not {"importlib.resources", "tempfile", "zipfile", "dataclasses", "semver",
                "argparse", "inspect"} & after


def test_a_contract_mistake_still_loads_jsonschema_and_is_reported(tmp_path: Path) -> None:
    (tmp_path / "datasets").mkdir()
    (tmp_path / "datasets" / "d.yaml").write_text(
        "questions:\n  - id: a\n    input: hello\n    criteria: 3\n", encoding="utf-8")
    _, after, report = _check(tmp_path)
    assert report.splitlines()[0] == ("datasets/d.yaml:4:15: warning EY202 'criteria' must be "
                                      "a string, not a number")
    assert "jsonschema" in after


@pytest.mark.parametrize("argv", [["check"], ["check", "."], ["check", "a.yaml", "dir/b"],
                                  ["check", ""], ["check", "x y.yaml"]])
def test_check_without_options_parses_as_the_full_parser_does(argv: list[str]) -> None:
    fast = check_fast(argv)
    assert fast is not None
    assert vars(fast) == vars(build_parser("check").parse_args(argv))


@pytest.mark.parametrize("argv", [["check", "--strict", "."], ["check", "-"],
                                  ["check", "--", "-x"], ["check", ".", "--fix"], ["lsp"],
                                  ["graph", "."], [], ["check", "-h"]])
def test_anything_else_goes_to_the_full_parser(argv: list[str]) -> None:
    assert check_fast(argv) is None
