"""Judge-calibration files: `CalibrationCaseLoader`'s rules, every one located.

`eval-harness:calibrate-judge` reads the file named on its command line with
`CalibrationCaseLoader`, which throws at the first problem, so each rule is an error with the
loader's exact message. Decisions read from its code: `name` is not required (fixtures carry
one; the loader never reads it); `schema_version` is optional and must then be exactly
eval-harness.calibration.v1; `input` may be `{}` or `[]` but not a non-empty list;
`expected` and `actual` must be strings (`expected: 100` is an integer and fails);
`human_verdict` is `pass` or `fail`, case-sensitive.
"""

from __future__ import annotations

from evalyaml.core.findings import Related
from evalyaml.core.model import CaseSummary
from evalyaml.core.suggest import rank
from evalyaml.formats.padosoft.common import Context, Typos, loop_items, typo_note
from evalyaml.formats.padosoft.dataset import check_schema_version, loader
from evalyaml.formats.padosoft.kinds import CALIBRATION_VERSION
from evalyaml.formats.padosoft.values import (
    describe,
    is_array,
    is_assoc_or_empty,
    is_empty_array,
    is_list,
    string_of,
    value_of,
)
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

LOAD = "eval-harness refuses to load the calibration file"
ROOT_KEYS = ("schema_version", "name", "cases")
CASE_KEYS = ("id", "input", "expected", "actual", "human_verdict")
CASE_ALIASES = {"expected_output": "expected", "verdict": "human_verdict",
                "actual_output": "actual", "output": "actual", "label": "human_verdict"}
VERDICTS = ("pass", "fail")


def check_calibration(ctx: Context, root: Node | None, *, cases_elsewhere: bool = False
                      ) -> list[CaseSummary]:
    """`cases_elsewhere`: the root of a file split into its cases (`calcases.py`), whose
    `cases:` has its list's lines taken out; each case is checked on its own (`check_case`)."""
    upstream = "Calibration YAML missing required list field 'cases'."
    if not isinstance(root, Mapping):
        where = ctx.first_line() if root is None or value_of(root) is None else \
            ctx.head_span(root)
        what = "empty" if root is None or value_of(root) is None else (
            "a list" if isinstance(root, Sequence) else "a single value")
        ctx.add("EY502", loader(f"the file is {what}, not a mapping with a 'cases' list",
                                upstream, LOAD), where)
        return []
    typos = Typos(root, ROOT_KEYS)
    check_schema_version(ctx, root, (CALIBRATION_VERSION,), label="Calibration", prefix=LOAD,
                         supported_word="Supported")
    cases = [] if cases_elsewhere else _check_cases(ctx, root, typos, upstream)
    typos.report_all_extra(ctx, "EY513", "the calibration file", "its value has no effect",
                           exclude=("cases",))
    return cases


def _check_cases(ctx: Context, root: Mapping, typos: Typos, upstream: str) -> list[CaseSummary]:
    pair = root.pair("cases")
    if pair is None:
        typo = typos.misspelt.get("cases")
        if typo is not None:
            ctx.add("EY502", loader("the file has no 'cases'" + typo_note(typo, "cases"),
                                    upstream, LOAD), ctx.span(typo),
                    fixes=(ctx.rename_fix(typo, "cases"),))
        else:
            ctx.add("EY502", loader("the file has no 'cases' list", upstream, LOAD),
                    ctx.head_span(root))
        return []
    key, value = pair
    if not is_array(value):
        ctx.add("EY502", loader(f"'cases' is {describe(value)}, not a list of cases", upstream,
                                LOAD), ctx.value_span(key, value))
        return []
    if is_empty_array(value):
        ctx.add("EY503", loader("'cases' is empty; calibration needs at least one labelled case",
                                "Calibration YAML must declare at least one case.", LOAD),
                ctx.value_span(key, value))
        return []
    items = loop_items(ctx, value, file="calibration file", key="cases",
                       validator="validateCase")
    seen: dict[str, Node] = {}
    out: list[CaseSummary] = []
    for index, case in enumerate(items):
        summary = check_case(ctx, case, index, seen)
        if summary is not None:
            out.append(summary)
    return out


def check_case(ctx: Context, case: Node, index: int, seen: dict[str, Node]
               ) -> CaseSummary | None:
    if not is_array(case):
        ctx.add("EY504", loader(f"case {index} is {describe(case)}, not a mapping",
                                f"Calibration case at index {index} is not an associative "
                                "array.", LOAD), ctx.node_span(case))
        return None
    id_upstream = f"Calibration case at index {index} missing required string field 'id'."
    if not isinstance(case, Mapping) or (is_list(case) and case.pairs):
        ctx.add("EY505", loader(f"case {index} is a list, not a mapping, so it has no 'id'",
                                id_upstream, LOAD), ctx.head_span(case))
        return None
    typos = Typos(case, CASE_KEYS, CASE_ALIASES)
    case_id: str | None = None
    id_node: Node | None = None
    pair = case.pair("id")
    if pair is None:
        typo = typos.misspelt.get("id")
        _missing(ctx, case, typo, "id", why=f"case {index} has no 'id'", upstream=id_upstream)
    else:
        key, value = pair
        text = string_of(value)
        if not text:
            why = ("'id' is null, which counts as missing" if value_of(value) is None else
                   f"the id is {describe(value)}, not a non-empty string")
            fixes = (ctx.replace_fix(value, f'"{value.text}"', "Quote the id"),) if (
                isinstance(value, Scalar) and value.text and value_of(value) is not None
                and text is None) else ()
            ctx.add("EY505", loader(why, id_upstream, LOAD), ctx.value_span(key, value),
                    fixes=fixes)
        else:
            case_id, id_node = text, value
            first = seen.get(text)
            if first is not None:
                duplicate_case(ctx, text, index, ctx.span(value), ctx.span(first))
            else:
                seen[text] = value
    label = f"Calibration case '{case_id or ''}' (index {index})"
    who = f"case '{case_id}'" if case_id is not None else f"case {index}"
    upstream = f"{label} field 'input' must be an associative array."
    pair = case.pair("input")
    if pair is None:
        _missing(ctx, case, typos.misspelt.get("input"), "input", why=f"{who} has no 'input'",
                 upstream=upstream)
    elif not is_assoc_or_empty(pair[1]):
        what = "a list" if is_array(pair[1]) else describe(pair[1])
        ctx.add("EY507", loader(f"'input' is {what}, not a mapping of named arguments", upstream,
                                LOAD), ctx.value_span(*pair))
    for field in ("expected", "actual"):
        upstream = f"{label} field '{field}' must be a string."
        pair = case.pair(field)
        if pair is None:
            _missing(ctx, case, typos.misspelt.get(field), field, why=f"{who} has no '{field}'",
                     upstream=upstream, code="EY510")
        elif string_of(pair[1]) is None:
            value = pair[1]
            fixes = (ctx.replace_fix(value, f'"{value.text}"', "Quote it"),) if (
                isinstance(value, Scalar) and value.is_plain and value.text) else ()
            ctx.add("EY510", loader(f"'{field}' is {describe(value)}, not a string"
                                    + ("; quote it" if fixes else ""), upstream, LOAD),
                    ctx.value_span(*pair), fixes=fixes)
    _check_verdict(ctx, case, typos, label, who)
    typos.report_all_extra(ctx, "EY513", who, "its value has no effect",
                           exclude=("id", "input", "expected", "actual", "human_verdict"))
    return CaseSummary(case_id, ctx.span(case), ctx.span(id_node) if id_node else None)


def duplicate_case(ctx: Context, case_id: str, index: int, at: Span, first: Span) -> None:
    """EY506 on the id of case `index`, the same as the case's at `first`."""
    ctx.add("EY506", loader(f"case id '{case_id}' is already used on line {first.start.line + 1}"
                            "; case ids must be unique",
                            f"Duplicate calibration case id '{case_id}' at index {index}.", LOAD),
            at, related=(Related(None, first, f"first case '{case_id}'"),))


def _check_verdict(ctx: Context, case: Mapping, typos: Typos, label: str, who: str) -> None:
    upstream = f"{label} field 'human_verdict' must be one of: pass, fail."
    pair = case.pair("human_verdict")
    if pair is None:
        _missing(ctx, case, typos.misspelt.get("human_verdict"), "human_verdict",
                 why=f"{who} has no 'human_verdict'", upstream=upstream, code="EY511")
        return
    key, value = pair
    text = string_of(value)
    if text in VERDICTS:
        return
    ranked = rank(text, VERDICTS) if text else []
    hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
    ctx.add("EY511", loader(f"human_verdict is {describe(value)}, not 'pass' or 'fail'{hint}",
                            upstream,
                            LOAD), ctx.value_span(key, value),
            fixes=(ctx.replace_fix(value, ranked[0]),) if ranked else ())


def _missing(ctx: Context, case: Mapping, typo: Scalar | None, name: str, *, why: str,
             upstream: str, code: str = "EY505") -> None:
    if name == "input":
        code = "EY507"
    if typo is not None:
        ctx.add(code, loader(why + typo_note(typo, name), upstream, LOAD), ctx.span(typo),
                fixes=(ctx.rename_fix(typo, name),))
    else:
        ctx.add(code, loader(why, upstream, LOAD), ctx.head_span(case))

