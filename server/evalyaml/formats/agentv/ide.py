"""Editor answers only AgentV can give: completion of grader types (custom assertions found in
ancestor `.agentv/assertions/` included), test and suite keys, roles, and grader variables in a
prompt file; hover on a `file://` prompt showing the prompt that test's grader will receive.

Lines are read as text (a half-typed line does not parse). Custom assertion types are the stems
of script files listed in `.agentv/assertions/` folders from the suite's folder up to the
workspace root: the folders are listed, the scripts are never read, imported or run.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from evalyaml.formats.agentv import rules, targetrefs
from evalyaml.formats.agentv.graders import AGGREGATOR_TYPES
from evalyaml.formats.agentv.kinds import CASES, PROMPT, SUITE
from evalyaml.formats.agentv.meta import grader_values, render
from evalyaml.formats.agentv.paths import prompt_candidates
from evalyaml.formats.agentv.suitefacts import DEPENDS, REFS, TEST_IDS
from evalyaml.formats.base import Cursor, FormatIde, LocalName, NamedFiles, Offer, Tip
from evalyaml.syntax.text import Position, Span

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_TYPE = re.compile(r"^\s*(?:-\s+)?type\s*:\s*[\"']?(?P<word>[A-Za-z0-9_-]*)$")
_ROLE = re.compile(r"^\s*(?:-\s+)?role\s*:\s*[\"']?(?P<word>[A-Za-z]*)$")
_KEY = re.compile(r"^(?P<indent>\s*)(?P<dash>-\s+)?(?P<word>[A-Za-z_$]*)$")
_LINE_KEY = re.compile(r"^(?P<indent>\s*)(?P<dash>-\s+)?(?P<key>[A-Za-z_$][\w$-]*)\s*:")
_OPEN = re.compile(r"\{\{\s*(?P<word>[A-Za-z0-9_]*)$")
_TARGET = re.compile(r"^\s*(?:-\s+)?(?:target|use_target)\s*:\s*[\"']?(?P<word>[\w.-]*)$")
_TARGETS = re.compile(r"^\s*targets\s*:\s*\[(?:[^\]]*,)?\s*[\"']?(?P<word>[\w.-]*)$")
_DEPENDS = re.compile(r"^\s*depends_on\s*:\s*\[(?:[^\]]*,)?\s*[\"']?(?P<word>[\w.-]*)$")
_ITEM = re.compile(r"^\s*-\s+[\"']?(?P<word>[\w.-]*)$")
_TESTS = ("tests", "eval_cases", "evalcases")
_KEY_DOCS = {
    "id": "The test's id: results, baselines and `depends_on` name it.",
    "input": "What the agent receives: a string, a mapping (one user message with JSON "
             "content) or a list of messages.",
    "criteria": "What a good answer does; the default grader judges against it.",
    "expected_output": "The reference answer: a string, a mapping or messages.",
    "assertions": "Graders: `type:` items or strings (collected into one rubric grader).",
    "rubrics": "Checklist items for an llm-grader (`outcome:`; `criteria:` is not read here).",
    "metadata": "Merged over the suite's metadata: arrays concatenated, maps merged.",
    "mode": "`conversation` for multi-turn tests with `turns`.",
    "turns": "The turns of a conversation (needs `mode: conversation`).",
    "vars": "Values for `{{name}}` in this test's input, criteria and expected output.",
}


def offers(cursor: Cursor) -> list[Offer] | None:
    # The editor's lines: split where LSP splits (not str.splitlines, which also breaks at
    # U+2028 and friends), so the cursor's line always exists, the last empty one included.
    lines = _LINE_BREAK.split(cursor.text)
    if cursor.line >= len(lines):
        return None
    line = lines[cursor.line]
    before = line[:cursor.character]
    if cursor.kind is PROMPT:
        return _variables(line, before, cursor.character)
    if cursor.kind not in (SUITE, CASES):
        return None
    match = _TYPE.match(before)
    if match:
        start, end = match.start("word"), _word_end(line, cursor.character)
        if _parent_key(lines, cursor.line) == "aggregator":
            return [Offer(name, name, start, end, "value", "composite aggregator")
                    for name in AGGREGATOR_TYPES]
        return _types(cursor, start, end)
    names = _names(cursor, lines, before)
    if names is not None:
        return names
    match = _ROLE.match(before)
    if match:
        start = match.start("word")
        return [Offer(role, role, start, _word_end(line, cursor.character), "value",
                      "message role") for role in rules.ROLES]
    match = _KEY.match(before)
    if match:
        return _keys(cursor, lines, match)
    return None


def _names(cursor: Cursor, lines: list[str], before: str) -> list[Offer] | None:
    """Names the suite refers to: a test id in `depends_on` (this suite's tests), a target in
    `target`, `use_target` or a `targets` list (the targets file the CLI would read)."""
    line = lines[cursor.line]
    item = _ITEM.match(before)
    parent = _parent_key(lines, cursor.line) if item else None
    depends = _DEPENDS.match(before) or (item if parent == "depends_on" else None)
    if depends is not None:
        facts = cursor.analysis.facts if cursor.analysis is not None else {}
        ids = facts.get(TEST_IDS)
        start, end = depends.start("word"), _word_end(line, cursor.character)
        return [Offer(name, name, start, end, "value", "test of this suite")
                for name in dict.fromkeys(i for i, _ in ids if isinstance(ids, list))] \
            if isinstance(ids, list) else []
    target = _TARGET.match(before) or _TARGETS.match(before) or \
        (item if parent == "targets" else None)
    if target is None or cursor.path is None or cursor.files is None:
        return None
    folders = [Path(p) for p in prompt_candidates(Path(cursor.path).parent, ".", cursor.root)]
    found = targetrefs.discover(folders, cursor.files)
    defined = targetrefs.defined(found, cursor.files) if found is not None else None
    start, end = target.start("word"), _word_end(line, cursor.character)
    return [Offer(name, name, start, end, "value", "target") for name in defined or ()]


def _word_end(line: str, column: int) -> int:
    end = column
    while end < len(line) and (line[end].isalnum() or line[end] in "_-"):
        end += 1
    return end


def _variables(line: str, before: str, column: int) -> list[Offer] | None:
    match = _OPEN.search(before)
    if match is None:
        return None
    end = _word_end(line, column)
    closes = line[end:].lstrip(" ").startswith("}}")
    spaced = before[match.start() + 2:match.start("word")].startswith(" ")
    tail = "" if closes else (" }}" if spaced else "}}")
    return [Offer(name, name + tail, match.start("word"), end, "variable", "grader variable",
                  rules.VARIABLE_DOCS[name]) for name in rules.TEMPLATE_VARIABLES]


def _parent_key(lines: list[str], line: int) -> str | None:
    """The key of the mapping the cursor's line belongs to: the nearest line above that is
    indented less (a `- ` item's dash counts as indentation)."""
    text = lines[line]
    key = _LINE_KEY.match(text)
    column = len(text) - len(text.lstrip(" "))
    if key is not None and key.group("dash"):
        column += len(key.group("dash"))
    for above in range(line - 1, -1, -1):
        found = _LINE_KEY.match(lines[above])
        if found is None:
            continue
        lead = len(found.group("indent")) + (len(found.group("dash") or "")
                                             if found.group("dash") else 0)
        if lead < column and not found.group("dash"):
            return found.group("key")
        if lead < column:
            return None  # an item of a list: a grader, not an aggregator
    return None


def definition(cursor: Cursor, files: NamedFiles) -> tuple[str, Span] | None:
    """A `depends_on` name: the `id` of the test it names in this suite. A target name: its
    `name` in the targets file the CLI would read (`targetrefs.discover`)."""
    facts = cursor.analysis.facts if cursor.analysis is not None else {}
    here = Position(cursor.line, cursor.character)
    depends = facts.get(DEPENDS)
    for name, span in depends if isinstance(depends, list) else ():
        if span.contains(here):
            ids = facts.get(TEST_IDS)
            found = next((s for i, s in ids if i == name), None) \
                if isinstance(ids, list) else None
            return (cursor.path, found) if found is not None and cursor.path else None
    refs = facts.get(REFS)
    for ref in refs if isinstance(refs, list) else ():
        if ref.role != "target" or not ref.span.contains(here) or cursor.path is None:
            continue
        folders = [Path(p) for p in prompt_candidates(Path(cursor.path).parent, ".",
                                                      cursor.root)]
        found_file = targetrefs.discover(folders, files)
        names = targetrefs.defined(found_file, files) if found_file is not None else None
        if names and ref.name in names and found_file is not None:
            return str(found_file), names[ref.name]
        return None
    return None


def local_name(cursor: Cursor) -> LocalName | None:
    """A test id at the cursor, on its test's `id` or in a `depends_on` list: ids are per suite
    (`depends_on` names a test of the same suite), so its definition and uses are all here."""
    if cursor.kind is not SUITE or cursor.analysis is None:
        return None
    facts = cursor.analysis.facts
    ids, depends = facts.get(TEST_IDS), facts.get(DEPENDS)
    ids = ids if isinstance(ids, list) else []
    depends = depends if isinstance(depends, list) else []
    here = Position(cursor.line, cursor.character)
    name = next((n for n, span in (*ids, *depends) if span.contains(here)), None)
    if name is None:
        return None
    at = next(span for n, span in (*ids, *depends) if n == name and span.contains(here))
    defined = next((span for n, span in ids if n == name), None)
    return LocalName(name, _unquoted(at, name),
                     _unquoted(defined, name) if defined is not None else None,
                     tuple(_unquoted(span, name) for n, span in depends if n == name))


def _unquoted(span: Span, name: str) -> Span:
    """The name's own characters: a quoted scalar's span less its quotes."""
    if span.start.line == span.end.line and \
            span.end.character - span.start.character == len(name) + 2:
        return Span(Position(span.start.line, span.start.character + 1),
                    Position(span.end.line, span.end.character - 1))
    return span


def custom_types(path: str | None, root: str | None) -> list[str]:
    """Stems of the scripts in `.agentv/assertions/` from the file's folder up to the root."""
    if path is None:
        return []
    names: dict[str, None] = {}
    folder = Path(path).parent
    boundary = Path(root) if root else None
    while True:
        try:
            with os.scandir(folder / ".agentv" / "assertions") as entries:
                for entry in entries:
                    stem, ext = os.path.splitext(entry.name)
                    if ext.lower() in rules.ASSERTION_SCRIPT_EXTENSIONS and entry.is_file():
                        names.setdefault(stem, None)
        except OSError:
            pass
        if boundary is None or folder in (boundary, folder.parent) or \
                boundary not in folder.parents:
            break
        folder = folder.parent
    return sorted(names)


def _types(cursor: Cursor, start: int, end: int) -> list[Offer]:
    found = [Offer(kind, kind, start, end, "value", "grader") for kind in rules.GRADER_KINDS]
    found += [Offer(name, name, start, end, "value", "custom assertion (.agentv/assertions)")
              for name in custom_types(cursor.path, cursor.root)
              if name not in rules.GRADER_KINDS]
    return found


def _keys(cursor: Cursor, lines: list[str], match: re.Match[str]) -> list[Offer] | None:
    indent = len(match.group("indent"))
    column = indent + (len(match.group("dash")) if match.group("dash") else 0)
    start = match.start("word")
    end = _word_end(lines[cursor.line], cursor.character)
    where = _owner(lines, cursor.line, indent, column, bool(match.group("dash")))
    if cursor.kind is CASES and where == "top-item":
        where = "test"
    names: tuple[str, ...]
    if where == "test":
        names, docs = rules.TEST_KEYS, _KEY_DOCS
    elif where == "top" and cursor.kind is SUITE:
        names, docs = rules.TOP_LEVEL_KEYS, {}
    else:
        return None
    present = _siblings(lines, cursor.line, column)
    return [Offer(name, f"{name}: ", start, end, "property", "AgentV key", docs.get(name))
            for name in names if name not in present]


def _owner(lines: list[str], line: int, indent: int, column: int, dashed: bool) -> str | None:
    """Whose key the cursor types: "top" (the suite), "test" (an item of `tests:`), or
    "top-item" (an item of a root list: a cases file)."""
    if column == 0:
        return "top"
    item_dash = indent if dashed else column - 2
    for above in range(line - (0 if dashed else 1), -1, -1):
        text = lines[above]
        found = _LINE_KEY.match(text) or re.match(r"^(\s*)(-\s+)", text)
        if not text.strip() or text.lstrip().startswith("#") or found is None:
            continue
        lead = len(text) - len(text.lstrip(" "))
        if above != line and lead < item_dash:
            key = _LINE_KEY.match(text)
            return "test" if key is not None and key.group("key") in _TESTS and \
                not key.group("dash") else None
        if above != line and lead == item_dash and text.lstrip().startswith("- ") and \
                item_dash == 0:
            return "top-item"
    return "top-item" if item_dash == 0 else None


def _siblings(lines: list[str], line: int, column: int) -> set[str]:
    """Keys already written at `column` in the same mapping (to leave them out)."""
    present: set[str] = set()
    for step in (-1, 1):
        index = line + step
        while 0 <= index < len(lines):
            text = lines[index]
            if not text.strip() or text.lstrip().startswith("#"):
                index += step
                continue
            key = _LINE_KEY.match(text)
            lead = len(text) - len(text.lstrip(" "))
            start = lead + (len(key.group("dash")) if key and key.group("dash") else 0)
            if key is not None and start == column:
                present.add(key.group("key"))
                if key.group("dash"):
                    break
            elif lead < column:
                break
            index += step
    return present


def hover(cursor: Cursor, files: NamedFiles) -> Tip | None:
    """On a `file://` prompt: the prompt that test's grader receives, rendered."""
    if cursor.kind not in (SUITE, CASES) or cursor.analysis is None or cursor.path is None:
        return None
    refs = cursor.analysis.facts.get(REFS)
    for ref in refs if isinstance(refs, list) else ():
        span = ref.span
        if ref.role != "prompt" or span.start.line != cursor.line or \
                not span.start.character <= cursor.character <= span.end.character:
            continue
        text = None
        for candidate in _candidates(cursor, ref.name):
            target = files.resolve(Path(candidate).parent, Path(candidate).name)
            if target is not None and files.exists(target):
                text = files.read_text(target)
                break
        if text is None:
            return Tip(f"**{ref.name}** · grader prompt\n\nNot found from the suite's folder up "
                       "to the workspace root.", span.start.character, span.end.character)
        context = ref.context or {}
        who = f" for test `{context['id']}`" if context.get("id") else ""
        rendered = render(text, grader_values(context))
        fence = "````" if "```" in rendered else "```"
        return Tip(f"**{ref.name}** · the prompt the grader receives{who} (the agent's answer "
                   f"and file changes are known only at run time)\n\n{fence}markdown\n"
                   f"{rendered.rstrip()}\n{fence}", span.start.character, span.end.character)
    return None


def _candidates(cursor: Cursor, name: str) -> list[str]:
    assert cursor.path is not None
    return list(prompt_candidates(Path(cursor.path).parent, name, cursor.root))


IDE = FormatIde(offers=offers, hover=hover, definition=definition, local_name=local_name)
