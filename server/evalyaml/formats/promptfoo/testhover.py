"""The hover on a test of a config: each prompt the config runs, rendered with that test's vars
(`{...defaultTest.vars, ...test.vars}`, as `prepareTestVariables` merges them), so a variable
nothing supplies shows where promptfoo would silently send an empty string.

The test is hovered on its name: its `description`, or its first key. The cursor's own text is
read (the index's analysis may be older); prompt files come through `NamedFiles`, never from
outside the workspace roots. Tests files are not hovered: which config runs them, and so which
prompts, is the config's to say."""

from __future__ import annotations

from pathlib import Path

from evalyaml.core.findings import FindingSink
from evalyaml.formats.base import Cursor, NamedFiles, Tip
from evalyaml.formats.promptfoo.common import Context, text_of
from evalyaml.formats.promptfoo.config import read_prompts
from evalyaml.formats.promptfoo.facts import ConfigFacts
from evalyaml.formats.promptfoo.kinds import CONFIG
from evalyaml.formats.promptfoo.paths import is_glob, suffix
from evalyaml.formats.promptfoo.render import Rendered, render, values_of
from evalyaml.formats.promptfoo.templates import split_txt
from evalyaml.syntax.json import parse_json
from evalyaml.syntax.text import Position
from evalyaml.syntax.tree import Mapping, Node, Sequence
from evalyaml.syntax.yaml.parse import parse_text

_MAX_PROMPTS = 20
_MAX_CHARS = 4_000


def hover_test(cursor: Cursor, files: NamedFiles) -> Tip | None:
    if cursor.kind is not CONFIG:
        return None
    sink = FindingSink(strict=False)
    lower = (cursor.path or "").lower()
    parsed = parse_json(cursor.text, sink) if lower.endswith(".json") else \
        parse_text(cursor.text, sink)
    root = parsed.documents[0] if parsed.usable and parsed.documents else None
    tests = root.get("tests") if isinstance(root, Mapping) else None
    if not isinstance(root, Mapping) or not isinstance(tests, Sequence):
        return None
    ctx = Context(parsed, sink)
    here = Position(cursor.line, cursor.character)
    for index, item in enumerate(tests.items):
        if not isinstance(item, Mapping) or not item.pairs:
            continue
        description = item.get("description")
        name: Node = description if description is not None and text_of(description) \
            else item.pairs[0][0]
        span = ctx.span(name)
        if span.start.line != span.end.line or not span.contains(here):
            continue
        label = f"test '{text_of(description)}'" if text_of(description) else \
            f"test {index + 1}"
        facts = ConfigFacts()
        read_prompts(ctx, root, facts)
        base = Path(cursor.path).parent if cursor.path else None
        markdown = _describe(label, item, root, _prompts(facts, base, files), facts)
        return Tip(markdown, span.start.character, span.end.character)
    return None


def _describe(label: str, test: Mapping, root: Mapping,
              prompts: list[tuple[str, str | _Unrendered]], facts: ConfigFacts) -> str:
    own = values_of(test.get("vars"))
    if own is None:
        return f"**{label}**: its vars are read from a file when the eval runs; its prompts " \
            "are not rendered here"
    default_test = root.get("defaultTest")
    default: dict[str, object] | None = {}
    if isinstance(default_test, Mapping):
        default = values_of(default_test.get("vars"))
    elif default_test is not None and text_of(default_test):
        default = None
    lines: list[str] = []
    count = len(prompts)
    lines.append(f"**{label}**: {count} prompt{'s' if count != 1 else ''} rendered with its vars")
    lines.append("")
    merged = {**(default or {}), **own}
    sources = [f"`{n}` (defaultTest)" for n in (default or {}) if n not in own] + \
        [f"`{n}`" for n in own]
    lines.append("Vars: " + (", ".join(sources) if sources else "none"))
    if default is None:
        lines.append("")
        lines.append("defaultTest is read from a file: its vars are not shown")
    for title, template in prompts[:_MAX_PROMPTS]:
        lines.append("")
        lines.append(f"Prompt {title}:")
        if isinstance(template, _Unrendered):
            lines.append("")
            lines.append(template.why)
            continue
        done = render(template, merged)
        lines.extend(_block(done))
    if facts.prompts_unknown and not any(t is _UNKNOWN for _, t in prompts):
        lines.append("")
        lines.append("Some prompts are decided when the eval runs (a function, an `exec:` "
                     "command, a hosted prompt): they are not shown")
    if len(prompts) > _MAX_PROMPTS:
        lines.append("")
        lines.append(f"... and {len(prompts) - _MAX_PROMPTS} more prompts")
    return "\n".join(lines)


def _block(done: Rendered) -> list[str]:
    text = done.text if len(done.text) <= _MAX_CHARS else done.text[:_MAX_CHARS] + "\n..."
    fence = "```"
    while fence in text:
        fence += "`"
    out = [fence + "text", *text.splitlines(), fence]
    for name in done.missing:
        out.append(f"- `{name}` is supplied by no var of this test: promptfoo renders it as an "
                   "empty string")
    for expr in done.absent:
        out.append(f"- `{expr}` names no part of its var: promptfoo renders it as an empty string")
    if done.kept:
        out.append("- Left as written (the run decides them): "
                   + ", ".join(f"`{e}`" for e in done.kept))
    return out


class _Unrendered:
    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why


_UNKNOWN = _Unrendered("not rendered here: a function, a script or a glob decides it when the "
                       "eval runs")
_NOT_FOUND = _Unrendered("not rendered here: the file is not found")


def _prompts(facts: ConfigFacts, base: Path | None, files: NamedFiles
             ) -> list[tuple[str, str | _Unrendered]]:
    """(title, template) for each prompt the config runs, in promptfoo's order: inline ones,
    then files; `_Unrendered` for one that cannot be known without running anything."""
    out: list[tuple[str, str | _Unrendered]] = []
    if facts.prompts_default:
        out.append(("'{{prompt}}' (promptfoo's default)", "{{prompt}}"))
    for prompt in facts.prompts:
        out.append((f"'{prompt.label}'", prompt.text))
    for ref in facts.refs:
        if ref.role not in ("prompt", "bare-prompt"):
            continue
        if ref.function is not None or is_glob(ref.name) or base is None or \
                suffix(ref.name) in (".py", ".js", ".ts", ".mjs", ".cjs", ".sh", ".rb"):
            out.append((f"'{ref.name}'", _UNKNOWN))
            continue
        target = files.resolve(base, ref.name)
        text = files.read_text(target) if target is not None else None
        if text is None:
            out.append((f"'{ref.name}'", _NOT_FOUND))
            continue
        pieces = split_txt(text) if suffix(ref.name) == ".txt" else [(0, text)]
        for number, (_, body) in enumerate(pieces, 1):
            title = f"'{ref.name}'" + (f" #{number}" if len(pieces) > 1 else "")
            out.append((title, body))
    return out
