"""`file://` references as promptfoo splits them (`src/util/file.ts` `parsePathOrGlob`,
`src/prompts/utils.ts` `maybeFilePath`): the path, an optional `:function` after a script, a
glob or not."""

from __future__ import annotations

import re
from pathlib import PurePath

from evalyaml.formats.promptfoo.facts import SCRIPT_SUFFIXES

PROMPT_PATH_EXTENSIONS = (".cjs", ".cts", ".j2", ".js", ".json", ".jsonl", ".md", ".mjs", ".mts",
                          ".py", ".ts", ".txt", ".yml", ".yaml")
_GLOB = re.compile(r"[*?]|\[[^\]]+\]|\{[^{}]*,[^{}]*\}")
_TEMPLATED = re.compile(r"\{\{|\{%")


def split_function(path: str) -> tuple[str, str | None]:
    """`x.py:fn` -> ("x.py", "fn"), only after a script (a Windows drive stays a path)."""
    head, sep, tail = path.rpartition(":")
    if sep and head.lower().endswith(SCRIPT_SUFFIXES) and tail and "/" not in tail:
        return head, tail
    return path, None


def is_glob(path: str) -> bool:
    return bool(_GLOB.search(path))


def templated(path: str) -> bool:
    """A path promptfoo renders first (`file://{{ env.DIR }}/x`): not knowable here."""
    return bool(_TEMPLATED.search(path))


def maybe_file_path(text: str) -> bool:
    """`maybeFilePath`: whether promptfoo reads a prompt string as a path."""
    if any(bad in text for bad in ("\n", "portkey://", "langfuse://", "helicone://")):
        return False
    if text.startswith("file://"):
        return True
    parts = text.split(":")
    for token in parts[-2:] if len(parts) > 1 else parts:
        if token.lower().endswith(PROMPT_PATH_EXTENSIONS):
            return True
    if (len(text) >= 3 and text[-3] == ".") or (len(text) >= 4 and text[-4] == "."):
        return True
    return "*" in text or "/" in text or "\\" in text


def suffix(path: str) -> str:
    return PurePath(path).suffix.lower()
