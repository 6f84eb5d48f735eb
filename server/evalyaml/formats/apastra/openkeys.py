"""Near misses of schema keys in objects the schema leaves open.

Most Apastra schemas do not close their objects, so ajv accepts a misspelt key and the key the
author meant is silently absent: the real suite's `budgets.cost` is ignored while
`cost_budget` is what the docs define. A key outside the schema is reported only when it is
close to a key the schema defines and that the object lacks (a typo, or one word of a
multi-word key), never for every unknown key: Apastra's real conventions outside the schemas
(a suite's `prompt`, a policy's `missing_report`) stay silent.
"""

from __future__ import annotations

from typing import Any

from evalyaml.core.findings import Fix, TextEdit
from evalyaml.core.suggest import best
from evalyaml.formats.apastra.context import Context
from evalyaml.formats.apastra.report import _key_text
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

# Keys Apastra's own code reads outside the schemas (FORMATS.md section 2): never near misses.
CONVENTIONS = frozenset({"prompt", "missing_report", "$schema"})


def near_miss(name: str, known: list[str], present: set[str]) -> str | None:
    candidates = [k for k in known if k not in present]
    choice = best(name, candidates)
    if choice:
        return choice
    words = [k for k in candidates if name in k.split("_") and len(name) >= 3]
    return words[0] if len(words) == 1 else None


def check(ctx: Context, node: Node, schema: dict[str, Any], title: str, *, path: str,
          resolve: Any, covered: set[tuple[str, str]], depth: int = 0) -> None:
    if depth > 12 or not isinstance(schema, dict):
        return
    schema = resolve(schema)
    if isinstance(node, Mapping):
        props = schema.get("properties")
        extra = schema.get("additionalProperties")
        if not isinstance(props, dict):
            if isinstance(extra, dict):  # a map of names to objects (consumption `prompts`)
                for key, value in node.pairs:
                    if isinstance(key, Scalar):
                        check(ctx, value, extra, title, path=f"{path}.{key.text}" if path else
                              key.text, resolve=resolve, covered=covered, depth=depth + 1)
            return
        present = {k.text for k, _ in node.pairs if isinstance(k, Scalar)}
        closed = schema.get("additionalProperties") is False
        for key, value in node.pairs:
            if not isinstance(key, Scalar):
                continue
            name = key.text
            where = f"{path}.{name}" if path else name
            if name in props:
                check(ctx, value, props[name], title, path=where, resolve=resolve,
                      covered=covered, depth=depth + 1)
                continue
            if closed or name in CONVENTIONS or schema.get("patternProperties"):
                continue  # a closed object's unknown keys are the schema's (EY800)
            if isinstance(extra, dict):
                check(ctx, value, extra, title, path=where, resolve=resolve, covered=covered,
                      depth=depth + 1)
                continue
            choice = near_miss(name, list(props), present)
            if choice:
                covered.add((path or "the document", choice))
                span = ctx.span(key)
                owner = path or "the document"
                required = choice in schema.get("required", ())
                message = (f"{owner} misses the required key '{choice}': Apastra does not read "
                           f"'{name}'; did you mean '{choice}'? ({title})" if required else
                           f"Apastra ignores '{name}' in {owner}: {title} defines "
                           f"'{choice}'; did you mean '{choice}'?")
                ctx.sink.add(
                    "EY800" if required else "EY801", message, span,
                    fixes=(Fix(f"Rename to '{choice}'",
                               (TextEdit(span, _key_text(key, choice)),), preferred=True),))
    elif isinstance(node, Sequence):
        items = schema.get("items")
        if isinstance(items, dict):
            for index, item in enumerate(node.items):
                check(ctx, item, items, title, path=f"{path}[{index}]", resolve=resolve,
                      covered=covered, depth=depth + 1)
