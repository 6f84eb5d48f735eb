"""Assertions as promptfoo reads and runs them: `AssertionSchema`/`AssertionSetSchema`
(`src/types/index.ts`), `validateAssertions` (`src/assertions/validateAssertions.ts`), the handler
table of `runAssertionInternal` (`src/assertions/index.ts`) and what each handler requires of
its value (`src/assertions/<type>.ts`; `../shared/FORMATS.md` §7.12).

The JSON Schema's type `anyOf` ends with `{}`, so validate accepts any type; the run then throws
`Unknown assertion type` after the provider calls are paid for. Here the type is checked before.
"""

from __future__ import annotations

from collections.abc import Callable

from evalyaml.core.findings import Fix, TextEdit
from evalyaml.formats.promptfoo import vocab
from evalyaml.formats.promptfoo.common import (
    Context,
    is_null,
    is_number,
    is_ref,
    pairs,
    quoted_like,
    suggest_value,
    text_of,
)
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

BASE = frozenset(vocab.BASE_TYPES)
NOT_TYPES = frozenset("not-" + t for t in vocab.BASE_TYPES)
REDTEAM = frozenset(vocab.REDTEAM_GRADERS)
# `human` is in the schema but has no handler: the run throws `Unknown assertion type: human`.
RUNNABLE_SPECIAL = frozenset({"select-best", "max-score"})
ALL_TYPES: tuple[str, ...] = (*vocab.BASE_TYPES, *sorted(NOT_TYPES), *RUNNABLE_SPECIAL,
                              "assert-set")

STRING_VALUE = frozenset({"starts-with", "regex", "javascript", "python", "ruby", "factuality",
                          "model-graded-factuality", "model-graded-closedqa", "context-recall",
                          "finish-reason", "pi", "search-rubric", "webhook", "levenshtein",
                          "rouge-n"})
STRING_OR_LIST = frozenset({"similar", "similar:cosine", "similar:dot", "similar:euclidean",
                            "bleu", "gleu", "g-eval"})
LIST_VALUE = frozenset({"contains-any", "contains-all", "icontains-any", "icontains-all"})
SCALAR_VALUE = frozenset({"contains", "icontains"})
THRESHOLD_REQUIRED = {"cost": "Cost assertion must have a threshold",
                      "latency": "Latency assertion must have a threshold in milliseconds"}
SCRIPT_TYPES = frozenset({"javascript", "python", "ruby"})


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + f"'{word}'"


def known_type(name: str) -> bool:
    if name in BASE or name in NOT_TYPES or name in RUNNABLE_SPECIAL or name == "assert-set":
        return True
    if name.startswith("promptfoo:redteam:"):
        return name in REDTEAM or name.startswith("promptfoo:redteam:harmful")
    return False


def check_asserts(ctx: Context, key: Scalar, node: Node, where: str,
                  on_script: Callable[[Scalar, str], None]) -> int:
    """The `assert` list of a test; returns how many assertions it holds. A `{$ref: ...}`
    mapping is the list promptfoo dereferences before it validates (`dereferenceConfig`), not
    its literal shape: counted as one, since what it points to is not read here."""
    if is_null(node):
        return 0
    if is_ref(node):
        return 1
    if not isinstance(node, Sequence):
        ctx.add("EYPF006", f"'assert' in {where} is not a list of assertions: "
                "`validateAssertions` refuses it", ctx.span(key))
        return 0
    for index, item in enumerate(node.items):
        check_assertion(ctx, item, f"{where}.assert[{index}]", on_script,
                        node.items[index - 1] if index else None)
    return len(node.items)


def check_assertion(ctx: Context, node: Node, where: str,
                    on_script: Callable[[Scalar, str], None], previous: Node | None) -> None:
    if is_ref(node):
        return
    if not isinstance(node, Mapping):
        ctx.add("EYPF006", f"an assertion must be a mapping with a 'type' (\"Invalid assertion "
                f"at {where}\"): `validateAssertions` refuses the config", ctx.span(node))
        return
    items = pairs(node)
    found = {k.text: (k, v) for k, v in items}
    type_pair = found.get("type")
    if type_pair is None:
        first = items[0][0] if items else node
        hint = ""
        if isinstance(previous, Mapping) and previous.get("type") is not None and \
                previous.get(items[0][0].text if items else "") is None:
            hint = (f"; if '{items[0][0].text}' belongs to the assertion above, remove the '-' "
                    "before it")
        ctx.add("EYPF006", f"an assertion has no 'type' (\"Invalid assertion at {where}: "
                f"Missing required 'type' property\"): promptfoo refuses the config{hint}",
                ctx.span(first))
        return
    type_key, type_node = type_pair
    type_name = text_of(type_node)
    if type_name is None:
        ctx.add("EYPF006", f"an assertion's 'type' must be a string (at {where})",
                ctx.span(type_node))
        return
    is_set = type_name == "assert-set"
    allowed = vocab.ASSERT_SET_KEYS if is_set else vocab.ASSERTION_KEYS
    for key, _ in items:
        if key.text not in allowed:
            ctx.unknown_key(key, allowed, "an assert-set" if is_set else "an assertion")
    for name in ("threshold", "weight"):
        pair = found.get(name)
        if pair is not None and not is_number(pair[1]) and not is_null(pair[1]):
            ctx.add("EYPF006", f"'{name}' must be a number (\"Invalid assertion at {where}: "
                    "Invalid input\"): `validateAssertions` refuses the config",
                    ctx.span(pair[1]))
    metric = found.get("metric")
    if metric is not None and text_of(metric[1]) is None and not is_null(metric[1]):
        ctx.add("EYPF006", f"'metric' must be a string (\"Invalid assertion at {where}: Invalid "
                "input\"): `validateAssertions` refuses the config", ctx.span(metric[1]))
    if is_set:
        inner = found.get("assert")
        if inner is None:
            ctx.add("EYPF006", f"an assert-set has no 'assert' list (at {where}): "
                    "`validateAssertions` refuses it", ctx.span(type_key))
        else:
            check_asserts(ctx, inner[0], inner[1], where, on_script)
        return
    assert isinstance(type_node, Scalar)
    if not known_type(type_name):
        _unknown_type(ctx, type_node, type_name)
        return
    _check_value(ctx, type_node, type_name, found, on_script)


def _unknown_type(ctx: Context, node: Scalar, name: str) -> None:
    if name.startswith("promptfoo:redteam:"):
        guess = suggest_value(name, vocab.REDTEAM_GRADERS)
        tail = f"; did you mean '{guess}'?" if guess else ""
        ctx.add("EYPF004", f"unknown redteam grader '{name}': the run fails with \"Unknown "
                f"grader: {name}\"{tail}", ctx.span(node), fixes=_fix(ctx, node, guess))
        return
    if name == "human":
        ctx.add("EYPF004", "assertion type 'human' has no handler in promptfoo: the test errors "
                "with \"Unknown assertion type: human\" when it runs", ctx.span(node))
        return
    guess = suggest_value(name, ALL_TYPES)
    tail = f"; did you mean '{guess}'?" if guess else ""
    ctx.add("EYPF004", f"unknown assertion type '{name}': promptfoo validate accepts it, then the "
            f"test errors with \"Unknown assertion type: {name}\" after the provider call{tail}",
            ctx.span(node), fixes=_fix(ctx, node, guess))


def _fix(ctx: Context, node: Scalar, guess: str | None) -> tuple[Fix, ...]:
    if guess is None:
        return ()
    return (Fix(f"Replace with '{guess}'", (TextEdit(ctx.span(node), quoted_like(node, guess)),),
                preferred=True),)


def _check_value(ctx: Context, type_node: Scalar, type_name: str,
                 found: dict[str, tuple[Scalar, Node]],
                 on_script: Callable[[Scalar, str], None]) -> None:
    base = type_name[4:] if type_name.startswith("not-") else type_name
    pair = found.get("value")
    value = pair[1] if pair is not None else None
    value_text = text_of(value)
    if value_text is not None and value_text.startswith("file://") and isinstance(value, Scalar):
        on_script(value, base)
        return
    if base in THRESHOLD_REQUIRED and (found.get("threshold") is None or
                                       is_null(found["threshold"][1])):
        ctx.add("EYPF005", f"{_a(type_name)} assertion has no 'threshold': the test errors with "
                f"\"{THRESHOLD_REQUIRED[base]}\"", ctx.span(type_node))
        return
    where = ctx.span(value) if value is not None and not is_null(value) else ctx.span(type_node)
    if base in SCALAR_VALUE:
        if value is None or is_null(value) or not (value_text is not None or is_number(value)):
            ctx.add("EYPF005", f"{_a(type_name)} assertion needs a string or number 'value': the "
                    f"test errors with \"\\\"{base}\\\" assertion type must have a string or "
                    "number value\"", where)
    elif base in LIST_VALUE:
        if value is None or is_null(value) or not (value_text is not None or
                                                   isinstance(value, Sequence)):
            ctx.add("EYPF005", f"{_a(type_name)} assertion needs a list 'value' (or a "
                    f"comma-separated string): the test errors with \"{base} assertion type "
                    "must have an array value\"", where)
    elif base in STRING_VALUE:
        if value_text is None or (base in ("starts-with", "regex") and not value_text):
            what = "a non-empty string" if base in ("starts-with", "regex") else "a string"
            ctx.add("EYPF005", f"{_a(type_name)} assertion needs {what} 'value': the test "
                    "errors when it runs", where)
    elif base in STRING_OR_LIST and value_text is None and \
            not (isinstance(value, Sequence) and value.items):
        ctx.add("EYPF005", f"{_a(type_name)} assertion needs a string (or a non-empty list "
                    "of strings) 'value': the test errors when it runs", where)
