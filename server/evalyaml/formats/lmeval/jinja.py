"""Jinja template syntax, as far as the harness's environment decides it, without Jinja.

The harness renders `doc_to_text` and friends with `jinja2.Environment(undefined=
StrictUndefined)` and one extra filter (`lm_eval/utils.py:606-619`). Jinja is not a dependency of
evalyaml, so this module lexes templates itself: delimiters, strings, brackets, block tags and
filter names, which is what turns into `TemplateSyntaxError` or `TemplateAssertionError` when the
first document is rendered at LOAD. It also reports `{field}` outside Jinja (rendered literally,
lm-eval issue #3930) and lists the names a template reads, for comparison across an include
chain. Offsets are into the template's value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from evalyaml.core.suggest import best_value
from evalyaml.formats.lmeval.vocab import JINJA_FILTERS, JINJA_TESTS


@dataclass(frozen=True, slots=True)
class Problem:
    code: str  # EYLM015 syntax, EYLM016 single brace, EYLM017 filter
    message: str
    start: int
    end: int


@dataclass(slots=True)
class Template:
    problems: list[Problem] = field(default_factory=list)
    names: dict[str, int] = field(default_factory=dict)  # top-level name -> first offset
    jinja: bool = False  # has any `{{`, `{%` or `{#`


_BLOCKS = {"if": "endif", "for": "endfor", "macro": "endmacro", "call": "endcall",
           "filter": "endfilter", "block": "endblock", "with": "endwith",
           "autoescape": "endautoescape", "raw": "endraw", "set": "endset"}
_MIDDLE = {"elif": ("if",), "else": ("if", "for")}
_SIMPLE = {"include", "import", "from", "extends"}
_KEYWORDS = {"and", "or", "not", "in", "is", "if", "else", "elif", "for", "recursive", "true",
             "false", "none", "True", "False", "None", "with", "without", "context", "as",
             "import", "ignore", "missing"}
_GLOBALS = {"range", "dict", "lipsum", "cycler", "joiner", "namespace", "loop", "self",
            "varargs", "kwargs", "caller"}
_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<string>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
  | (?P<badstring>['"])
  | (?P<number>\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)
  | (?P<name>[^\W\d]\w*)
  | (?P<op>\*\*|//|==|!=|>=|<=|[-+*/%~<>=.,:;|()\[\]{}!])
""", re.VERBOSE | re.DOTALL)
# `{premise}`: a field-like name (three characters or more: `{A}`, `{ab}` are notation).
_SINGLE = re.compile(r"(?<![{}\\^_$A-Za-z0-9])\{([A-Za-z_][A-Za-z0-9_]{2,})\}(?!\})")
_OPEN = re.compile(r"\{\{|\{%|\{#")
_CLOSERS = {"(": ")", "[": "]", "{": "}"}


def check(text: str) -> Template:
    """Every problem of one template, in order; never raises."""
    out = Template()
    stack: list[tuple[str, int, int]] = []  # open block tag, its start and end
    local: set[str] = set()
    pos = 0
    raw_from: int | None = None
    while True:
        match = _OPEN.search(text, pos)
        if match is None:
            if raw_from is None:
                _single_braces(text, pos, len(text), out)
            break
        if raw_from is None:
            _single_braces(text, pos, match.start(), out)
        out.jinja = True
        start = match.start()
        opener = match.group()
        if raw_from is not None and opener != "{%":
            pos = match.end()
            continue
        if opener == "{#":
            close = text.find("#}", match.end())
            if close < 0:
                out.problems.append(Problem("EYLM015", "missing end of comment tag", start,
                                            start + 2))
                break
            pos = close + 2
            continue
        end_marker = "}}" if opener == "{{" else "%}"
        body_start = match.end()
        if body_start < len(text) and text[body_start] in "-+":
            body_start += 1
        tokens, closed, problem = _lex(text, body_start, end_marker)
        if problem is not None:
            if raw_from is None:
                out.problems.append(problem)
                break
            pos = match.end()
            continue
        assert closed is not None
        pos = closed + 2
        if opener == "{{":
            if raw_from is None:
                stop = _expression(tokens, out, local, "end of print statement")
                if stop:
                    break
            continue
        if not tokens or tokens[0][0] != "name":
            if raw_from is None:
                out.problems.append(Problem("EYLM015", "tag name expected", start, pos))
                break
            continue
        tag = tokens[0][1]
        if raw_from is not None:
            if tag == "endraw":
                raw_from = None
                stack.pop()
            continue
        if not _statement(tag, tokens, start, pos, stack=stack, out=out, local=local):
            break
        if tag == "raw":
            raw_from = start
    if stack and not any(p.code == "EYLM015" for p in out.problems):
        tag, tag_start, tag_end = stack[-1]
        out.problems.append(Problem(
            "EYLM015", f"unexpected end of template: Jinja was looking for '{_BLOCKS[tag]}' "
            f"to close this '{tag}' block", tag_start, tag_end))
    return out


Token = tuple[str, str, int]  # kind, text, offset


def _lex(text: str, pos: int, end_marker: str) -> tuple[list[Token], int | None,
                                                           Problem | None]:
    tokens: list[Token] = []
    balance: list[tuple[str, int]] = []
    while pos < len(text):
        if not balance:
            trimmed = pos + 1 if text[pos] in "-+" and text.startswith(end_marker, pos + 1) \
                else pos
            if text.startswith(end_marker, trimmed):
                return tokens, trimmed, None
        match = _TOKEN.match(text, pos)
        if match is None:
            return tokens, None, Problem("EYLM015", f"unexpected char '{text[pos]}'", pos,
                                         pos + 1)
        kind = match.lastgroup or ""
        value = match.group()
        if kind == "badstring":
            return tokens, None, Problem("EYLM015", "unterminated string", pos, len(text))
        if kind == "op" and value in _CLOSERS:
            balance.append((value, pos))
        elif kind == "op" and value in ")]}":
            if not balance or _CLOSERS[balance[-1][0]] != value:
                return tokens, None, Problem("EYLM015", f"unexpected '{value}'", pos, pos + 1)
            balance.pop()
        if kind != "ws":
            tokens.append((kind, value, pos))
        pos = match.end()
    if balance:
        char, at = balance[-1]
        return tokens, None, Problem("EYLM015", f"unexpected end of template: '{char}' is "
                                     "never closed", at, at + 1)
    return tokens, None, Problem("EYLM015", f"unexpected end of template: '{end_marker}' "
                                 "expected", max(0, pos - 1), pos)


def _operand(kind: str, value: str) -> bool:
    return kind in ("string", "number") or (kind == "name" and value not in _KEYWORDS)


def _expression(tokens: list[Token], out: Template, local: set[str], ending: str) -> bool:
    """Filters, tests, names and two operands in a row; True when a syntax error stops the
    template.

    After `is [not] NAME` Jinja's `parse_test` takes one argument without parentheses
    (`x is divisibleby 2`, `x is eq y`), so that operand is no error and a test's name is no
    name the template reads."""
    previous: Token | None = None
    testing = False  # the next name is a test's (after `is` or `is not`)
    test_argument = False  # the next operand is a test's argument
    for index, token in enumerate(tokens):
        kind, value, at = token
        operand = _operand(kind, value)
        if testing and kind == "name" and value != "not":
            testing = False
            following = tokens[index + 1][1] if index + 1 < len(tokens) else ""
            test_argument = following not in ("(", ".")
            if following != "." and value not in JINJA_TESTS:
                _unknown(out, "test", value, at, JINJA_TESTS)
            previous = token
            continue
        testing = testing and kind == "name"  # `is not`: still before the test's name
        if previous is not None and operand and not test_argument and \
                _operand(*previous[:2]) and not (previous[0] == "string" and kind == "string"):
            out.problems.append(Problem("EYLM015", f"expected token '{ending}', got "
                                        f"'{value}'", at, at + len(value)))
            return True
        test_argument = False
        if kind == "name" and value == "is":
            testing = True
        elif kind == "name" and previous is not None and previous[1] == "|" and \
                previous[0] == "op":
            if value not in JINJA_FILTERS:
                _unknown(out, "filter", value, at, JINJA_FILTERS)
        elif kind == "name" and value not in _KEYWORDS and value not in _GLOBALS and \
                value not in local and (previous is None or previous[1] not in (".", "|")) and \
                not (index + 1 < len(tokens) and tokens[index + 1][1] == "=" and
                     previous is not None and previous[1] in ("(", ",")):
            out.names.setdefault(value, at)
        previous = token
    return False


def _unknown(out: Template, what: str, name: str, at: int, known: frozenset[str]) -> None:
    hint = "trim" if name == "strip" and what == "filter" else best_value(name, sorted(known))
    extra = f"; did you mean '{hint}'?" if hint else ""
    out.problems.append(Problem("EYLM017", f"no {what} named '{name}' in the harness's Jinja "
                                f"environment{extra}", at, at + len(name)))


def _statement(tag: str, tokens: list[Token], start: int, end: int, *,
               stack: list[tuple[str, int, int]], out: Template, local: set[str]) -> bool:
    rest = tokens[1:]
    if tag == "set":
        if any(t[1] == "=" for t in rest):
            target = rest[0][1] if rest and rest[0][0] == "name" else None
            if target:
                local.add(target)
            eq = next(i for i, t in enumerate(rest) if t[1] == "=")
            return not _expression(rest[eq + 1:], out, local, "end of statement block")
        if rest and rest[0][0] == "name":
            local.add(rest[0][1])
        stack.append(("set", start, end))
        return True
    if tag in _BLOCKS:
        if tag == "for":
            names = []
            for kind, value, _ in rest:
                if kind == "name" and value == "in":
                    break
                if kind == "name":
                    names.append(value)
            local.update(names)
            after = next((i for i, t in enumerate(rest) if t[1] == "in"), len(rest))
            rest = rest[after + 1:]
        stack.append((tag, start, end))
        return not _expression(rest, out, local, "end of statement block")
    if tag in _MIDDLE:
        if not stack or stack[-1][0] not in _MIDDLE[tag]:
            out.problems.append(Problem("EYLM015", f"encountered unknown tag '{tag}'", start,
                                        end))
            return False
        return not _expression(rest, out, local, "end of statement block")
    if tag.startswith("end") and tag[3:] in _BLOCKS:
        opened = tag[3:]
        if not stack or stack[-1][0] != opened:
            wanted = f": Jinja was looking for '{_BLOCKS[stack[-1][0]]}'" if stack else ""
            out.problems.append(Problem("EYLM015", f"encountered unknown tag '{tag}'{wanted}",
                                        start, end))
            return False
        stack.pop()
        return True
    if tag in _SIMPLE:
        return True
    out.problems.append(Problem("EYLM015", f"encountered unknown tag '{tag}'", start, end))
    return False


def _single_braces(text: str, start: int, end: int, out: Template) -> None:
    for match in _SINGLE.finditer(text, start, end):
        name = match.group(1)
        out.problems.append(Problem(
            "EYLM016", f"'{{{name}}}' is not Jinja: the harness renders it literally as "
            f"'{{{name}}}'; write '{{{{{name}}}}}' to insert the field", match.start(),
            match.end()))
