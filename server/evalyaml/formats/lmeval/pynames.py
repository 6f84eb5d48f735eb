"""The names a Python module binds when it is imported, read from its text without running it.

`!function utils.f` is resolved by executing `utils.py` and calling `getattr(module, "f")`
(`tasks/_yaml_loader.py`, `_import_func_in_yml`), so `f` may be bound anywhere module-level code
runs: a `def` inside `try:`/`if:`, `a = b = ...`, `a, b = ...`, `x := ...`, `for f in ...`,
`with ... as f`, an import. Reading the syntax tree (never executing it) finds all of those;
what the tree cannot tell (names made through `globals()`, `import *`, a module `__getattr__`)
makes the answer "unknown".
"""

from __future__ import annotations

import ast
from functools import lru_cache

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


@lru_cache(maxsize=64)
def module_names(text: str) -> frozenset[str] | None:
    """The module-level names `text` binds, or None when the module cannot be read (a syntax
    error: perhaps a newer Python's) or binds names the tree does not show."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    names: set[str] = set()
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, _SCOPES):
            if not isinstance(node, ast.Lambda):
                names.add(node.name)
            names.update(_globals_declared(node))
            pending.extend(getattr(node, "decorator_list", ()))
            continue
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return None
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update(a.asname or a.name.partition(".")[0] for a in node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            names.add(node.name)  # `except E as name`, `case [*name]`, `case x as name`
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("globals", "setattr", "exec"):
            return None
        pending.extend(ast.iter_child_nodes(node))
    if "__getattr__" in names:
        return None
    return frozenset(names)


def _globals_declared(scope: ast.AST) -> set[str]:
    """`global f` inside a function: `f` is a module name once the function has run."""
    return {name for node in ast.walk(scope) if isinstance(node, ast.Global)
            for name in node.names}
