"""The import graph of server/evalyaml: cycles, and arrows against the intended layering.

Run from the repository root: `python3 tests/tools/import_graph.py server/evalyaml` prints the
graph's summary; `tests/test_layering.py` holds it at no cycle and no arrow against the order.
Every `import`/`from ... import` is read with `ast`, relative imports resolved, and each edge
tagged `top` (module level), `late` (inside a function) or `typing` (under TYPE_CHECKING).

(From the review's `import_graph.py`, with evalyaml's layout: the layer table below, and layers
that are a few modules of a package rather than the whole package.)
"""

from __future__ import annotations

import ast
import collections
import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass

# Lower layers may not import higher ones. A layer is a top-level package or module, or the
# group a module belongs to in GROUPS: positions, the shared tree, the record decorator and the
# lazy regular expression (`syntax/record.py`, `syntax/lazyre.py`, used by every layer) import
# nothing; the
# vocabulary every layer reports in (a finding, its code, a did-you-mean) imports only them;
# then the readers (`syntax`: YAML, JSON, JSONL, recovery), the core (kinds, symbols, schemas,
# the per-document cache), the formats, and the layers that use them.
GROUPS = {
    "syntax.text": "positions",
    "syntax.tree": "positions",
    "syntax.record": "positions",
    "syntax.lazyre": "positions",
    "core.codes": "vocabulary",
    "core.findings": "vocabulary",
    "core.suggest": "vocabulary",
}
LAYER = {"positions": 0, "vocabulary": 1, "syntax": 2, "core": 3, "formats": 4, "dispatch": 5,
         "parallel": 5, "claims": 5, "config": 5, "workspace": 6, "checker": 7, "ide": 7,
         "fixes": 8, "rule": 8, "report": 8, "lsp": 9, "cli": 10, "__main__": 11}

Edge = tuple[str, str, str, int]  # importer, imported, how, line


@dataclass
class Graph:
    modules: dict[str, str]
    edges: dict[str, dict[str, tuple[str, int]]]

    def module_cycles(self, kinds: tuple[str, ...] = ("top", "late", "typing")) -> list[list[str]]:
        return sccs({a: [b for b, (how, _) in bs.items() if how in kinds]
                     for a, bs in self.edges.items()})

    def layer_edges(self) -> dict[str, dict[str, list[Edge]]]:
        out: dict[str, dict[str, list[Edge]]] = collections.defaultdict(
            lambda: collections.defaultdict(list))
        for a, bs in self.edges.items():
            for b, (how, line) in bs.items():
                if layer_of(a) != layer_of(b):
                    out[layer_of(a)][layer_of(b)].append((a, b, how, line))
        return out

    def layer_cycles(self) -> list[list[str]]:
        return sccs({a: list(bs) for a, bs in self.layer_edges().items()})

    def against_order(self) -> list[Edge]:
        found: list[Edge] = []
        for a, targets in sorted(self.layer_edges().items()):
            for b, edges in sorted(targets.items()):
                if a in LAYER and b in LAYER and LAYER[a] < LAYER[b]:
                    found.extend(edges)
        return found

    def unlayered(self) -> set[str]:
        return {layer_of(m) for m in self.modules} - set(LAYER) - {"(package)"}


def layer_of(name: str) -> str:
    inner = name.split(".", 1)[1] if "." in name else ""
    for prefix, group in GROUPS.items():
        if inner == prefix or inner.startswith(prefix + "."):
            return group
    return inner.split(".")[0] if inner else "(package)"


def load(root: str) -> Graph:
    pkg = os.path.basename(os.path.normpath(root))
    parent = os.path.dirname(os.path.normpath(root))

    def module_name(path: str) -> str:
        rel = os.path.relpath(path, parent)[:-3].replace(os.sep, ".")
        return rel[: -len(".__init__")] if rel.endswith(".__init__") else rel

    modules = {module_name(os.path.join(d, f)): os.path.join(d, f)
               for d, _, files in os.walk(root) for f in files if f.endswith(".py")}

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    def targets(current: str, node: ast.Import | ast.ImportFrom) -> list[str | None]:
        if isinstance(node, ast.Import):
            return [known(a.name) for a in node.names if a.name.startswith(pkg)]
        base = node.module or ""
        if node.level:
            anchor = current if modules[current].endswith("__init__.py") else \
                current.rpartition(".")[0]
            for _ in range(node.level - 1):
                anchor = anchor.rpartition(".")[0]
            base = f"{anchor}.{base}" if base else anchor
        if not base.startswith(pkg):
            return []
        return [known(f"{base}.{a.name}") for a in node.names]

    edges: dict[str, dict[str, tuple[str, int]]] = collections.defaultdict(dict)
    for name, path in modules.items():
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        for node, how in _imports(tree):
            for target in targets(name, node):
                if target and target != name:
                    edges[name].setdefault(target, (how, node.lineno))
    return Graph(modules, dict(edges))


def _imports(tree: ast.AST) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
    def visit(node: ast.AST, how: str) -> Iterator[tuple[ast.Import | ast.ImportFrom, str]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, how
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for stmt in child.body:
                    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                        yield stmt, "typing"
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield from visit(child, "late")
            else:
                yield from visit(child, how)
    yield from visit(tree, "top")


def sccs(adjacency: dict[str, list[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    nodes = sorted(set(adjacency) | {w for ws in adjacency.values() for w in ws})
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(adjacency.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, children = work[-1]
            advanced = False
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(adjacency.get(w, ()))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def main(root: str) -> int:
    graph = load(root)
    print(f"{len(graph.modules)} modules, "
          f"{sum(map(len, graph.edges.values()))} intra-package import edges")
    for kinds in (("top",), ("top", "late", "typing")):
        found = graph.module_cycles(kinds)
        print(f"module-level cycles ({'+'.join(kinds)}): {len(found)}", *found, sep="\n  ")
    print("layer-level edges:")
    for a, targets in sorted(graph.layer_edges().items()):
        for b, edges in sorted(targets.items()):
            print(f"  {a:10s} -> {b:10s}", dict(collections.Counter(how for *_, how, _ in edges)))
    print("layer-level cycles (any import):", graph.layer_cycles())
    print("arrows against the intended order:")
    for x, y, how, line in graph.against_order():
        print(f"  {x}:{line} -> {y} [{how}]")
    unlayered = graph.unlayered()
    if unlayered:
        print("not in the layer table:", sorted(unlayered))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "server/evalyaml"))
