"""`metadata` knobs: what eval-harness's metrics and reports read from a sample at run time.

The loader never looks inside `metadata`; the metrics do, when they score the sample. So a
wrong knob does not stop the load: either the metric throws a `MetricException` (the sample
fails that metric in the report) or the knob is silently ignored. Both are warnings here
(CONTRACT class), each saying which of the two happens, read from the metric's code:
- `k` (retrieval metrics, `AbstractRetrievalRankingMetric::resolveK`): used only when it is an
  integer above 0; anything else falls back to the metric's k, the configured default_k, then 5.
- `refusal_expected` (`RefusalQualityMetric`): must be a boolean; symfony/yaml reads YAML 1.2,
  so `yes`/`no` are strings and the metric fails. `refusal_policy` is used only as a string.
- `citations` / `citation_evidence` (`CitationGroundednessMetric`): evidence wins when present
  and is checked strictly; citations drop non-strings and fail when none is left.
- `tags` (`EvalReport::tagsForSample`): a string or a list; non-strings and blanks are dropped.
- `trajectory` (`AbstractTrajectoryMetric` and its metrics): a mapping of expectations; an
  unusable value is ignored and the metric falls back to its default, which often passes.
"""

from __future__ import annotations

from evalyaml.core.findings import Fix, TextEdit
from evalyaml.formats.padosoft.common import Context, Typos, typo_note
from evalyaml.formats.padosoft.values import (
    describe,
    is_array,
    is_list,
    items_of,
    php_type,
    string_of,
    value_of,
)
from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar

METADATA_KEYS = ("tags", "k", "refusal_expected", "refusal_policy", "citations",
                 "citation_evidence", "trajectory")
TRAJECTORY_KEYS = ("tools", "forbidden_tools", "order", "requires_approval", "max_steps",
                   "tool_arguments")
_TRAJECTORY_LISTS = ("tools", "forbidden_tools", "order", "requires_approval")
_YAML11_BOOLS = {"yes": "true", "no": "false", "on": "true", "off": "false", "y": "true",
                 "n": "false"}
_DIGITS = lazy_re(r"[0-9]+")


def check_metadata(ctx: Context, metadata: Mapping, sample_id: str) -> None:
    typos = Typos(metadata, METADATA_KEYS)
    for key, value in metadata.pairs:
        if not isinstance(key, Scalar):
            continue
        name = key.text
        if name == "k":
            _check_k(ctx, value)
        elif name == "refusal_expected":
            _check_refusal_expected(ctx, value, sample_id)
        elif name == "refusal_policy":
            if string_of(value) is None and value_of(value) is not None:
                ctx.add("EY515", "refusal-quality ignores metadata.refusal_policy unless it is "
                        f"a string: {describe(value)} gives the judge an empty policy",
                        ctx.value_span(key, value))
        elif name == "tags":
            _check_tags(ctx, key, value)
        elif name == "citations" and metadata.pair("citation_evidence") is None:
            _check_citations(ctx, key, value, sample_id)
        elif name == "citation_evidence":
            _check_evidence(ctx, key, value, sample_id)
        elif name == "trajectory":
            _check_trajectory(ctx, key, value)
    typos.report_all_extra(ctx, "EY513", f"the metadata of sample '{sample_id}'",
                           "metadata.{key} is not set")


def _check_k(ctx: Context, value: Node) -> None:
    parsed = value_of(value)
    if isinstance(parsed, int) and not isinstance(parsed, bool) and parsed > 0:
        return
    fixes: tuple[Fix, ...] = ()
    hint = ""
    text = string_of(value)
    if text is not None and _DIGITS.fullmatch(text.strip()) and int(text) > 0:
        hint = f"; write k: {int(text)} without quotes"
        fixes = (ctx.replace_fix(value, str(int(text)), f"Write k: {int(text)}"),)
    elif isinstance(parsed, float) and parsed.is_integer() and parsed > 0:
        hint = f"; write k: {int(parsed)}"
        fixes = (ctx.replace_fix(value, str(int(parsed)), f"Write k: {int(parsed)}"),)
    ctx.add("EY514", f"retrieval metrics ignore metadata.k here: {describe(value)} is not a "
            "positive integer, so the cutoff falls back to the metric's own k, then "
            f"eval-harness.metrics.retrieval.default_k, then 5{hint}",
            _span(ctx, value), fixes=fixes)


def _check_refusal_expected(ctx: Context, value: Node, sample_id: str) -> None:
    parsed = value_of(value)
    if isinstance(parsed, bool):
        return
    hint = ""
    fixes: tuple[Fix, ...] = ()
    if isinstance(value, Scalar) and isinstance(parsed, str):
        lowered = parsed.strip().lower()
        if value.is_plain and lowered in _YAML11_BOOLS:
            meant = _YAML11_BOOLS[lowered]
            hint = (f"; symfony/yaml reads YAML 1.2, where '{parsed}' is a string, not a "
                    f"boolean: write {meant}")
            fixes = (ctx.replace_fix(value, meant),)
        elif lowered in ("true", "false"):
            hint = f"; write {lowered} without quotes"
            fixes = (ctx.replace_fix(value, lowered),)
    ctx.add("EY515", f"refusal-quality fails this sample: metadata.refusal_expected is "
            f"{describe(value)}, not a boolean{hint} (metric: \"Sample '{sample_id}' "
            "metadata.refusal_expected must be a boolean for refusal-quality metric; got "
            f"{php_type(value)}.\")", _span(ctx, value), fixes=fixes)


def _check_tags(ctx: Context, key: Scalar, value: Node) -> None:
    text = string_of(value)
    if text is not None:
        if not text.strip():
            ctx.add("EY517", "reports ignore a blank tag: the sample falls in the untagged "
                    "cohort", ctx.value_span(key, value))
        return
    if not is_array(value):
        fixes = _quote_fix(ctx, value)
        ctx.add("EY517", f"reports ignore metadata.tags: {describe(value)} is neither a string "
                "nor a list of strings, so the sample falls in the untagged cohort",
                ctx.value_span(key, value), fixes=fixes)
        return
    items = items_of(value)
    for item in items:
        item_text = string_of(item)
        if item_text is None:
            ctx.add("EY517", f"reports drop {describe(item)} from metadata.tags: only strings are "
                    "tags"
                    + ("; quote it" if _quote_fix(ctx, item) else ""), _span(ctx, item),
                    fixes=_quote_fix(ctx, item))
        elif not item_text.strip():
            ctx.add("EY517", "reports drop a blank tag", _span(ctx, item))


def _check_citations(ctx: Context, key: Scalar, value: Node, sample_id: str) -> None:
    upstream = (f"Sample '{sample_id}' metadata.citations must contain at least one citation "
                "string for citation-groundedness metric.")
    text = string_of(value)
    if text is not None:
        if not text.strip():
            ctx.add("EY516", "citation-groundedness fails this sample: metadata.citations is "
                    f"blank (metric: \"{upstream}\")", ctx.value_span(key, value))
        return
    if not is_array(value):
        ctx.add("EY516", f"citation-groundedness fails this sample: metadata.citations is "
                f"{describe(value)}, not a string or a list of strings (metric: \"{upstream}\")",
                ctx.value_span(key, value))
        return
    items = items_of(value)
    if not any((string_of(item) or "").strip() for item in items):
        ctx.add("EY516", "citation-groundedness fails this sample: metadata.citations has no "
                f"citation string (metric: \"{upstream}\")", ctx.value_span(key, value))
        return
    for item in items:
        item_text = string_of(item)
        if item_text is None:
            ctx.add("EY516", f"citation-groundedness drops {describe(item)} from "
                    "metadata.citations: only strings are citations", _span(ctx, item),
                    fixes=_quote_fix(ctx, item))
        elif not item_text.strip():
            ctx.add("EY516", "citation-groundedness drops a blank citation", _span(ctx, item))


def _check_evidence(ctx: Context, key: Scalar, value: Node, sample_id: str) -> None:
    prefix = "citation-groundedness fails this sample"
    where = f"Sample '{sample_id}' metadata.citation_evidence"
    if not is_array(value) or not is_list(value) or not items_of(value):
        what = "empty" if is_array(value) and not items_of(value) else describe(value)
        ctx.add("EY516", f"{prefix}: metadata.citation_evidence is {what}, not a non-empty list "
                f"of {{citation, quote}} spans (metric: \"{where} must be a non-empty list of "
                "evidence spans.\")", ctx.value_span(key, value))
        return
    for index, item in enumerate(items_of(value)):
        at = f"{where}[{index}]"
        if not is_array(item):
            ctx.add("EY516", f"{prefix}: evidence span {index} is {describe(item)}, not a "
                    f"mapping (metric: \"{at} must be an object with citation and quote "
                    "fields.\")", _span(ctx, item))
            continue
        if not isinstance(item, Mapping):
            ctx.add("EY516", f"{prefix}: evidence span {index} is a list, so it has no "
                    f"citation (metric: \"{at}.citation must be a non-empty string.\")",
                    _span(ctx, item))
            continue
        _check_span(ctx, item, index, at=at, prefix=prefix, sample_id=sample_id)


def _check_span(ctx: Context, item: Mapping, index: int, *, at: str, prefix: str,
                sample_id: str) -> None:
    typos = Typos(item, ("citation", "quote", "quotes"))
    taken: set[str] = set()
    citation = item.pair("citation")
    upstream = f"{at}.citation must be a non-empty string."
    if citation is None:
        typo = typos.misspelt.get("citation")
        taken.add("citation")
        if typo is not None:
            ctx.add("EY516", f"{prefix}: evidence span {index} has no citation"
                    + typo_note(typo, "citation") + f" (metric: \"{upstream}\")", ctx.span(typo),
                    fixes=(ctx.rename_fix(typo, "citation"),))
        else:
            ctx.add("EY516", f"{prefix}: evidence span {index} has no citation (metric: "
                    f"\"{upstream}\")", ctx.head_span(item))
    elif not (string_of(citation[1]) or "").strip():
        ctx.add("EY516", f"{prefix}: the citation is {describe(citation[1])}, not a non-empty "
                f"string (metric: \"{upstream}\")", ctx.value_span(*citation))
    quote = item.pair("quote")
    quotes = item.pair("quotes")
    if quote is not None and not (string_of(quote[1]) or "").strip():
        ctx.add("EY516", f"{prefix}: the quote is {describe(quote[1])}, not a non-empty string "
                f"(metric: \"{at}.quote must be a non-empty string.\")", ctx.value_span(*quote))
    if quotes is not None:
        quotes_key, quotes_value = quotes
        if not is_array(quotes_value) or not is_list(quotes_value):
            ctx.add("EY516", f"{prefix}: quotes is {describe(quotes_value)}, not a list of "
                    f"strings (metric: \"{at}.quotes must be a list of non-empty strings.\")",
                    ctx.value_span(quotes_key, quotes_value))
        else:
            for quote_index, entry in enumerate(items_of(quotes_value)):
                if not (string_of(entry) or "").strip():
                    ctx.add("EY516", f"{prefix}: quote {quote_index} is {describe(entry)}, not "
                            f"a non-empty string (metric: \"{at}.quotes[{quote_index}] must be "
                            "a non-empty string.\")", _span(ctx, entry))
    if quote is None and quotes is None:
        upstream = f"{at} must contain a non-empty quote string or quotes list."
        typo = typos.misspelt.get("quote") or typos.misspelt.get("quotes")
        taken.update(("quote", "quotes"))
        if typo is not None:
            meant = "quote" if typos.misspelt.get("quote") is typo else "quotes"
            ctx.add("EY516", f"{prefix}: evidence span {index} has no quote"
                    + typo_note(typo, meant) + f" (metric: \"{upstream}\")", ctx.span(typo),
                    fixes=(ctx.rename_fix(typo, meant),))
        else:
            ctx.add("EY516", f"{prefix}: evidence span {index} has no quote or quotes (metric: "
                    f"\"{upstream}\")", ctx.head_span(item))
    typos.report_all_extra(ctx, "EY513", f"evidence span {index} of sample '{sample_id}'",
                           "'{key}' is not read", exclude=taken)


def _check_trajectory(ctx: Context, key: Scalar, value: Node) -> None:
    if not isinstance(value, Mapping) or (is_list(value) and value.pairs):
        ctx.add("EY519", "trajectory metrics read no expectations from metadata.trajectory: it "
                f"is {describe(value)}, not a mapping of expectations (tools, forbidden_tools, "
                "order, tool_arguments, max_steps, requires_approval), so each metric falls "
                "back to its default", ctx.value_span(key, value))
        return
    typos = Typos(value, TRAJECTORY_KEYS)
    for sub_key, sub_value in value.pairs:
        if not isinstance(sub_key, Scalar):
            continue
        name = sub_key.text
        if name in _TRAJECTORY_LISTS:
            _check_tool_list(ctx, sub_key, sub_value)
        elif name == "max_steps":
            parsed = value_of(sub_value)
            text = string_of(sub_value)
            if not ((isinstance(parsed, int) and not isinstance(parsed, bool))
                    or (text is not None and _DIGITS.fullmatch(text))):
                ctx.add("EY519", f"steps-below ignores trajectory.max_steps: {describe(sub_value)}"
                        " is not a whole number, so the metric uses its own limit",
                        ctx.value_span(sub_key, sub_value))
        elif name == "tool_arguments":
            _check_tool_arguments(ctx, sub_key, sub_value)
    typos.report_all_extra(ctx, "EY513", "metadata.trajectory",
                           "trajectory.{key} is not set")


def _check_tool_list(ctx: Context, key: Scalar, value: Node) -> None:
    name = key.text
    if string_of(value) is not None:
        return
    if not is_array(value):
        ctx.add("EY519", f"trajectory metrics ignore trajectory.{name}: {describe(value)} is not "
                "a tool name or a list of them, so the metric falls back to its default",
                ctx.value_span(key, value))
        return
    if not any(string_of(item) for item in items_of(value)):
        ctx.add("EY519", f"trajectory.{name} names no tool, so the metric falls back to its "
                "default expectation", ctx.value_span(key, value))
        return
    for item in items_of(value):
        if (string_of(item) or "") == "":
            ctx.add("EY519", f"trajectory metrics drop {describe(item)} from trajectory.{name}: "
                    "only non-empty strings are tool names", _span(ctx, item))


def _check_tool_arguments(ctx: Context, key: Scalar, value: Node) -> None:
    if not is_array(value) or not items_of(value):
        ctx.add("EY519", "tool-called-with finds no expectation in trajectory.tool_arguments "
                f"({describe(value) if not is_array(value) else 'it is empty'}) and scores the "
                "sample 1.0", ctx.value_span(key, value))
        return
    for index, item in enumerate(items_of(value)):
        if not isinstance(item, Mapping):
            ctx.add("EY519", f"tool-called-with skips tool_arguments[{index}]: it is "
                    f"{describe(item)}, not a mapping with 'tool' and 'arguments'",
                    _span(ctx, item))
            continue
        tool = item.get("tool")
        if tool is None or value_of(tool) is None:
            tool = item.get("name")
        if not string_of(tool):
            ctx.add("EY519", f"tool-called-with skips tool_arguments[{index}]: it names no tool "
                    "(a non-empty 'tool' string)", ctx.head_span(item))
        arguments = item.pair("arguments")
        if arguments is None or value_of(arguments[1]) is None:
            arguments = item.pair("args") or arguments
        if arguments is not None and not is_array(arguments[1]):
            ctx.add("EY519", f"tool-called-with ignores these arguments: {describe(arguments[1])}"
                    " is not a mapping, so any call of the tool matches",
                    ctx.value_span(*arguments))


def _span(ctx: Context, node: Node) -> Span:
    if node.end > node.start:
        return ctx.span(node)
    lines = ctx.parsed.lines
    line = lines.position(node.start).line
    start = lines.line_start(line)
    text = lines.line_text(line)
    return lines.span(start + len(text) - len(text.lstrip()), lines.line_end(line))


def _quote_fix(ctx: Context, node: Node) -> tuple[Fix, ...]:
    if isinstance(node, Scalar) and node.is_plain and node.text:
        return (Fix("Quote it", (TextEdit(ctx.span(node), f'"{node.text}"'),), preferred=True),)
    return ()

