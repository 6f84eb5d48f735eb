"""The layering of `server/evalyaml`, from its import graph (`tests/tools/import_graph.py`):
no import cycle, no arrow from a lower layer to a higher one, every module in a layer; only the
YAML syntax imports ruamel; and no module over 500 lines but for a shrinking list."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.tools.import_graph import LAYER, load

import evalyaml

PACKAGE = Path(evalyaml.__file__).parent
GRAPH = load(str(PACKAGE))


def _rel(module: str) -> str:
    return module.split(".", 1)[1] if "." in module else module


def test_the_graph_is_read() -> None:
    assert len(GRAPH.modules) > 100
    assert "evalyaml.core.findings" in GRAPH.edges["evalyaml.syntax.json"]


def test_no_import_cycle() -> None:
    assert GRAPH.module_cycles() == []
    assert GRAPH.layer_cycles() == []


def test_no_arrow_against_the_layering() -> None:
    assert [f"{_rel(a)}:{line} -> {_rel(b)}" for a, b, _, line in GRAPH.against_order()] == []


def test_every_module_has_a_layer() -> None:
    assert GRAPH.unlayered() == set()


def test_an_arrow_against_the_layering_is_seen(tmp_path: Path) -> None:
    root = tmp_path / "evalyaml"
    for folder in ("syntax", "core"):
        (root / folder).mkdir(parents=True)
        (root / folder / "__init__.py").write_text("", encoding="utf-8")
    (root / "__init__.py").write_text("", encoding="utf-8")
    (root / "core" / "model.py").write_text("X = 1\n", encoding="utf-8")
    (root / "syntax" / "json.py").write_text("from evalyaml.core.model import X\n",
                                             encoding="utf-8")
    (root / "core" / "kinds.py").write_text("def f():\n    from evalyaml.core import model\n",
                                            encoding="utf-8")
    found = load(str(root))
    assert [(a, b, how) for a, b, how, _ in found.against_order()] == [
        ("evalyaml.syntax.json", "evalyaml.core.model", "top")]
    assert LAYER["syntax"] < LAYER["core"]


def _imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_only_the_yaml_syntax_imports_ruamel() -> None:
    importers = sorted(path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py")
                       if any(name.split(".")[0] == "ruamel" for name in _imports_of(path)))
    assert importers == ["syntax/yaml/compose.py", "syntax/yaml/pureyaml.py",
                         "syntax/yaml/resolver.py"]


def test_the_json_reader_imports_no_yaml_module() -> None:
    for module in ("json", "jsonl", "lines", "parsed", "decode", "recover", "text", "tree"):
        imported = _imports_of(PACKAGE / "syntax" / f"{module}.py")
        assert not any(name.startswith("evalyaml.syntax.yaml") for name in imported), module


def test_no_module_over_500_lines() -> None:
    sizes = {path.relative_to(PACKAGE).as_posix():
             len(path.read_text(encoding="utf-8").splitlines())
             for path in PACKAGE.rglob("*.py")}
    assert {name: lines for name, lines in sizes.items() if lines > 500} == {}
