"""The shape of the code: no import cycle anywhere in `evalyaml`, and one hub that registers
every LSP method (`evalyaml/lsp/handlers/__init__.py`)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from lsprotocol import types

from evalyaml.lsp.app import create_server
from evalyaml.lsp.handlers import methods

PACKAGE = Path(__file__).resolve().parents[2] / "server" / "evalyaml"
HUB = PACKAGE / "lsp" / "handlers" / "__init__.py"
PROTOCOL = PACKAGE / "lsp" / "protocol.py"


def _name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported(name: str, path: Path) -> set[str]:
    """The evalyaml modules `name` imports, at any depth (functions too), not for types only.
    `from pkg import sub` names the submodule when there is one, else the package."""
    out: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for other in child.orelse:
                    visit_one(other)
                continue
            visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                module = alias.name
                while module and module not in MODULES:
                    module = module.rpartition(".")[0]
                if module:
                    out.add(module)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                if f"{base}.{alias.name}" in MODULES:
                    out.add(f"{base}.{alias.name}")
                elif base in MODULES:
                    out.add(base)
        visit(node)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    out.discard(name)
    return out


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle, as a closed path of module names, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return [*path[path.index(target):], target]
            if target not in state and (found := walk(target)) is not None:
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (found := walk(module)) is not None:
            return found
    return None


def test_the_import_graph_is_acyclic() -> None:
    graph = {name: _imported(name, path) for name, path in MODULES.items()}
    assert "evalyaml.lsp.session" in graph["evalyaml.lsp.handlers"]  # the graph is not empty
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def _registrations(path: Path) -> list[tuple[int, str]]:
    """Calls that register a handler with pygls: `x.feature(...)`, `x.command(...)`,
    `lsp_method(...)` (as calls or decorators)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else \
                func.id if isinstance(func, ast.Name) else ""
            if called in {"feature", "command", "lsp_method"}:
                found.append((node.lineno, called))
    return found


def test_every_registration_is_in_the_hub() -> None:
    elsewhere = []
    for path in MODULES.values():
        for line, called in _registrations(path):
            if path == HUB and called in {"feature", "command"}:
                continue
            if path == PROTOCOL and called == "lsp_method":
                continue  # pygls builtins overridden to forward to the hub's handlers
            elsewhere.append(f"{path.relative_to(PACKAGE)}:{line} {called}")
    assert elsewhere == []


def test_the_hub_lists_exactly_what_the_server_answers() -> None:
    listed = methods()
    names = [m.name for m in listed]
    assert len(names) == len(set(names))
    for method in listed:  # module-level functions of the handler modules, not closures
        handler = method.handler
        assert inspect.isfunction(handler) and handler.__qualname__ == handler.__name__
        assert handler.__module__.startswith("evalyaml.lsp.")
    server = create_server()
    try:
        fm = server.protocol.fm
        assert set(fm.features) == {m.name for m in listed if m.how != "command"}
        assert set(fm.commands) == {m.name for m in listed if m.how == "command"}
    finally:
        server.pool.shutdown(wait=False)
    # The protocol's overrides of pygls builtins forward to handlers the hub registers.
    overridden = {node.args[0].attr for node in ast.walk(ast.parse(PROTOCOL.read_text()))
                  if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id == "lsp_method" and isinstance(node.args[0], ast.Attribute)}
    assert overridden
    assert {getattr(types, name) for name in overridden} <= set(names)


def _protocol_imports(path: Path) -> list[str]:
    """pygls, lsprotocol or evalyaml.lsp imports anywhere in a module (functions and type-only
    imports too), and relative imports (which this check cannot follow)."""
    wrong = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            targets = [node.module or ""] if not node.level else \
                [f"(relative) {node.module or ''}"]
        else:
            continue
        wrong += [target for target in targets
                  if target.split(".")[0] in {"pygls", "lsprotocol", "(relative)"}
                  or target == "evalyaml.lsp" or target.startswith("evalyaml.lsp.")]
    return wrong


def test_the_ide_layer_knows_no_protocol() -> None:
    """`evalyaml.ide` answers plain data: neither it nor anything it imports, at any depth,
    imports pygls, lsprotocol or `evalyaml.lsp`."""
    ide = [name for name in MODULES if name == "evalyaml.ide" or name.startswith("evalyaml.ide.")]
    assert "evalyaml.ide.hover" in ide
    seen, todo = set(ide), list(ide)
    while todo:
        for target in _imported(todo[-1], MODULES[todo.pop()]):
            if target not in seen:
                seen.add(target)
                todo.append(target)
    assert "evalyaml.workspace.index" in seen  # the walk follows imports
    wrong = [f"{name} imports {target}" for name in sorted(seen)
             for target in _protocol_imports(MODULES[name])]
    assert wrong == []
