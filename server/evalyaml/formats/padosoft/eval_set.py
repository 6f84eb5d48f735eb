"""Eval sets: `EvalSetDefinition::fromJson` and its constructor's rules, every one located.

An eval set (`eval-harness.eval-set.v1`, JSON) names the datasets one `runEvalSet()` runs, by
their exact registered name. eval-harness throws `EvalRunException` at the first problem, so
each rule is an error with its message. Its names are exact identifiers: eval-harness rejects
leading or trailing whitespace rather than trimming it. Whether each listed name is a dataset
in the workspace is the engine's cross-file rule (the references returned here), not this one.
"""

from __future__ import annotations

from evalyaml.core.findings import Related
from evalyaml.core.model import Reference
from evalyaml.core.suggest import rank
from evalyaml.formats.padosoft.common import Context, Typos, typo_note
from evalyaml.formats.padosoft.dataset import loader
from evalyaml.formats.padosoft.kinds import DATASET, EVAL_SET_VERSION
from evalyaml.formats.padosoft.values import describe, is_array, is_list, items_of, string_of
from evalyaml.syntax.tree import Mapping, Node, Sequence

REFUSE = "eval-harness refuses the eval set"
ROOT_KEYS = ("schema_version", "name", "datasets")
FIELDS = "Eval set definition requires schema_version, name, and datasets fields."


def check_eval_set(ctx: Context, root: Node | None) -> list[Reference]:
    if not isinstance(root, Mapping):
        what = "empty" if root is None else (
            "an array" if isinstance(root, Sequence) else describe(root))
        ctx.add("EY502", loader(f"the file is {what}, not an object with schema_version, name "
                                "and datasets", FIELDS, REFUSE),
                ctx.first_line() if root is None else ctx.head_span(root))
        return []
    typos = Typos(root, ROOT_KEYS)
    name = _check_name(ctx, root, typos)
    # Messages name the eval set as eval-harness would: its raw name, padding and all.
    shown = name if name is not None else (string_of(root.get("name")) or "")
    _check_version(ctx, root, typos, shown)
    references = _check_datasets(ctx, root, typos, shown)
    typos.report_all_extra(ctx, "EY513", "the eval set", "its value has no effect",
                           exclude=ROOT_KEYS)
    return references


def _missing(ctx: Context, root: Mapping, typos: Typos, key: str, code: str) -> None:
    typo = typos.misspelt.get(key)
    if typo is not None:
        ctx.add(code, loader(f"the eval set has no '{key}'" + typo_note(typo, key), FIELDS,
                             REFUSE), ctx.span(typo), fixes=(ctx.rename_fix(typo, key),))
    else:
        ctx.add(code, loader(f"the eval set has no '{key}'", FIELDS, REFUSE),
                ctx.head_span(root))


def _check_name(ctx: Context, root: Mapping, typos: Typos) -> str | None:
    pair = root.pair("name")
    if pair is None:
        _missing(ctx, root, typos, "name", "EY501")
        return None
    key, value = pair
    text = string_of(value)
    if text is None:
        ctx.add("EY501", loader(f"'name' is {describe(value)}, not a string", FIELDS, REFUSE),
                ctx.value_span(key, value))
        return None
    if text == "" or text != text.strip():
        import json  # here: a dataset check without this mistake does not pay it (issue #27)

        trimmed = text.strip()
        ctx.add("EY501", loader(
            "the name is empty" if not trimmed else
            "the name has leading or trailing whitespace (eval-harness matches names exactly "
            "and does not trim them)",
            "Eval set name must be a non-empty string without leading or trailing whitespace.",
            REFUSE), ctx.span(value),
            fixes=(ctx.replace_fix(value, json.dumps(trimmed, ensure_ascii=False),
                                   "Trim the name"),) if trimmed else ())
        return None
    return text


def _check_version(ctx: Context, root: Mapping, typos: Typos, name: str) -> None:
    pair = root.pair("schema_version")
    if pair is None:
        _missing(ctx, root, typos, "schema_version", "EY500")
        return
    key, value = pair
    text = string_of(value)
    if text is None:
        ctx.add("EY500", loader(f"'schema_version' is {describe(value)}, not a string", FIELDS,
                                REFUSE), ctx.value_span(key, value))
        return
    if text == EVAL_SET_VERSION:
        return
    ranked = [] if text.startswith("eval-harness.") else rank(text, (EVAL_SET_VERSION,))
    hint = f"; did you mean '{EVAL_SET_VERSION}'?" if ranked else ""
    ctx.add("EY500", loader(f"this eval-harness reads only {EVAL_SET_VERSION}{hint}",
                            f"Eval set '{name}' uses unsupported schema version '{text}'. "
                            f"Supported version: {EVAL_SET_VERSION}.", REFUSE),
            ctx.span(value), fixes=(ctx.replace_fix(value, f'"{EVAL_SET_VERSION}"'),))


def _check_datasets(ctx: Context, root: Mapping, typos: Typos, name: str) -> list[Reference]:
    pair = root.pair("datasets")
    if pair is None:
        _missing(ctx, root, typos, "datasets", "EY502")
        return []
    key, value = pair
    if not is_array(value):
        ctx.add("EY502", loader(f"'datasets' is {describe(value)}, not an array of dataset names",
                                FIELDS, REFUSE), ctx.value_span(key, value))
        return []
    if not is_list(value):
        ctx.add("EY502", loader("'datasets' is an object; list the dataset names in an array",
                                "Eval set definition datasets field must be a zero-based list.",
                                REFUSE), ctx.value_span(key, value))
        return []
    items = items_of(value)
    if not items:
        ctx.add("EY503", loader("'datasets' is empty; an eval set runs at least one dataset",
                                f"Eval set '{name}' must include at least one dataset.", REFUSE),
                ctx.value_span(key, value))
        return []
    seen: dict[str, Node] = {}
    references: list[Reference] = []
    for index, item in enumerate(items):
        text = string_of(item)
        if text is None:
            ctx.add("EY512", loader(f"dataset {index} is {describe(item)}, not a dataset name",
                                    f"Eval set definition dataset at index {index} must be a "
                                    "string.", REFUSE), ctx.span(item))
            continue
        if text == "" or text != text.strip():
            import json

            trimmed = text.strip()
            ctx.add("EY512", loader(
                "the dataset name is empty" if not trimmed else
                "the dataset name has leading or trailing whitespace (eval-harness matches "
                "dataset names exactly and does not trim them)",
                f"Eval set '{name}' dataset name at index {index} must be a non-empty string "
                "without leading or trailing whitespace.", REFUSE), ctx.span(item),
                fixes=(ctx.replace_fix(item, json.dumps(trimmed, ensure_ascii=False),
                                       "Trim the name"),) if trimmed else ())
            continue
        first = seen.get(text)
        if first is not None:
            line = ctx.parsed.lines.position(first.start).line + 1
            ctx.add("EY506", loader(f"dataset '{text}' is already listed on line {line}",
                                    f"Eval set '{name}' contains duplicate dataset '{text}'.",
                                    REFUSE), ctx.span(item),
                    related=(Related(None, ctx.span(first), f"first '{text}'"),))
            continue
        seen[text] = item
        references.append(Reference(target=DATASET, raw=text, span=ctx.span(item),
                                    origin="eval-set", owner=name, id=text, pin=None))
    return references
