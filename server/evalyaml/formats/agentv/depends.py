"""`depends_on` as the orchestrator checks it before a run (`validateDependencyGraph` in
`orchestrator.ts` at e43a4d46): every id named must be a test of the suite, not the test itself,
and the graph must have no cycle; any of these makes `agentv eval` throw before the first test.

Only a suite whose tests are all in the file is checked for missing ids: tests pulled in by
`tests: cases.yaml` or `- file://more.yaml` may hold the id.
"""

from __future__ import annotations

from evalyaml.core.suggest import rank
from evalyaml.formats.agentv.common import Context
from evalyaml.syntax.record import record
from evalyaml.syntax.text import Span


@record
class Dependency:
    test: str
    on: str
    span: Span


def check_dependencies(ctx: Context, ids: list[str], deps: list[Dependency], *,
                       complete: bool) -> None:
    known = set(ids)
    graph: dict[str, list[str]] = {}
    for dep in deps:
        graph.setdefault(dep.test, []).append(dep.on)
        if dep.on == dep.test:
            ctx.add("EY637", f"Test '{dep.test}' depends on itself: agentv eval stops before "
                    "running any test", dep.span)
        elif complete and dep.on not in known:
            ranked = rank(dep.on, sorted(known - {dep.test}))
            hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
            ctx.add("EY637", f"Test '{dep.test}' depends on '{dep.on}', but no test with that ID "
                    f"exists in this suite: agentv eval stops before running any test{hint}",
                    dep.span)
    cycle = _cycle(graph)
    if cycle:
        first = next(d for d in deps if d.test == cycle[0] and d.on == cycle[1])
        ctx.add("EY637", f"Circular dependency detected: {' → '.join(cycle)} (agentv eval stops "
                "before running any test)", first.span)


def _cycle(graph: dict[str, list[str]]) -> list[str] | None:
    """The first cycle a depth-first walk meets, as the orchestrator words it (a → b → a)."""
    done: set[str] = set()
    for start in graph:
        if start in done:
            continue
        path: list[str] = []
        on_path: set[str] = set()
        stack: list[tuple[str, int]] = [(start, 0)]
        while stack:
            node, index = stack.pop()
            if index == 0:
                if node in on_path:
                    return [*path[path.index(node):], node]
                if node in done:
                    continue
                path.append(node)
                on_path.add(node)
            children = [c for c in graph.get(node, []) if c != node]
            if index < len(children):
                stack.append((node, index + 1))
                stack.append((children[index], 0))
            else:
                path.pop()
                on_path.discard(node)
                done.add(node)
    return None
