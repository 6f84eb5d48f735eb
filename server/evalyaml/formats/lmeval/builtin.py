"""Names the harness always has: its own `lm_eval/tasks/` is indexed before any include path
(`TaskManager.__init__`, `tasks/manager.py:53`), so a downstream group may list built-in tasks.

The list (`builtin_names.txt`) is the task, group and tag names of the pinned commit's tree,
produced by evalyaml's own recognition over it (`bench/lmeval_tree.py --names`).
"""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def _names() -> frozenset[str]:
    try:
        text = resources.files(__package__).joinpath("builtin_names.txt").read_text("utf-8")
    except OSError:
        return frozenset()
    return frozenset(line for line in text.splitlines() if line and not line.startswith("#"))


def is_builtin(name: str) -> bool:
    return name in _names()
