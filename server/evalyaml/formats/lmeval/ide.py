"""The editor's view of lm-eval files: completion of TaskConfig/GroupConfig keys and of the
registries' names, group members from the index, and hover on a task's name showing its
effective config (includes merged as the loader merges them) with the file each key came from.
"""

from __future__ import annotations

import os
from pathlib import Path

from evalyaml.formats.base import Cursor, FormatIde, KeyDoc, NamedFiles, Tip
from evalyaml.formats.lmeval import vocab
from evalyaml.formats.lmeval.cross import merged_config
from evalyaml.formats.lmeval.kinds import GROUP, NAME, TASK, TEMPLATE
from evalyaml.formats.lmeval.navigate import builtin_hover, function_definition

_DOCS: dict[str, str] = {
    "task": "The task's name: the index registers it (one namespace with groups and tags).",
    "task_alias": "The name shown in results tables.",
    "tag": "A name (or list) that selects every task carrying it.",
    "include": "A template (or list) merged under this file; this file's keys win.",
    "class": "`!function module.Class`: a Python task; the YAML is passed to its constructor.",
    "dataset_path": "`datasets.load_dataset(path=...)`.",
    "dataset_name": "The dataset configuration (`name=`).",
    "dataset_kwargs": "More `load_dataset` keyword arguments.",
    "custom_dataset": "`!function`: replaces `load_dataset`; receives metadata as keywords.",
    "training_split": "Split of few-shot examples when no fewshot split is set.",
    "validation_split": "Evaluated when there is no test split.",
    "test_split": "The evaluated split.",
    "fewshot_split": "Split few-shot examples come from.",
    "process_docs": "`!function`: `fn(dataset) -> Dataset`, applied to every split.",
    "doc_to_text": "The prompt: a column name, a Jinja template, or a `!function`.",
    "doc_to_target": "The answer: a column, a template, an index, or a `!function`.",
    "doc_to_choice": "multiple_choice options: a column, a template rendering a list, a list.",
    "doc_to_image": "Images for multimodal models.",
    "doc_to_audio": "Audio for multimodal models.",
    "unsafe_code": "The task runs model-written code: evaluation needs confirm_run_unsafe_code.",
    "process_results": "`!function`: `fn(doc, results) -> {metric: value}`.",
    "use_prompt": "A promptsource prompt; replaces doc_to_text, doc_to_target, doc_to_choice.",
    "description": "Prefix of every prompt (a column or a template).",
    "target_delimiter": "Between question and answer (default `\" \"`).",
    "fewshot_delimiter": "Between shots (default `\"\\n\\n\"`).",
    "fewshot_config": "How few-shot examples are drawn and formatted.",
    "num_fewshot": "Shots per prompt; `0` is kept even when --num_fewshot is given.",
    "metric_list": "Metrics: `- metric: name` with aggregation, higher_is_better, keywords.",
    "output_type": "loglikelihood, multiple_choice, loglikelihood_rolling or generate_until.",
    "generation_kwargs": "generate_until only: `until`, `do_sample`, `temperature`, ...",
    "repeats": "Each request is sent this many times.",
    "filter_list": "Pipelines applied to answers before scoring.",
    "should_decontaminate": "Stored; no caller at the pinned commit.",
    "doc_to_decontamination_query": "Stored; no caller at the pinned commit.",
    "gen_prefix": "Start of the assistant turn (a column or a template).",
    "metadata": "Free mapping; `version` becomes the task's version in results.",
    "group": "The group's name.",
    "group_alias": "The name shown in results tables.",
    "aggregate_metric_list": "Metrics averaged over the members.",
}
_INSERT = {"metric_list": "metric_list:\n  - metric: $0", "include": "include: $0",
           "fewshot_config": "fewshot_config:\n  sampler: ${1|first_n,default|}"}


def _keys(names: tuple[str, ...]) -> tuple[KeyDoc, ...]:
    return tuple(KeyDoc(n, _DOCS.get(n, ""), _INSERT.get(n)) for n in names)


def _values(names: tuple[str, ...] | list[str], doc: str) -> tuple[KeyDoc, ...]:
    return tuple(KeyDoc(n, doc) for n in names)


_TASK_KEYS = _keys((*vocab.TASK_FIELDS, "include", "class"))
_METRIC_KEYS = _keys(vocab.METRIC_ENTRY_KEYS)
_EXTRA: dict[tuple[str, tuple[str, ...]], tuple[KeyDoc, ...]] = {}
_VALUES: dict[tuple[str, tuple[str, ...]], tuple[KeyDoc, ...]] = {}
for _kind in (TASK, TEMPLATE):
    _EXTRA[(_kind.value, ())] = _TASK_KEYS
    _EXTRA[(_kind.value, ("fewshot_config",))] = _keys(vocab.FEWSHOT_FIELDS)
    _EXTRA[(_kind.value, ("metric_list", "*"))] = _METRIC_KEYS
    _EXTRA[(_kind.value, ("filter_list", "*"))] = _keys(("name", "filter"))
    _EXTRA[(_kind.value, ("generation_kwargs",))] = _keys(
        ("until", "do_sample", "temperature", "max_gen_toks"))
    _EXTRA[(_kind.value, ("metadata",))] = _keys(("version",))
    _VALUES[(_kind.value, ("output_type",))] = _values(vocab.OUTPUT_TYPES, "ALL_OUTPUT_TYPES")
    _VALUES[(_kind.value, ("metric_list", "*", "metric"))] = tuple(
        KeyDoc(n, f"registered metric; scored on {types}") for n, types in vocab.METRICS.items())
    _VALUES[(_kind.value, ("metric_list", "*", "aggregation"))] = _values(
        vocab.AGGREGATIONS, "registered aggregation")
    _VALUES[(_kind.value, ("filter_list", "*", "filter", "*", "function"))] = _values(
        list(vocab.FILTERS), "registered filter")
    _VALUES[(_kind.value, ("fewshot_config", "sampler"))] = _values(vocab.SAMPLERS, "sampler")
_EXTRA[(GROUP.value, ())] = _keys(vocab.GROUP_FIELDS)
_EXTRA[(GROUP.value, ("aggregate_metric_list", "*"))] = _keys(vocab.AGG_METRIC_FIELDS)
_VALUES[(GROUP.value, ("aggregate_metric_list", "*", "aggregation"))] = _values(
    ("mean",), "the only pre-defined group aggregation")


def hover(cursor: Cursor, files: NamedFiles) -> Tip | None:
    """On a task's name: its effective config, each key with the file it came from; on a
    built-in metric, aggregation, filter or output type: what the registries say."""
    builtin = builtin_hover(cursor)
    if builtin is not None:
        return builtin
    if cursor.kind is not TASK or cursor.analysis is None or cursor.path is None:
        return None
    for definition in cursor.analysis.definitions:
        span = definition.id_span
        if definition.kind is not NAME or definition.alias or \
                span.start.line != cursor.line or \
                not span.start.character <= cursor.character <= span.end.character:
            continue
        path = Path(cursor.path)
        loaded = merged_config(path, files)
        if loaded is None:
            return None
        rows = []
        for key, origin in loaded.merged.items():
            raw = origin.parsed.text[origin.value.start:origin.value.end].strip()
            first = raw.splitlines()[0] if raw else ""
            shown = first[:60] + ("…" if len(first) > 60 or "\n" in raw else "")
            source = "this file" if origin.path == path else \
                os.path.relpath(origin.path, path.parent).replace(os.sep, "/")
            rows.append(f"| `{key}` | `{shown.replace('|', '¦').replace('`', '')}` | {source} |")
        table = "\n".join(rows)
        return Tip(f"**{definition.id}** · lm-eval task, effective config (includes merged, "
                   f"this file's keys win)\n\n| key | value | from |\n| --- | --- | --- |\n{table}",
                   span.start.character, span.end.character)
    return None


IDE = FormatIde(extra_keys=_EXTRA, values=_VALUES, hover=hover,
                definition=function_definition,
                references={(GROUP.value, ("task", "*")): NAME})
