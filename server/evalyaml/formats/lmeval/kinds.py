"""The kinds of lm-evaluation-harness file evalyaml checks.

The harness's task index (`lm_eval/tasks/_index.py:_kind_of`) classifies a merged config by its
keys: `class` makes a Python task, `group` a group, `task` a task. A template (an
extension-less `_default_template_yaml`, or a `.yaml` without any of those keys) is never
indexed: it matters only through the files that include it, so it is adopted by them.
Task, group and tag names share one namespace per include path (`NAME`).
"""

from __future__ import annotations

from evalyaml.core.kinds import FormatKind

TASK = FormatKind("lmeval", "lm-eval task", "lmeval-task.schema.json")
GROUP = FormatKind("lmeval", "lm-eval group", "lmeval-group.schema.json")
TEMPLATE = FormatKind("lmeval", "lm-eval include template", "lmeval-task.schema.json")
# What a group's `task:` list names: a task, a group or a tag (one namespace in the index).
NAME = FormatKind("lmeval", "lm-eval task, group or tag", None, noun="name")
