"""Rubric items, as `grader-parser.ts` reads them at e43a4d46.

Two readers with different rules: `parseRubricItems` (an llm-grader's `rubrics:`, a `rubrics`
grader's `criteria:`) throws on a bad `min_score` or `score_ranges` and accepts `criteria:` as
the alias of `outcome:`; `parseInlineRubrics` (a test's own `rubrics:`) throws on nothing, reads
only `outcome:` and drops an item without one silently. Each rule below says which reader it is.
"""

from __future__ import annotations

from itertools import pairwise

from evalyaml.core.findings import Fix, TextEdit
from evalyaml.formats.agentv import rules
from evalyaml.formats.agentv.common import Context, pairs, rank_value, text_of
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence


def check_assertion_rubrics(ctx: Context, items: Sequence, *, strings: bool = False) -> None:
    """`strings`: a `rubrics` grader's `criteria:` turns string items into rubrics first."""
    for index, item in enumerate(items.items):
        if not isinstance(item, Mapping):
            if not (strings and isinstance(item, Scalar) and isinstance(item.value, str)):
                ctx.add("EY631", f"rubric {index + 1} is not a mapping: the loader skips it "
                        "(\"Skipping invalid rubric entry ... (expected object)\"); write "
                        "'- outcome: ...'", ctx.span(item) if item.end > item.start
                        else ctx.point(item))
            continue
        values = {key.text: (key, value) for key, value in pairs(item)}
        rubric_id = text_of(values["id"][1]) if "id" in values else None
        rubric_id = rubric_id or f"rubric-{index + 1}"
        _operator(ctx, values, rubric_id)
        _min_score(ctx, values, rubric_id)
        outcome = text_of(values["outcome"][1]) if "outcome" in values else None
        if not outcome and "criteria" in values:
            outcome = text_of(values["criteria"][1])
        if "score_ranges" in values:
            check_score_ranges(ctx, values["score_ranges"][0], values["score_ranges"][1],
                               rubric_id)
        elif not outcome:
            span = ctx.span(values["id"][1]) if "id" in values else ctx.span(pairs(item)[0][0]) \
                if item.pairs else ctx.span(item)
            ctx.add("EY631", f"rubric '{rubric_id}' has no 'outcome': the loader skips it "
                    "(\"missing outcome\")", span)


def check_inline_rubrics(ctx: Context, items: Sequence) -> None:
    for index, item in enumerate(items.items):
        if not isinstance(item, Mapping):
            continue
        values = {key.text: (key, value) for key, value in pairs(item)}
        rubric_id = text_of(values["id"][1]) if "id" in values else None
        rubric_id = rubric_id or f"rubric-{index + 1}"
        _operator(ctx, values, rubric_id)
        outcome = text_of(values["outcome"][1]) if "outcome" in values else None
        if outcome or "score_ranges" in values:
            continue
        if "criteria" in values:
            key = values["criteria"][0]
            fixes = () if "outcome" in values else (Fix("Rename to 'outcome'", (TextEdit(
                ctx.span(key), "outcome"),), preferred=True),)
            ctx.add("EY630", f"'criteria' is not read in a test's own 'rubrics': rubric "
                    f"'{rubric_id}' is dropped without a word (the alias works only inside an "
                    "assertion's rubrics); write 'outcome'", ctx.span(key), fixes=fixes)
        else:
            span = ctx.span(values["id"][1]) if "id" in values else ctx.span(pairs(item)[0][0]) \
                if item.pairs else ctx.span(item)
            ctx.add("EY631", f"rubric '{rubric_id}' has no 'outcome': the loader drops it "
                    "without a word", span)


def _operator(ctx: Context, values: dict[str, tuple[Scalar, Node]], rubric_id: str) -> None:
    if "operator" not in values:
        return
    key, value = values["operator"]
    text = text_of(value)
    if text in rules.RUBRIC_OPERATORS:
        return
    ranked = rank_value(text, rules.RUBRIC_OPERATORS) if text else []
    hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
    ctx.add("EY626", f"Ignoring invalid operator for rubric '{rubric_id}': must be one of "
            f"{', '.join(rules.RUBRIC_OPERATORS)}{hint}", ctx.at(key, value),
            fixes=(ctx.rename_fix(value, ranked[0]),) if ranked and isinstance(value, Scalar)
            else ())


def _number(node: Node) -> float | None:
    if isinstance(node, Scalar):
        value = node.value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
    return None


def _min_score(ctx: Context, values: dict[str, tuple[Scalar, Node]], rubric_id: str) -> None:
    if "min_score" in values:
        value = values["min_score"][1]
        number = _number(value)
        if number is not None and (number <= 0 or number > 1):
            ctx.add("EY627", f"Invalid min_score for rubric '{rubric_id}': must be in (0, 1] "
                    f"(got {value.text if isinstance(value, Scalar) else number}); the loader "
                    "refuses the suite", ctx.span(value))
        if number is not None:
            return
    if "required_min_score" in values:
        key, value = values["required_min_score"]
        number = _number(value)
        if number is None:
            return
        if not number.is_integer() or number < 0 or number > 10:
            ctx.add("EY627", f"Invalid required_min_score for rubric '{rubric_id}': must be an "
                    f"integer 0-10 (got {value.text if isinstance(value, Scalar) else number}); "
                    "the loader refuses the suite", ctx.span(value))
            return
        new = number / 10
        shown = f"{new:g}"
        ctx.add("EY628", f"'required_min_score: {int(number)}' is deprecated. Use "
                f"'min_score: {shown}' (0-1 scale) instead.", ctx.span(key),
                fixes=(Fix(f"Replace with 'min_score: {shown}'", (
                    TextEdit(ctx.span(key), "min_score"), TextEdit(ctx.span(value), shown))),)
                if number > 0 else ())


def check_score_ranges(ctx: Context, key: Scalar, value: Node, rubric_id: str) -> None:
    """`parseScoreRanges` after `normalizeScoreRangesShorthand`: every problem throws."""
    where = f"in rubric '{rubric_id}'"
    ranges: list[tuple[int, int, Node]] = []
    if isinstance(value, Mapping):
        entries = pairs(value)
        if not entries:
            return
        numeric: list[tuple[int, Scalar]] = []
        for k, v in entries:
            number = _number(k) if k.is_plain else None
            try:
                number = float(k.text) if number is None else number
            except ValueError:
                number = None
            if number is None or not number.is_integer() or text_of(v) in (None, ""):
                ctx.add("EY629", f"Invalid score_ranges {where}: must be an array or shorthand "
                        "map (keys 0-10, each with a non-empty outcome)", ctx.span(k))
                return
            numeric.append((int(number), k))
        numeric.sort(key=lambda pair: pair[0])
        if numeric[0][0] != 0:
            ctx.add("EY629", f"score_ranges shorthand map must start at 0 (got {numeric[0][0]})",
                    ctx.span(numeric[0][1]))
            return
        for i, (start, k) in enumerate(numeric):
            stop = numeric[i + 1][0] - 1 if i + 1 < len(numeric) else 10
            if start > 10:
                ctx.add("EY629", f"Invalid score_range {where}: values must be 0-10 (got "
                        f"[{start}, {stop}])", ctx.span(k))
                return
            ranges.append((start, stop, k))
    elif isinstance(value, Sequence):
        for index, entry in enumerate(value.items):
            if not isinstance(entry, Mapping):
                ctx.add("EY629", f"Invalid score_range entry at index {index} {where}: expected "
                        "object", ctx.span(entry))
                return
            pair = entry.pair("score_range")
            bounds = pair[1] if pair else None
            numbers = [_number(n) for n in bounds.items] if isinstance(bounds, Sequence) else []
            span = ctx.span(bounds) if bounds is not None and bounds.end > bounds.start else \
                ctx.span(pair[0]) if pair else ctx.span(entry)
            if len(numbers) != 2 or numbers[0] is None or numbers[1] is None:
                ctx.add("EY629", f"Invalid score_range at index {index} {where}: must be [min, "
                        "max] array of two numbers", span)
                return
            low, high = numbers[0], numbers[1]
            shown = f"[{low:g}, {high:g}]"
            if not low.is_integer() or not high.is_integer():
                ctx.add("EY629", f"Invalid score_range at index {index} {where}: values must be "
                        f"integers (got {shown})", span)
                return
            if not (0 <= low <= 10 and 0 <= high <= 10):
                ctx.add("EY629", f"Invalid score_range at index {index} {where}: values must be "
                        f"0-10 (got {shown})", span)
                return
            if low > high:
                ctx.add("EY629", f"Invalid score_range at index {index} {where}: min must be <= "
                        f"max (got {shown})", span)
                return
            outcome = entry.pair("outcome")
            if outcome is None or not text_of(outcome[1]):
                ctx.add("EY629", f"Missing outcome for score_range {shown} {where}",
                        ctx.span(outcome[0]) if outcome else span)
                return
            ranges.append((int(low), int(high), bounds if bounds is not None else entry))
    else:
        ctx.add("EY629", f"Invalid score_ranges {where}: must be an array or shorthand map",
                ctx.at(key, value))
        return
    ordered = sorted(ranges, key=lambda r: r[0])
    for previous, current in pairwise(ordered):
        if current[0] <= previous[1]:
            ctx.add("EY629", f"Overlapping score_ranges {where}: [{previous[0]}, {previous[1]}] "
                    f"overlaps with [{current[0]}, {current[1]}]", ctx.span(current[2]))
            return
    covered = {n for low, high, _ in ranges for n in range(low, high + 1)}
    missing = [n for n in range(11) if n not in covered]
    if missing:
        ctx.add("EY629", f"Incomplete score_ranges coverage {where}: missing coverage for "
                f"scores: {', '.join(map(str, missing))}. Ranges must cover all integers 0-10.",
                ctx.span(key))
