"""Configs a `package.json` script runs: `"eval": "promptfoo eval -c evals/my.yaml"`.

promptfoo loads whatever `-c`/`--config <paths...>` names (`src/commands/eval.ts`, `validate`:
commander's variadic option, every following word up to the next option), relative to the
folder npm runs the script in, the package's own (a script that changes folder first is
left alone). A config so named need not be called
`promptfooconfig.*` nor carry the modeline, so the `package.json` is claimed (only when one of
its scripts runs promptfoo with `-c`) and names each such config as a `FileRef` of kind CONFIG:
the workspace adopts it. The scripts are read as words, never run; a word with a shell
expansion (`$`, a glob, a backquote) names nothing knowable and is left alone.
"""

from __future__ import annotations

import os
import re
from pathlib import PurePath

from evalyaml.core.findings import FindingSink
from evalyaml.core.model import FileAnalysis, FileRef
from evalyaml.formats.base import Claim, Tier
from evalyaml.formats.promptfoo.kinds import CONFIG, SCRIPTS
from evalyaml.syntax.text import LineIndex
from evalyaml.syntax.tree import Mapping, Scalar

PACKAGE = "package.json"
# A quick look before any parse: a script word `promptfoo` (npx, @version, a bin path) and a
# `-c`/`--config` later on the same JSON line.
_HINT = re.compile(r"""(?:^|[\s"/])promptfoo(?:@[^\s"]*)?\s[^"\n]*?(?:\s-c|\s--config)[\s="]""",
                   re.MULTILINE)
_PROGRAM = re.compile(r"^(?:.*/)?promptfoo(?:@\S*)?$")
_SEPARATORS = frozenset({"&&", "||", ";", "|", "&"})
_CONFIG_SUFFIXES = (".yaml", ".yml", ".json")
_UNKNOWABLE = re.compile(r"[$`*?\[{]")


def claim(text: str, path: str | None) -> Claim | None:
    if path is None or PurePath(path).name != PACKAGE or "promptfoo" not in text:
        return None
    if _HINT.search(text) is None:
        return None
    return Claim(SCRIPTS, Tier.PATH, "a script of this package.json runs promptfoo with -c")


def analyze(text: str, path: str | None) -> FileAnalysis:
    """The configs the scripts name, as adopting `FileRef`s; no finding (a broken
    `package.json` is npm's to report, not an eval mistake)."""
    from evalyaml.syntax.json import parse_json  # with the first package.json, not at discovery

    result = FileAnalysis(path, SCRIPTS)
    parsed = parse_json(text, FindingSink(strict=False))
    root = parsed.documents[0] if parsed.documents else None
    scripts = root.get("scripts") if isinstance(root, Mapping) else None
    if not isinstance(scripts, Mapping) or path is None:
        return result
    folder = PurePath(path).parent
    lines = LineIndex(text)
    for _, value in scripts.pairs:
        if not isinstance(value, Scalar) or not isinstance(value.value, str):
            continue
        # Offsets inside the string are exact when the JSON source has no escape in it.
        raw = text[value.start + 1:value.end - 1]
        exact = value.style == '"' and raw == value.text
        for start, end, word in config_words(value.text):
            span = lines.span(value.start + 1 + start, value.start + 1 + end) if exact else \
                lines.span(value.start, value.end)
            result.file_refs.append(FileRef(span, (os.path.normpath(folder / word),), CONFIG))
    return result


def config_words(script: str) -> list[tuple[int, int, str]]:
    """Each config path a shell script line passes to promptfoo's `-c`/`--config`: (start,
    end, path) with offsets into `script`."""
    return [word for group in config_groups(script) for word in group]


def config_groups(script: str) -> list[list[tuple[int, int, str]]]:
    """`config_words` command by command: the configs one promptfoo command names together,
    which it merges into one (`combineConfigs`)."""
    groups: list[list[tuple[int, int, str]]] = [[]]
    out = groups[0]
    running = False  # inside a command whose program is promptfoo
    taking = False  # after -c/--config, before the next option
    for at, _, written in _words(script):
        start, word = at, written
        if word in _SEPARATORS:
            running = taking = False
            if out:
                out = []
                groups.append(out)
            continue
        if not running:
            if word in ("cd", "pushd"):
                break  # the folder the paths resolve from is no longer the package's
            running = _PROGRAM.match(word) is not None
            continue
        if word in ("-c", "--config"):
            taking = True
            continue
        if word.startswith("--config="):
            start, word, taking = start + len("--config="), word[len("--config="):], False
        elif word.startswith("-"):
            taking = False
            continue
        elif not taking:
            continue
        if word.lower().endswith(_CONFIG_SUFFIXES) and not _UNKNOWABLE.search(word):
            out.append((start, start + len(word), word))
    return [group for group in groups if group]


def merged_with_others(config: PurePath, packages: list[tuple[PurePath, str]]) -> bool:
    """Whether a script of one of `packages` (each `package.json`'s folder and text) runs
    promptfoo with `config` beside another config in the same command: promptfoo then checks
    only the merged whole (`combineConfigs`), so what one part lacks another may give."""
    from evalyaml.syntax.json import parse_json  # with the first package.json, not at discovery

    for folder, text in packages:
        root = parse_json(text, FindingSink(strict=False)).documents
        scripts = root[0].get("scripts") if root and isinstance(root[0], Mapping) else None
        if not isinstance(scripts, Mapping):
            continue
        for _, value in scripts.pairs:
            if not isinstance(value, Scalar) or not isinstance(value.value, str):
                continue
            for group in config_groups(value.text):
                named = {PurePath(os.path.normpath(folder / word)) for _, _, word in group}
                if len(named) > 1 and config in named:
                    return True
    return False


def _words(script: str) -> list[tuple[int, int, str]]:
    """Shell words with their offsets; a quoted word keeps the offsets of its inside (a word
    mixing quotes and plain text is returned as one word spanning all of it, quotes removed)."""
    words: list[tuple[int, int, str]] = []
    at, size = 0, len(script)
    while at < size:
        char = script[at]
        if char.isspace():
            at += 1
            continue
        if char in ";|&":
            end = at + 1
            while end < size and script[end] in "|&" and end - at < 2:
                end += 1
            words.append((at, end, script[at:end]))
            at = end
            continue
        start, pieces, quoted = at, [], False
        while at < size and not script[at].isspace() and script[at] not in ";|&":
            if script[at] in "'\"":
                close = script.find(script[at], at + 1)
                close = size if close < 0 else close
                pieces.append(script[at + 1:close])
                quoted, at = True, close + 1
            else:
                pieces.append(script[at])
                at += 1
        word = "".join(pieces)
        if quoted and script[start] in "'\"" and at - start == len(word) + 2:
            words.append((start + 1, at - 1, word))
        else:
            words.append((start, min(at, size), word))
    return words
