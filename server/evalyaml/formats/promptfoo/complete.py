"""Variables where they are written in a YAML config: the names a `vars:` mapping of a test (or
of `defaultTest`) still lacks, and inside `{{ ` of an inline prompt the names tests supply.

Read from the lines around the cursor (the text being typed rarely parses) and from the index's
analysis of the config (its prompts and tests, maybe one edit old); prompt files, tests files
and CSV tables through `Cursor.files`, never outside the workspace roots."""

from __future__ import annotations

import re
from pathlib import Path

from evalyaml.core.findings import FindingSink
from evalyaml.formats.base import Cursor, NamedFiles, Offer
from evalyaml.formats.promptfoo.common import Context
from evalyaml.formats.promptfoo.config import read_prompts
from evalyaml.formats.promptfoo.cross import FACTS
from evalyaml.formats.promptfoo.facts import ConfigFacts
from evalyaml.formats.promptfoo.kinds import CONFIG
from evalyaml.formats.promptfoo.paths import is_glob, suffix
from evalyaml.formats.promptfoo.table import columns
from evalyaml.formats.promptfoo.templates import analyse, split_txt
from evalyaml.syntax.tree import Mapping
from evalyaml.syntax.yaml.parse import parse_text

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_KEY_TYPED = re.compile(r"^(?P<indent>[ ]*)(?P<word>[A-Za-z_$][\w$]*)?$")
_LINE_KEY = re.compile(r"^(?P<indent>[ ]*)(?P<dash>-[ ]+)?(?P<key>[^\s#:'\"][^:#]*?|'[^']*'|"
                       r"\"[^\"]*\")[ ]*:(?:[ ]|$)")
_ITEM = re.compile(r"^(?P<indent>[ ]*)-(?:[ ]|$)")
_OPEN = re.compile(r"\{\{-?\s*(?P<word>[A-Za-z_$][\w$]*)?$")
_PROMPTS_LINE = re.compile(r"^prompts[ ]*:")
_SCRIPTS = (".py", ".js", ".ts", ".mjs", ".cjs", ".sh", ".rb")


def offers(cursor: Cursor) -> list[Offer] | None:
    if cursor.kind is not CONFIG or (cursor.path or "").lower().endswith(".json"):
        return None
    lines = _LINE_BREAK.split(cursor.text)
    if cursor.line >= len(lines):
        return None
    line = lines[cursor.line]
    before = line[:cursor.character]
    chain = _chain(lines, cursor.line, _indent_of(before))
    opened = _OPEN.search(before)
    if opened is not None and (chain[:1] == ["prompts"] or _PROMPTS_LINE.match(line)):
        return _template_offers(cursor, line, opened)
    typed = _KEY_TYPED.match(before)
    if typed is None or chain not in (["tests", "-", "vars"], ["defaultTest", "vars"]):
        return None
    end = _word_end(line, cursor.character)
    rest = line[end:].strip()
    if rest and not rest.startswith(":"):
        return None
    return _var_offers(cursor, lines, typed, (end, "" if rest else ": "),
                       in_default=chain[0] == "defaultTest")


def _word_end(line: str, column: int) -> int:
    end = column
    while end < len(line) and (line[end].isalnum() or line[end] in "_$"):
        end += 1
    return end


def _indent_of(before: str) -> int:
    return len(before) - len(before.lstrip(" "))


def _chain(lines: list[str], line: int, indent: int) -> list[str]:
    """The keys (and `-` for list items) that hold a cursor at column `indent` of `line`, from
    the root down, read from the lines above by their indentation."""
    out: list[str] = []
    threshold = indent
    for above in range(line - 1, -1, -1):
        if threshold == 0:
            break
        text = lines[above]
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        lead = len(text) - len(text.lstrip(" "))
        key = _LINE_KEY.match(text)
        item = _ITEM.match(text)
        column = lead + len(key.group("dash") or "") if key is not None else lead
        if key is not None and column < threshold:
            out.append(key.group("key").strip("'\""))
            threshold = column
            if key.group("dash"):
                out.append("-")
                threshold = lead
        elif (item is not None or (key is not None and key.group("dash"))) and \
                lead < threshold:
            out.append("-")
            threshold = lead
        elif lead < threshold:
            return []  # a block scalar's text, or something not read here
    out.reverse()
    return out


def _config_facts(cursor: Cursor) -> ConfigFacts:
    facts = cursor.analysis.facts.get(FACTS) if cursor.analysis is not None else None
    if isinstance(facts, ConfigFacts):
        return facts
    parsed = parse_text(cursor.text, FindingSink(strict=False))
    root = parsed.documents[0] if parsed.usable and parsed.documents else None
    fresh = ConfigFacts()
    if isinstance(root, Mapping):
        read_prompts(Context(parsed, FindingSink(strict=False)), root, fresh)
    return fresh


def _prompt_names(cursor: Cursor, facts: ConfigFacts) -> dict[str, str]:
    """Each variable the config's prompts read, with the first prompt reading it."""
    names: dict[str, str] = {}
    if facts.prompts_default:
        names["prompt"] = "{{prompt}}"
    for prompt in facts.prompts:
        for use in analyse(prompt.text)[0]:
            names.setdefault(use.name, f"'{prompt.label}'")
    files = cursor.files
    if files is None or cursor.path is None:
        return names
    base = Path(cursor.path).parent
    for ref in facts.refs:
        if ref.role not in ("prompt", "bare-prompt") or is_glob(ref.name) or \
                ref.function is not None or suffix(ref.name) in _SCRIPTS:
            continue
        target = files.resolve(base, ref.name)
        text = files.read_text(target) if target is not None else None
        if text is None:
            continue
        pieces = split_txt(text) if suffix(ref.name) == ".txt" else [(0, text)]
        for _, body in pieces:
            for use in analyse(body)[0]:
                names.setdefault(use.name, f"'{ref.name}'")
    return names


def _siblings(lines: list[str], line: int, indent: int) -> set[str]:
    """The keys already written beside the cursor, at its indentation in the same mapping."""
    found: set[str] = set()
    for step in (-1, 1):
        index = line + step
        while 0 <= index < len(lines):
            text = lines[index]
            index += step
            if not text.strip() or text.strip().startswith("#"):
                continue
            lead = len(text) - len(text.lstrip(" "))
            if lead < indent:
                break
            key = _LINE_KEY.match(text)
            if lead == indent and key is not None and not key.group("dash"):
                found.add(key.group("key").strip("'\""))
    return found


def _var_offers(cursor: Cursor, lines: list[str], typed: re.Match[str],
                replace: tuple[int, str], *, in_default: bool) -> list[Offer] | None:
    """`replace`: where the typed word ends, and what follows the name (": " on a bare line)."""
    facts = _config_facts(cursor)
    if facts.prompts_unknown and not facts.prompts:
        return None
    indent = len(typed.group("indent"))
    supplied = _siblings(lines, cursor.line, indent)
    if not in_default and facts.default_vars:
        supplied |= set(facts.default_vars)
    start = typed.start("word") if typed.group("word") else cursor.character
    out: list[Offer] = []
    for name, prompt in _prompt_names(cursor, facts).items():
        if name in supplied or name == "env":
            continue
        out.append(Offer(name, name + replace[1], start, replace[0], "variable",
                         f"used by prompt {prompt}",
                         f"`{{{{ {name} }}}}` in prompt {prompt}: no value supplies it yet"))
    return out or None


def _template_offers(cursor: Cursor, line: str, opened: re.Match[str]) -> list[Offer] | None:
    facts = _config_facts(cursor)
    names: dict[str, str] = {}
    for name in facts.default_vars or {}:
        names.setdefault(name, "defaultTest")
    for test in facts.tests:
        for name in test.vars or {}:
            names.setdefault(name, test.label)
    for name, source in _file_vars(cursor, facts).items():
        names.setdefault(name, source)
    if not names:
        return None
    start = opened.start("word") if opened.group("word") else cursor.character
    end = _word_end(line, cursor.character)
    closes = line[end:].lstrip(" ").startswith("}}")
    spaced = line[opened.start() + 2:start].startswith(" ")
    tail = "" if closes else (" }}" if spaced else "}}")
    return [Offer(name, name + tail, start, end, "variable", f"supplied by {source}")
            for name, source in names.items()]


def _file_vars(cursor: Cursor, facts: ConfigFacts) -> dict[str, str]:
    """Variables that tests files and CSV tables named by the config supply."""
    files: NamedFiles | None = cursor.files
    out: dict[str, str] = {}
    if files is None or cursor.path is None:
        return out
    base = Path(cursor.path).parent
    for ref in facts.refs:
        if ref.role != "tests" or is_glob(ref.name):
            continue
        target = files.resolve(base, ref.name)
        if target is None:
            continue
        if suffix(ref.name) == ".csv":
            text = files.read_text(target)
            header = columns(text) if text is not None else None
            for column in header or ():
                if not column.startswith("__"):
                    out.setdefault(column, f"'{ref.name}'")
            continue
        analysis = files.analysis(target)
        facts_there = analysis.facts.get(FACTS) if analysis is not None else None
        if isinstance(facts_there, ConfigFacts):
            for test in facts_there.tests:
                for name in test.vars or {}:
                    out.setdefault(name, f"'{ref.name}'")
    return out
