"""One file's rules: what the harness decides from this file's own keys and values.

What needs another file (an include's keys, a `!function` module, a filter or metric a task's
`utils.py` registers) is the cross check's (`cross.py`); this module records what it will need
in `Facts`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.suggest import best, best_value
from evalyaml.formats.lmeval import jinja, vocab
from evalyaml.formats.lmeval.common import Context, is_function, tag_free, text_of, top
from evalyaml.formats.lmeval.values import check_choices, check_includes
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

_TASK_KEYS = frozenset(vocab.TASK_FIELDS) | frozenset(vocab.LOADER_KEYS)
_GROUP_KEYS = _TASK_KEYS | frozenset(vocab.GROUP_FIELDS)
_HINTS = {"version": "write it as 'metadata: {version: ...}'",
          "aggregate_metric_list": "it belongs in a group file",
          "group_alias": "it belongs in a group file"}


@dataclass(slots=True)
class Named:
    """A name this file uses that another file may define: a `!function` module, a metric or
    a filter (registered by a task's `utils.py`), an include."""

    what: str  # "function", "metric", "metric-aggregation", "filter", "include"
    name: str
    span: Span
    extra: str = ""  # the metric's output types, a suggestion


@dataclass(slots=True)
class Facts:
    names: list[Named] = field(default_factory=list)
    member_refs: list[tuple[str, Span]] = field(default_factory=list)
    tags: list[tuple[str, Span]] = field(default_factory=list)
    exact_match_args: list[tuple[str, Span]] = field(default_factory=list)
    template_names: dict[str, dict[str, Span]] = field(default_factory=dict)
    deferred: list[Finding] = field(default_factory=list)  # unknown keys beside an include


def check_root(ctx: Context, root: Mapping, *, group: bool, python: bool, facts: Facts) -> None:
    keys = top(root)
    _functions(ctx, root, facts)
    if not python and ("include" not in keys or group):
        _unknown_keys(ctx, keys, group=group)
    elif not python:
        # An include may make this a Python task (`class:`), whose constructor takes anything:
        # the cross check reports these once the merged config is known.
        later = Context(ctx.parsed, FindingSink(strict=ctx.sink.strict))
        _unknown_keys(later, keys, group=group)
        facts.deferred.extend(later.sink.findings)
    if group:
        _group(ctx, keys, facts)
        if "tag" in keys:
            ctx.add("EYLM023", "the index never registers a group's tag (it stores it and "
                    "reads tags from task files only): this group is not among the tag's "
                    "members, so --tasks with the tag does not run it; list the group where "
                    "it should run, or tag its tasks", keys["tag"][0])
    else:
        _task_name(ctx, keys)
        _tags(ctx, keys, facts)
    _output_type(ctx, keys)
    _metrics(ctx, keys, facts)
    _filters(ctx, keys, facts)
    _fewshot(ctx, keys)
    _templates(ctx, keys, facts, "")
    if "include" in keys:
        _includes(ctx, keys["include"][1], facts)
        check_includes(ctx, keys["include"][1])
    if "doc_to_choice" in keys and "use_prompt" not in keys:
        check_choices(ctx, keys["doc_to_choice"][1])


def _unknown_keys(ctx: Context, keys: dict[str, tuple[Scalar, Node]], *, group: bool) -> None:
    allowed = _GROUP_KEYS if group else _TASK_KEYS
    raises = "a group passes every key it does not have to each child task, where the " \
        "harness raises" if group else "the harness raises"
    for name, (key, _) in keys.items():
        if name not in allowed:
            _not_a_field(ctx, key, name, sorted(allowed), raises=raises, loaded="task",
                         note=f" ({_HINTS[name]})" if name in _HINTS else "")


def _not_a_field(ctx: Context, key: Scalar, name: str, candidates: Iterable[str], *,
                 raises: str, loaded: str, note: str) -> None:
    """EYLM006 on `key`, with the nearest of `candidates` as did-you-mean and rename fix (else
    `note`): `TaskConfig(**config)` takes no other keyword."""
    hint = best(name, candidates)
    tail = f"; did you mean '{hint}'?" if hint else note
    ctx.add("EYLM006", f"'{name}' is not a TaskConfig field: {raises} \"TaskConfig.__init__() "
            f"got an unexpected keyword argument '{name}'\" when the {loaded} is loaded{tail}",
            key, fixes=(ctx.rename_fix(key, hint),) if hint else ())


def _task_name(ctx: Context, keys: dict[str, tuple[Scalar, Node]]) -> None:
    pair = keys.get("task")
    if pair is not None and isinstance(pair[1], (Sequence, Mapping)):
        ctx.add("EYLM001", "a task's 'task:' must be its name: a list or mapping here makes the "
                "index skip the file (\"unhashable type\", logged at DEBUG), so lm-eval reports "
                "\"Tasks not found\"; a group needs 'group: <name>' beside the list", pair[0])


def _tags(ctx: Context, keys: dict[str, tuple[Scalar, Node]], facts: Facts) -> None:
    pair = keys.get("tag")
    if pair is None:
        return
    items = pair[1].items if isinstance(pair[1], Sequence) else [pair[1]]
    for item in items:
        name = text_of(item)
        if name:
            facts.tags.append((name, ctx.span(item)))


def _group(ctx: Context, keys: dict[str, tuple[Scalar, Node]], facts: Facts) -> None:
    name_pair = keys.get("group")
    if name_pair is not None and isinstance(name_pair[1], (Sequence, Mapping)):
        ctx.add("EYLM001", "'group:' must be one name: a list here makes the index skip the "
                "file (\"unhashable type: 'list'\", logged at DEBUG); to put a task in several "
                "groups use 'tag:'", name_pair[0])
        return
    members = keys.get("task")
    if members is None:
        return
    value = members[1]
    if isinstance(value, Scalar) and text_of(value) is not None:
        ctx.add("EYLM013", f"'task: {value.text}' is not a list: the group is built with no "
                "members (children are added only from a list), and the name is not registered "
                "as a task either; write 'task: [...]' for a group, or 'tag:' instead of 'group:'"
                " for a task", value)
    elif isinstance(value, Sequence):
        _members(ctx, value, facts)
    alias = keys.get("task_alias")
    if alias is not None and isinstance(value, Sequence):
        ctx.add("EYLM013", "'task_alias' in a group file reaches every member task (a group "
                "passes each key it does not have to its children): each is reported under "
                "this one name; the group's own name is 'group_alias'", alias[0],
                fixes=() if "group_alias" in keys else
                (ctx.rename_fix(alias[0], "group_alias"),))
    _aggregate_metrics(ctx, keys.get("aggregate_metric_list"))


_INLINE = ("dataset_path", "custom_dataset", "include", "class")


def _members(ctx: Context, seq: Sequence, facts: Facts) -> None:
    for item in seq.items:
        name = text_of(item)
        if name is not None:
            facts.member_refs.append((name, ctx.span(item)))
        elif isinstance(item, Mapping):
            keys = top(item)
            inner = keys["task"][1] if "task" in keys else None
            if "group" in keys:
                # A registered group built with overrides, or an inline group: either way its
                # own list names members.
                if isinstance(inner, Sequence):
                    _members(ctx, inner, facts)
            else:
                _member_keys(ctx, keys)
                if inner is not None and not any(k in keys for k in _INLINE):
                    member = text_of(inner)
                    if member is not None:
                        facts.member_refs.append((member, ctx.span(inner)))


def _member_keys(ctx: Context, keys: dict[str, tuple[Scalar, Node]]) -> None:
    """A `task:` mapping in a group's list is a TaskConfig, inline or merged over the named
    task (`tasks/_factory.py`, `_build_group_members`): no loader runs on it, so `include`
    and the rest of what only a file's top level may hold are unknown keywords there."""
    for name, (key, _) in keys.items():
        if name not in vocab.TASK_FIELDS:
            _not_a_field(ctx, key, name, vocab.TASK_FIELDS, raises="the harness builds this group "
                         "member with TaskConfig and raises", loaded="group",
                         note=" (includes are read only at a file's top level: put this task "
                         "in a file of its own and name it here)" if name == "include" else "")


def _aggregate_metrics(ctx: Context, pair: tuple[Scalar, Node] | None) -> None:
    if pair is None:
        return
    value = pair[1]
    entries = value.items if isinstance(value, Sequence) else [value]
    for entry in entries:
        if not isinstance(entry, Mapping):
            continue
        keys = top(entry)
        for name, (key, _) in keys.items():
            if name not in vocab.AGG_METRIC_FIELDS:
                hint = best(name, vocab.AGG_METRIC_FIELDS)
                tail = f"; did you mean '{hint}'?" if hint else ""
                ctx.add("EYLM006", f"'{name}' is not an aggregate_metric_list key: the harness "
                        f"raises \"AggMetricConfig.__init__() got an unexpected keyword "
                        f"argument '{name}'\" when the group is loaded{tail}", key,
                        fixes=(ctx.rename_fix(key, hint),) if hint else ())
        if "metric" not in keys and entry.pairs:
            ctx.add("EYLM012", "an aggregate_metric_list entry needs 'metric' (AggMetricConfig "
                    "has no default for it)", entry.pairs[0][0])
        agg = keys.get("aggregation")
        if agg is not None and not is_function(agg[1]):
            text = text_of(agg[1])
            if text != "mean":
                ctx.add("EYLM012", f"a group aggregates only with 'mean' or a !function: the "
                        f"harness raises \"Currently, 'mean' is the only pre-defined "
                        f"aggregation. Got '{agg[1].text if isinstance(agg[1], Scalar) else ''}"
                        "'\" when the group is loaded", agg[1],
                        fixes=(ctx.suggest_fix(agg[1], "mean"),))


def _output_type(ctx: Context, keys: dict[str, tuple[Scalar, Node]]) -> None:
    pair = keys.get("output_type")
    if pair is None:
        return
    value = text_of(pair[1])
    if value is None or value in vocab.OUTPUT_TYPES:
        return
    hint = "generate_until" if value == "greedy_until" else best_value(value, vocab.OUTPUT_TYPES)
    tail = f"; did you mean '{hint}'?" if hint else ""
    ctx.add("EYLM007", f"invalid output_type '{value}': the harness raises \"Got invalid "
            f"output_type '{value}', must be in '{','.join(vocab.OUTPUT_TYPES)}'\" when the task "
            f"is loaded{tail}", pair[1], fixes=(ctx.suggest_fix(pair[1], hint),) if hint else ())


def _metrics(ctx: Context, keys: dict[str, tuple[Scalar, Node]], facts: Facts) -> None:
    pair = keys.get("metric_list")
    if pair is None:
        return
    value = pair[1]
    if not isinstance(value, Sequence):
        if not (isinstance(value, Scalar) and value.value is None):
            ctx.add("EYLM018", "'metric_list' must be a list of mappings with 'metric'", value)
        return
    for entry in value.items:
        if isinstance(entry, Scalar) and entry.value is None:
            continue  # an empty item (or a blanked line beside a syntax error)
        if not isinstance(entry, Mapping):
            ctx.add("EYLM010", "a metric_list entry must be a mapping with 'metric': the "
                    "harness cannot read this one when the task is loaded", entry)
            continue
        entry_keys = top(entry)
        metric = entry_keys.get("metric")
        if metric is None:
            first = entry.pairs[0][0] if entry.pairs else entry
            ctx.add("EYLM010", "this metric_list entry has no 'metric': the harness raises "
                    "\"'metric' key not provided for an entry in 'metric_list', must be "
                    "specified!\" when the task is loaded", first)
            continue
        name = text_of(metric[1])
        hf = entry_keys.get("hf_evaluate")
        hf_metric = hf is not None and isinstance(hf[1], Scalar) and hf[1].value is True
        if name is not None and not hf_metric and name not in vocab.METRICS and \
                name not in vocab.HF_EVALUATE_METRICS:
            facts.names.append(Named("metric", name, ctx.span(metric[1])))
        if name == "exact_match":
            for arg, (key, _) in entry_keys.items():
                if arg not in vocab.METRIC_ENTRY_KEYS and arg not in vocab.EXACT_MATCH_ARGS:
                    facts.exact_match_args.append((arg, ctx.span(key)))
        agg = entry_keys.get("aggregation")
        if agg is None:
            _default_aggregation(ctx, metric[1], name, facts)
        agg_name = text_of(agg[1]) if agg is not None else None
        if agg is not None and agg_name is not None and agg_name not in vocab.AGGREGATIONS:
            hint = best_value(agg_name, vocab.AGGREGATIONS)
            tail = f"; did you mean '{hint}'?" if hint else \
                f" (registered: {', '.join(vocab.AGGREGATIONS)})"
            ctx.add("EYLM012", f"'{agg_name}' is not a registered aggregation: the harness warns "
                    f"\"{agg_name} not a registered aggregation metric!\" and fails with "
                    f"\"'NoneType' object is not callable\" after every answer is scored{tail}",
                    agg[1], fixes=(ctx.suggest_fix(agg[1], hint),) if hint else ())


def _default_aggregation(ctx: Context, metric: Node, name: str | None, facts: Facts) -> None:
    """A metric without `aggregation` takes the registry's default for its name (a
    `!function`'s `__name__`); a name with none ends in `INV_AGG_REGISTRY[None]`, a KeyError
    at LOAD (`api/task.py:730-739`). Whether the task's own Python registers it is the cross
    check's to say."""
    span = ctx.span(metric)
    if is_function(metric) and isinstance(metric, Scalar):
        name = metric.text.strip().rpartition(".")[2]
        span = ctx.parsed.lines.span(*tag_free(metric, ctx.parsed.text))
    if name and name not in vocab.METRICS:
        facts.names.append(Named("metric-aggregation", name, span))


_REGEX_ARGS = ("regex_pattern",)


def _filters(ctx: Context, keys: dict[str, tuple[Scalar, Node]], facts: Facts) -> None:
    pair = keys.get("filter_list")
    if pair is None:
        return
    if not isinstance(pair[1], Sequence):
        value = pair[1]
        if (isinstance(value, Mapping) and value.pairs) or (
                isinstance(value, Scalar) and isinstance(value.value, str) and value.value and
                not is_function(value)):
            ctx.add("EYLM014", "'filter_list' must be a list of pipelines (each a mapping with "
                    "'name' and 'filter'): the harness iterates it and raises TypeError "
                    "(\"string indices must be integers\") when the task is loaded", value)
        return
    for pipeline in pair[1].items:
        if not isinstance(pipeline, Mapping):
            ctx.add("EYLM014", "a filter_list entry must be a mapping with 'name' and "
                    "'filter'", pipeline)
            continue
        pipe_keys = top(pipeline)
        for needed in ("name", "filter"):
            if needed not in pipe_keys and pipeline.pairs:
                ctx.add("EYLM014", f"this filter pipeline has no '{needed}': the harness raises "
                        f"KeyError: '{needed}' when the task is loaded", pipeline.pairs[0][0])
        steps = pipe_keys.get("filter")
        if steps is None or not isinstance(steps[1], Sequence):
            continue
        for step in steps[1].items:
            if isinstance(step, Mapping):
                _filter_step(ctx, step, facts)


def _filter_step(ctx: Context, step: Mapping, facts: Facts) -> None:
    keys = top(step)
    function = keys.get("function")
    if function is None:
        first = step.pairs[0][0] if step.pairs else step
        ctx.add("EYLM014", "this filter step has no 'function': the harness raises KeyError: "
                "'function' when the task is loaded", first)
        return
    name = text_of(function[1])
    if name is None:
        return
    if name not in vocab.FILTERS:
        facts.names.append(Named("filter", name, ctx.span(function[1])))
        return
    takes = vocab.FILTERS[name]
    if takes is not None:
        for arg, (key, _) in keys.items():
            if arg != "function" and arg not in takes:
                hint = best(arg, takes) if takes else None
                tail = f"; did you mean '{hint}'?" if hint else \
                    f" (it takes {', '.join(takes)})" if takes else " (it takes no arguments)"
                ctx.add("EYLM014", f"the '{name}' filter takes no argument '{arg}': the harness "
                        f"raises \"__init__() got an unexpected keyword argument '{arg}'\" when "
                        f"the filter first runs, after every answer is generated{tail}", key,
                        fixes=(ctx.rename_fix(key, hint),) if hint else ())
    needed = vocab.FILTER_REQUIRED.get(name)
    if needed and needed not in keys:
        ctx.add("EYLM014", f"the '{name}' filter needs '{needed}': the harness raises KeyError: "
                f"'{needed}' when the filter first runs, after every answer is generated",
                function[1])
    for arg in (*_REGEX_ARGS, "regexes_to_ignore"):
        if arg in keys:
            _regex(ctx, keys[arg][1])


def _regex(ctx: Context, node: Node) -> None:
    items = node.items if isinstance(node, Sequence) else [node]
    for item in items:
        pattern = text_of(item)
        if pattern is None:
            continue
        try:
            re.compile(pattern)
        except re.error as error:
            ctx.add("EYLM014", f"invalid regular expression: {error.msg} (Python's re, which "
                    "the filter compiles when it first runs, after every answer is generated)",
                    item)


def _fewshot(ctx: Context, keys: dict[str, tuple[Scalar, Node]]) -> None:
    pair = keys.get("fewshot_config")
    if pair is None or not isinstance(pair[1], Mapping):
        return
    inner = top(pair[1])
    for name, (key, _) in inner.items():
        if name in vocab.FEWSHOT_FIELDS:
            continue
        hint = best(name, vocab.FEWSHOT_FIELDS)
        tail = f"; did you mean '{hint}'?" if hint else \
            " (num_fewshot belongs at the top level)" if name == "num_fewshot" else ""
        ctx.add("EYLM006", f"'{name}' is not a fewshot_config field: the harness raises "
                f"\"FewshotConfig.__init__() got an unexpected keyword argument '{name}'\" when "
                f"the task is loaded{tail}", key,
                fixes=(ctx.rename_fix(key, hint),) if hint else ())
    sampler = inner.get("sampler")
    if sampler is not None:
        value = text_of(sampler[1])
        if value is not None and value not in vocab.SAMPLERS:
            hint = best_value(value, vocab.SAMPLERS)
            tail = f"; did you mean '{hint}'?" if hint else ""
            ctx.add("EYLM018", f"no few-shot sampler '{value}': the harness raises \"Attempted "
                    f"to use contextsampler '{value}'\" when the task is loaded (samplers: "
                    f"{', '.join(vocab.SAMPLERS)}){tail}", sampler[1],
                    fixes=(ctx.suggest_fix(sampler[1], hint),) if hint else ())
    _templates(ctx, inner, None, "fewshot_config.")


def _templates(ctx: Context, keys: dict[str, tuple[Scalar, Node]], facts: Facts | None,
               prefix: str) -> None:
    for name in vocab.TEMPLATE_FIELDS:
        pair = keys.get(name)
        if pair is None or not isinstance(pair[1], Scalar) or is_function(pair[1]):
            continue
        node = pair[1]
        value = text_of(node)
        if value is None:
            continue
        checked = jinja.check(value)
        for problem in checked.problems:
            if problem.code == "EYLM016" and checked.jinja and name == "description":
                continue
            ctx.add(problem.code, problem.message, ctx.inner(node, problem.start, problem.end))
        if facts is not None and not checked.problems:
            facts.template_names[prefix + name] = {
                n: ctx.inner(node, at, at + len(n)) for n, at in checked.names.items()}


def _functions(ctx: Context, root: Node, facts: Facts) -> None:
    for node in root.walk():
        if not is_function(node):
            continue
        assert isinstance(node, Scalar)
        start, end = tag_free(node, ctx.parsed.text)
        span = ctx.parsed.lines.span(start, end)
        spec = node.text.strip()
        if "." not in spec:
            ctx.add("EYLM004", f"'!function {spec}' names no module: the harness raises "
                    f"\"Invalid function reference '{spec}': no module path\" when the task is "
                    "loaded; write '!function <module>.<function>' (utils.py beside the YAML "
                    "is 'utils')", span)
            continue
        facts.names.append(Named("function", spec, span))


def _includes(ctx: Context, node: Node, facts: Facts) -> None:
    items = node.items if isinstance(node, Sequence) else [node]
    for item in items:
        name = text_of(item)
        if name:
            facts.names.append(Named("include", name, ctx.span(item)))
