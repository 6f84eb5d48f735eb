"""What the dataset, calibration and eval-set rules share: where a finding goes, and misspelt keys.

eval-harness's loaders stop at the first problem; evalyaml reports every one, each on the key
or value it is about. A loader error (the loader throws, so nothing runs) is reported with the
loader's own message after what it means for the user ("eval-harness refuses to load the
dataset: ..."); what eval-harness ignores silently is a warning that says what will happen.

Misspelt keys: eval-harness ignores keys it does not know, so `expected_ouput` is not an error
by itself; the error is that `expected_output` is then missing. That is reported once, on the
misspelt key, by the rule of the missing key (`Typos.misspelt`), never twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Mapping as MappingOf

from evalyaml.core.context import RuleContext
from evalyaml.core.findings import FindingSink
from evalyaml.core.suggest import rank
from evalyaml.formats.padosoft.values import items_of
from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar

INT_KEY = lazy_re(r"-?(?:0|[1-9][0-9]*)")  # a PHP array key that is an integer


class Context(RuleContext):
    """One file's parse and sink, with the span helpers Padosoft's rules use."""

    __slots__ = ("parsed",)

    def __init__(self, parsed: ParsedText, sink: FindingSink) -> None:
        super().__init__(parsed.lines, sink)
        self.parsed = parsed

    def value_span(self, key: Node, value: Node | None) -> Span:
        """The value, or its key when the value has no text of its own (`name:` alone)."""
        if value is None or (isinstance(value, Scalar) and not value.text and value.is_plain):
            return self.span(key)
        return self.span(value)

    def head_span(self, node: Node) -> Span:
        """Where a finding about a whole mapping goes: its first key and value, on one line."""
        lines = self.parsed.lines
        if isinstance(node, Mapping) and node.pairs:
            key, value = node.pairs[0]
            line = lines.position(key.start).line
            end = key.end
            if value.end > value.start and lines.position(value.end).line == line:
                end = value.end
            return lines.span(key.start, end)
        start = lines.position(node.start)
        if lines.position(node.end).line == start.line:
            return self.span(node)
        return lines.span(node.start, lines.line_end(start.line))

    def node_span(self, node: Node) -> Span:
        """A node's first line; for an empty node (`- ` alone) the content of its line."""
        if node.end > node.start:
            return self.head_span(node)
        lines = self.parsed.lines
        return self._line(lines.position(node.start).line)

    def first_line(self) -> Span:
        """For a file with nothing better to point at (empty, or not a mapping): its first line
        with content, else its first comment line, else its first line."""
        lines = self.parsed.lines
        fallback: int | None = None
        for line in range(lines.line_count):
            text = lines.line_text(line).strip(" \t\ufeff")
            if text and not text.startswith("#"):
                return self._line(line)
            if text and fallback is None:
                fallback = line
        return self._line(fallback or 0)

    def _line(self, line: int) -> Span:
        lines = self.parsed.lines
        start = lines.line_start(line)
        text = lines.line_text(line)
        start += len(text) - len(text.lstrip(" \t\ufeff"))
        return lines.span(start, lines.line_end(line))


def loop_items(ctx: Context, value: Node, *, file: str, key: str, validator: str
               ) -> list[Node]:
    """The items the loader's `foreach` visits in a `samples`/`cases` value it accepted as a
    PHP array. A mapping passes `is_array` too, but its first non-integer key reaches
    `validator()`, which takes an integer index, and PHP stops with a TypeError: say so there."""
    if isinstance(value, Mapping):
        bad_key = next((k for k in value.key_nodes() if not INT_KEY.fullmatch(k.text)), None)
        if bad_key is not None:
            ctx.add("EY502", f"eval-harness cannot load the {file}: '{key}' is a mapping, not "
                    "a list; the loader accepts it as a PHP array, then stops with a TypeError "
                    f"at the key '{bad_key.text}' ({validator}() takes an integer index); "
                    f"write the {key} as a list of '- id: ...' items", ctx.span(bad_key))
    return items_of(value)


class Typos:
    """The unknown keys of one mapping that are close to a key eval-harness reads.

    `misspelt[known]` is the key that was probably meant as `known` when `known` itself is
    absent; `extra` are the rest (the known key is present too, or the key is optional), to be
    reported by the caller as ignored keys.
    """

    __slots__ = ("extra", "misspelt")

    def __init__(self, mapping: Mapping, known: Iterable[str],
                 aliases: MappingOf[str, str] | None = None) -> None:
        known_set = frozenset(known)
        present = {k.text for k in mapping.key_nodes()}
        self.misspelt: dict[str, Scalar] = {}
        self.extra: list[tuple[Scalar, str]] = []
        for key in mapping.key_nodes():
            name = key.text
            if name in known_set:
                continue
            alias = (aliases or {}).get(name)
            ranked = [alias] if alias else rank(name, known_set)
            if not ranked:
                continue
            choice = ranked[0]
            if choice not in present and choice not in self.misspelt:
                self.misspelt[choice] = key
            else:
                self.extra.append((key, choice))

    def report_extra(self, ctx: Context, code: str, where: str, consequence: str) -> None:
        """Keys close to a known one that eval-harness will ignore: `consequence` says what is
        lost, with `{key}` for the intended key."""
        for key, choice in self.extra:
            ctx.add(code, f"unknown key '{key.text}' in {where}; did you mean '{choice}'? "
                    f"eval-harness ignores unknown keys, so "
                    f"{consequence.format(key=choice)}",
                    ctx.span(key), fixes=(ctx.rename_fix(key, choice),))

    def report_all_extra(self, ctx: Context, code: str, where: str, consequence: str,
                         exclude: Iterable[str] = ()) -> None:
        """As `report_extra`, and also the misspelt keys no rule took (optional keys)."""
        skip = set(exclude)
        for choice, key in self.misspelt.items():
            if choice not in skip:
                self.extra.append((key, choice))
        self.extra.sort(key=lambda pair: pair[0].start)
        self.report_extra(ctx, code, where, consequence)


def typo_note(key: Scalar, intended: str) -> str:
    return f" ('{key.text}' is not '{intended}': did you mean '{intended}'?)"


def quoted(items: Iterable[str]) -> str:
    return ", ".join(f"'{item}'" for item in items)
