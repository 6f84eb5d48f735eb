"""Nunjucks prompts as promptfoo renders them (`src/util/templates.ts`, nunjucks 3.2.4 with
`throwOnUndefined: false`): the variables a template reads and the syntax mistakes that make the
render throw (an unknown or unclosed block tag) or leave it literal (an unclosed `{{`, which
promptfoo wraps in `{% raw %}`).

Like promptfoo's `extractVariablesFromTemplate`, a variable is the head of a `{{ }}` expression
or of an `{% if %}`/`{% for %}` source, comments dropped and loop variables removed. Names read
only under `{% if %}`, as an inline if's condition or through a first `default` filter may be
undefined on purpose: they are marked `guarded`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_OPEN = re.compile(r"\{\{|\{%|\{#")
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_KEYWORDS = frozenset({"not", "true", "false", "none", "True", "False", "None", "null", "in",
                       "and", "or", "is", "if", "else", "loop", "env", "super", "caller",
                       "range", "cycler", "joiner", "undefined"})
_BLOCKS = {"if": "endif", "for": "endfor", "macro": "endmacro", "call": "endcall",
           "filter": "endfilter", "block": "endblock", "raw": "endraw",
           "verbatim": "endverbatim", "asyncEach": "endeach", "asyncAll": "endall"}
_MIDDLE = {"elif": "if", "elseif": "if", "else": ("if", "for")}
_SINGLE = frozenset({"extends", "include", "import", "from", "set"})
_ENDS = {end: start for start, end in _BLOCKS.items()} | {"endset": "set"}


@dataclass(frozen=True, slots=True)
class Use:
    name: str
    start: int
    end: int
    guarded: bool


@dataclass(frozen=True, slots=True)
class Problem:
    message: str
    start: int
    end: int


def analyse(text: str) -> tuple[list[Use], list[Problem]]:
    uses: list[Use] = []
    problems: list[Problem] = []
    stack: list[tuple[str, int, int]] = []
    bound: set[str] = set()
    pos = 0
    while True:
        match = _OPEN.search(text, pos)
        if match is None:
            break
        start = match.start()
        opener = match.group()
        closer = {"{{": "}}", "{%": "%}", "{#": "#}"}[opener]
        end = text.find(closer, match.end())
        if end < 0:
            what = {"{{": "'{{'", "{%": "'{%'", "{#": "'{#'"}[opener]
            problems.append(Problem(f"{what} is never closed: promptfoo renders this prompt "
                                    "as literal text ({% raw %}), so none of its variables "
                                    "are filled in", start, start + 2))
            break
        inner_start = match.end()
        body = text[inner_start:end]
        pos = end + 2
        guarded = any(tag == "if" for tag, _, _ in stack)
        if opener == "{#":
            continue
        if opener == "{{":
            _expression(body, inner_start, guarded, bound, uses)
            continue
        stripped = body.strip().lstrip("-").rstrip("-").strip()
        lead = len(body) - len(body.lstrip().lstrip("-").lstrip())
        tag_match = _IDENT.match(stripped)
        if tag_match is None:
            problems.append(Problem("a '{% %}' tag with no name: the render throws",
                                    start, pos))
            continue
        tag = tag_match.group()
        tag_start = inner_start + lead
        rest = stripped[tag_match.end():]
        rest_start = tag_start + tag_match.end()
        if tag in _BLOCKS:
            if tag == "set":
                continue
            stack.append((tag, tag_start, tag_start + len(tag)))
            if tag in {"raw", "verbatim"}:
                close = re.compile(r"\{%-?\s*end" + tag + r"\s*-?%\}").search(text, pos)
                if close is None:
                    problems.append(Problem(f"'{{% {tag} %}}' is never closed with "
                                            f"'{{% end{tag} %}}': the render throws",
                                            tag_start, tag_start + len(tag)))
                    return uses, problems
                stack.pop()
                pos = close.end()
                continue
            if tag == "for":
                loop = re.match(r"\s*([\w\s,]+?)\s+in\s+(.*)$", rest, re.DOTALL)
                if loop:
                    bound.update(n.strip() for n in loop.group(1).split(","))
                    src = loop.group(2)
                    _expression(src, rest_start + loop.start(2), guarded, bound, uses)
            elif tag == "if":
                _expression(rest, rest_start, True, bound, uses)
            elif tag == "macro":  # its name (called later: `{{ m(x) }}`) and its arguments
                args = re.match(r"\s*(\w+)\s*\((.*)\)", rest, re.DOTALL)
                if args:
                    bound.add(args.group(1))
                    bound.update(m.group() for m in _IDENT.finditer(args.group(2)))
            continue
        if tag == "set":
            assign = re.match(r"\s*([\w\s,]+?)\s*(=|$)", rest)
            if assign:
                bound.update(n.strip() for n in assign.group(1).split(","))
                if assign.group(2) != "=":
                    stack.append(("set", tag_start, tag_start + 3))
            continue
        if tag in _MIDDLE:
            owners = _MIDDLE[tag]
            if not stack or stack[-1][0] not in (owners if isinstance(owners, tuple)
                                                 else (owners,)):
                problems.append(Problem(f"'{{% {tag} %}}' outside an '{{% if %}}' block: the "
                                        "render throws", tag_start, tag_start + len(tag)))
            elif tag != "else":
                _expression(rest, rest_start, True, bound, uses)
            continue
        if tag in _ENDS:
            if not stack or stack[-1][0] != _ENDS[tag]:
                problems.append(Problem(f"'{{% {tag} %}}' closes no '{{% {_ENDS[tag]} %}}': "
                                        "the render throws", tag_start, tag_start + len(tag)))
            else:
                stack.pop()
            continue
        if tag in _SINGLE:
            continue
        problems.append(Problem(f"unknown block tag '{tag}': the nunjucks render throws "
                                f"(\"unknown block tag: {tag}\")", tag_start,
                                tag_start + len(tag)))
    if any(p.message.startswith("unknown block tag") for p in problems):
        return uses, problems  # a misspelt end tag: its block's "never closed" is the same slip
    for tag, start, end in stack:
        closer = _BLOCKS.get(tag, "endset")
        problems.append(Problem(f"'{{% {tag} %}}' is never closed with '{{% {closer} %}}': the "
                                "render throws", start, end))
    return uses, problems


def _expression(body: str, offset: int, guarded: bool, bound: set[str],
                uses: list[Use]) -> None:
    """The head of an expression and of each operand: names not after a `.`, a `|` filter or
    inside a string literal. A name is guarded (may be undefined on purpose) in the condition
    of an inline if (`{{ "a" if formal else "b" }}`: nunjucks renders `else` when it is
    undefined) and when its operand's first filter is `default` or `d` (`{{ tone |
    default("neutral") }}`: undefined becomes the default; a filter before it, such as
    `upper`, turns undefined into "" first, which `default` keeps)."""
    i = 0
    n = len(body)
    after_filter = False
    condition = False  # between an inline `if` and its `else`
    while i < n:
        char = body[i]
        if char in "\"'":
            close = body.find(char, i + 1)
            i = n if close < 0 else close + 1
            continue
        if char == "|":
            after_filter = True
            i += 1
            continue
        match = _IDENT.match(body, i)
        if match is None:
            i += 1
            continue
        name = match.group()
        previous = body[:i].rstrip()
        after_dot = previous.endswith(".")
        if name in ("if", "else") and not after_dot:
            condition = name == "if"
        keyword_arg = body[match.end():].lstrip().startswith("=") and \
            not body[match.end():].lstrip().startswith("==")
        if not (after_dot or after_filter or name in _KEYWORDS or name in bound or keyword_arg
                or name[0].isdigit()):
            uses.append(Use(name, offset + i, offset + match.end(), guarded or condition
                            or _defaulted(body, match.end())))
        after_filter = False
        i = match.end()


_POSTFIX = re.compile(r"\s*\.\s*[A-Za-z_$][A-Za-z0-9_$]*")
_DEFAULT_FILTER = re.compile(r"\s*\|\s*(?:default|d)(?![A-Za-z0-9_$])")
_CLOSERS = {"[": "]", "(": ")"}


def _defaulted(body: str, at: int) -> bool:
    """Whether the operand whose head name ends at `at` (with its `.x`, `[k]` and `(args)`,
    which nunjucks reads as undefined when the head is) goes first through `default`/`d`."""
    while True:
        dot = _POSTFIX.match(body, at)
        if dot is not None:
            at = dot.end()
            continue
        stripped = len(body) - len(body[at:].lstrip())
        opener = body[stripped:stripped + 1]
        if opener not in _CLOSERS:
            break
        depth, j = 0, stripped
        while j < len(body):
            if body[j] == opener:
                depth += 1
            elif body[j] == _CLOSERS[opener]:
                depth -= 1
                if depth == 0:
                    break
            j += 1
        at = j + 1
        if j >= len(body):
            return False
    return _DEFAULT_FILTER.match(body, at) is not None


def required(uses: list[Use]) -> dict[str, Use]:
    """The names a render needs, each at its first unguarded use."""
    out: dict[str, Use] = {}
    for use in uses:
        if not use.guarded and use.name not in out:
            out[use.name] = use
    return out


def split_txt(text: str) -> list[tuple[int, str]]:
    """A `.txt` prompt file's prompts (`processTxtFile`): split on lines whose trim is `---`,
    each with its offset in the file; empty ones dropped."""
    out: list[tuple[int, str]] = []
    start = 0
    offset = 0
    for line in text.splitlines(keepends=True):
        if line.strip() == "---":
            out.append((start, text[start:offset]))
            start = offset + len(line)
        offset += len(line)
    out.append((start, text[start:]))
    return [(s, body) for s, body in out if body.strip()]
