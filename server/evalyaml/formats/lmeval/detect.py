"""Recognition as the harness's index does it, from the text and the path only.

The index (`tasks/_index.py:_kind_of`) reads any `*.yaml` under an include path and keeps it when
its merged mapping has `class`, `group` or `task`. Those words are common, so a file is claimed
only when a top-level `task`/`group`/`class` stands beside a key only TaskConfig or GroupConfig
has, or the file lies under `lm_eval/tasks/`. A `.yaml` with several such keys and none of the
three is a template (the index skips it; files include it). Extension-less templates
(`_default_template_yaml`) are never claimed: the files that include them adopt them.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from evalyaml.formats.base import Claim, Tier
from evalyaml.formats.lmeval.kinds import GROUP, TASK, TEMPLATE

# A key line indented by tabs is a YAML error (EY106) but still the author's top-level key: the
# kind must not flip (a group read as a task) because its `group:` line has a tab in front.
_TOP_KEY = re.compile(r"^\t*[\"']?([A-Za-z_][A-Za-z0-9_]*)[\"']?[ \t]*:(?:[ \t]|\r?$)",
                      re.MULTILINE)
# Keys only lm-eval's TaskConfig/GroupConfig use (not `task`, `tag`, `metadata`, `description`).
_DISTINCT = frozenset({
    "dataset_path", "dataset_name", "dataset_kwargs", "training_split", "validation_split",
    "test_split", "fewshot_split", "process_docs", "doc_to_text", "doc_to_target",
    "doc_to_choice", "doc_to_image", "doc_to_audio", "process_results", "use_prompt",
    "target_delimiter", "fewshot_delimiter", "fewshot_config", "num_fewshot", "metric_list",
    "output_type", "generation_kwargs", "filter_list", "should_decontaminate",
    "doc_to_decontamination_query", "gen_prefix", "task_alias", "custom_dataset", "unsafe_code",
    "group_alias", "aggregate_metric_list",
})
_FUNCTION = re.compile(r"^[\"']?class[\"']?[ \t]*:[ \t]*!function[ \t]", re.MULTILINE)
_HEAD = 65536
# `task:` holding a list (a block sequence on the next line, or a flow one).
_TASK_LIST = re.compile(r"^[\"']?task[\"']?[ \t]*:[ \t]*(?:\[|(?:#.*)?\r?\n(?:[ \t]*(?:#.*)?\r?\n)*"
                        r"[ \t]*- )", re.MULTILINE)


_LATER_KEY = re.compile(r"\n" + _TOP_KEY.pattern[1:], re.MULTILINE)
"""`_TOP_KEY` after a line break: a pattern that starts with a literal is searched for at C
speed, where a `^` one is tried at every character (0.6 ms over a dataset's first 64 KB, paid
by every YAML file's detection)."""


def top_keys(text: str) -> set[str]:
    first = _TOP_KEY.match(text, 0, _HEAD)
    keys = {m.group(1) for m in _LATER_KEY.finditer(text, 0, _HEAD)}
    if first is not None:
        keys.add(first.group(1))
    return keys


def claim(text: str, path: str | None) -> Claim | None:
    suffix = PurePath(path).suffix.lower() if path else ".yaml"
    if suffix not in (".yaml", ".yml"):
        return None
    keys = top_keys(text)
    distinct = keys & _DISTINCT
    under = path is not None and "/lm_eval/tasks/" in PurePath(path).as_posix()
    tier = Tier.PATH if under else Tier.SHAPE
    why = "under lm_eval/tasks/" if under else f"its keys ({', '.join(sorted(distinct)[:3])})"
    if "class" in keys and _FUNCTION.search(text, 0, _HEAD):
        return Claim(TASK, tier, "a Python task (class: !function)")
    if "group" in keys and (distinct or under or "include" in keys or
                            ("task" in keys and _TASK_LIST.search(text, 0, _HEAD))):
        return Claim(GROUP, tier, "a group: " + why)
    if ("task" in keys or "group" in keys) and (distinct or "include" in keys) and \
            (under or distinct or ("include" in keys and "tag" in keys)):
        return Claim(TASK, tier, "a task: " + why)
    if "task" in keys and "include" in keys:
        return Claim(TASK, tier, "a task: task and include")
    if not keys & {"task", "group", "class"} and (len(distinct) >= 3 or
                                                  (under and distinct)):
        return Claim(TEMPLATE, tier, "a template: " + why)
    return None
