"""Values the harness's YAML loader reads differently from how they look: an `include:` that
is not a file name, and `doc_to_choice` options PyYAML does not read as text."""

from __future__ import annotations

import json

from evalyaml.formats.lmeval.common import Context
from evalyaml.formats.lmeval.yaml11 import bool_value, python_type
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence


def check_includes(ctx: Context, node: Node) -> None:
    """`load_yaml` does `path.parent / inc` for each entry: anything but text raises
    TypeError ("expected str, bytes or os.PathLike object"), and the index skips the file at
    DEBUG (measured with 0.4.13 for a number, a mapping, a nested list and an empty value)."""
    items = node.items if isinstance(node, Sequence) else [node]
    for item in items:
        kind = _type_of(ctx, item)
        if kind != "str":
            ctx.add("EYLM003", f"an include must be a file name, not {_A[kind]}: the harness "
                    "raises \"expected str, bytes or os.PathLike object, not "
                    f"{kind}\" and the index skips the task (logged at DEBUG), so lm-eval "
                    "reports \"Tasks not found\"", item)


_A = {"dict": "a mapping", "list": "a list", "int": "a number", "float": "a number",
      "bool": "a boolean", "NoneType": "an empty value"}


def _type_of(ctx: Context, node: Node) -> str:
    if isinstance(node, Mapping):
        return "dict"
    if isinstance(node, Sequence):
        return "list"
    assert isinstance(node, Scalar)
    return python_type(node, ctx.parsed.text)


def check_choices(ctx: Context, node: Node) -> None:
    """A literal `doc_to_choice` list (or a mapping's values) is returned as it is, and the
    first document's check reads `choice[0]` of every option: a boolean, number or null
    raises TypeError at LOAD (measured: `{0: yes, 1: no}` gives "'bool' object is not
    subscriptable"). `yes`/`no`/`on`/`off` look like text but are YAML 1.1 booleans."""
    if isinstance(node, Sequence):
        items = node.items
    elif isinstance(node, Mapping):
        items = [value for _, value in node.pairs]
    else:
        return
    for item in items:
        if not isinstance(item, Scalar):
            continue
        kind = python_type(item, ctx.parsed.text)
        if kind == "str":
            continue
        quoted = json.dumps(item.text, ensure_ascii=False)
        if kind == "bool" and item.text.lower() not in ("true", "false"):
            read = f"the boolean {bool_value(item.text)}"
            what = f"PyYAML (YAML 1.1) reads the unquoted '{item.text}' as {read}, not the " \
                "text"
        elif kind == "NoneType":
            what = "this option is null, not text"
        else:
            what = f"'{item.text}' is read as {_A[kind]} ({kind}), not text"
        null = kind == "NoneType"
        tail = "write the option's text" if null else f"quote it: {quoted}"
        ctx.add("EYLM021", f"{what}: the harness returns the choices as written and fails "
                f"when the task is loaded (\"TypeError: '{kind}' object is not subscriptable\" "
                f"while it checks the first document's choices); {tail}", item,
                fixes=() if null else (ctx.replace_fix(item, quoted, f"Quote as '{quoted}'"),))
