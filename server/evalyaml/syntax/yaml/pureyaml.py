"""ruamel.yaml's pure-Python parser, made to read YAML as libyaml (ruamel.yaml.clib) reads it.

The VS Code extension bundles ruamel.yaml without its C extension, while the CLI and CI run
libyaml. Left as they are, the two disagree on valid files and word every error differently,
so an editor user would see other findings than CI. This module closes the gap where ruamel's
pure parser departs from libyaml 0.2.5 (the C parser is the reference, since it is what almost
every user runs):

- tabs: libyaml skips a tab between tokens in flow context and wherever no simple key may start
  (after `key:`, an anchor, a tag), and inside plain scalars; ruamel refuses every tab outside
  quotes (`a:\t"x"`, `b: plain\ttext` are valid for libyaml, errors for ruamel);
- a document after `...` must start with `---` in libyaml, not in ruamel;
- error messages: each of ruamel's wordings is rewritten to libyaml's (which `parse.py` turns
  into friendly text), and the marks that differ are moved to libyaml's place.

The differences that remain are the known divergences listed in ARCHITECTURE.md ("Two YAML
parsers") and pinned by `tests/core/test_pure_parser.py`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ruamel.yaml.composer import Composer, ComposerError
from ruamel.yaml.docinfo import DocInfo
from ruamel.yaml.error import MarkedYAMLError, StreamMark
from ruamel.yaml.events import AliasEvent
from ruamel.yaml.parser import Parser
from ruamel.yaml.reader import Reader, ReaderError
from ruamel.yaml.scanner import Scanner, ScannerError
from ruamel.yaml.tokens import ScalarToken

from evalyaml.syntax.yaml.resolver import FastResolver

# libyaml scans as YAML 1.1 does (a ':' starting a token in flow is a value indicator, `? `
# keys); tags still resolve as 1.2 (FastResolver), as for the C loader.
_SCANNER_VERSION = (1, 1)
_BREAKS = "\r\n\x85\u2028\u2029"
_DOCUMENT_MARKERS = ("---", "...")
_BLANK_OR_END = " \t\0" + _BREAKS
_ANCHOR_CHAR = re.compile(r"[0-9A-Za-z_-]")
_URI_CHAR = re.compile(r"[0-9A-Za-z_\-;/?:@&=+$,.!~*'()\[\]%]")  # libyaml's, after a `!`
_AFTER_ANCHOR = _BLANK_OR_END + "?:,]}%@`"
_FLOW_INDICATORS = ",[]{}"  # what ends a plain scalar inside [ ] or { }
_AFTER_FLOW_COLON = ",?[]{}"  # libyaml 0.2.5 refuses a ':' before one of these in flow text


class _LibyamlScanner(Scanner):
    """The two scanner steps where ruamel treats tabs more strictly than libyaml."""

    def scan_to_next_token(self) -> None:
        """libyaml's rule: a tab is whitespace in flow context and where no simple key may
        start; at the start of a block line it is an error (indentation)."""
        peek, forward = self.reader.peek, self.reader.forward
        while True:
            if self.reader.column == 0 and peek() == "\ufeff":
                forward()  # libyaml skips a byte-order mark at the start of any line,
                self.reader.column += 1  # and counts it as a column (ruamel counts none)
            while peek() == " " or (peek() == "\t"
                                    and (self.flow_level or not self.allow_simple_key)):
                forward()
            if peek() == "#":
                while peek() not in "\0" + _BREAKS:
                    forward()
            if not self.scan_line_break():
                return
            if not self.flow_level:
                self.allow_simple_key = True

    def stale_possible_simple_keys(self) -> None:
        """ruamel's rule (a key is one line of at most 1024 characters), run once per token
        over every open flow level: written with locals, as deep `[[[[` makes it the hot loop
        of the depth guard."""
        reader = self.reader
        line, index = reader.line, reader.index
        keys = self.possible_simple_keys
        for level in [level for level, key in keys.items()
                      if key.line != line or index - key.index > 1024]:
            key = keys.pop(level)
            if key.required:
                raise ScannerError("while scanning a simple key", key.mark,
                                   "could not find expected ':'", reader.get_mark())

    def next_possible_simple_key(self) -> Any:
        keys = self.possible_simple_keys
        return min(key.token_number for key in keys.values()) if keys else None

    def fetch_stream_end(self) -> None:
        """libyaml ends the last line before the end of the stream, so a key still waiting
        for its ':' there (`a: 1\n[` with no final newline) is an error, not a flow node."""
        if self.reader.column != 0:
            for key in self.possible_simple_keys.values():
                if key.required:
                    raise ScannerError("while scanning a simple key", key.mark,
                                       "could not find expected ':'", self.reader.get_mark())
        super().fetch_stream_end()

    def scan_directive(self) -> Any:
        token = super().scan_directive()
        if token.name == "YAML" and tuple(token.value) not in ((1, 1), (1, 2)):
            raise ScannerError(None, None, "found incompatible YAML document", token.start_mark)
        return token

    def scan_directive_name(self, start_mark: Any) -> Any:
        """libyaml knows only %YAML and %TAG, and a name is letters, digits, '-' and '_'."""
        peek, reader = self.reader.peek, self.reader
        length = 0
        while _ANCHOR_CHAR.match(peek(length)):
            length += 1
        if not length:
            raise ScannerError("while scanning a directive", start_mark,
                               "could not find expected directive name", reader.get_mark())
        name = reader.prefix(length)
        reader.forward(length)
        if peek() not in _BLANK_OR_END:
            raise ScannerError("while scanning a directive", start_mark,
                               "found unexpected non-alphabetical character", reader.get_mark())
        if name not in ("YAML", "TAG"):
            raise ScannerError("while scanning a directive", start_mark,
                               "found unknown directive name", reader.get_mark())
        return name

    def scan_block_scalar_indicators(self, start_mark: Any) -> Any:
        """`|-2`, `>+`: libyaml lets the rest of the line follow at once (`>#note`), and the
        ignored line below checks it; ruamel wants a space first."""
        peek, reader = self.reader.peek, self.reader
        chomping: bool | None = None
        increment: int | None = None
        for _ in range(2):
            char = peek()
            if char in "+-" and chomping is None:
                chomping = char == "+"
            elif char.isdigit() and char.isascii() and increment is None:
                if char == "0":
                    raise ScannerError("while scanning a block scalar", start_mark,
                                       "found an indentation indicator equal to 0",
                                       reader.get_mark())
                increment = int(char)
            else:
                break
            reader.forward()
        return chomping, increment

    def scan_block_scalar_ignored_line(self, start_mark: Any) -> Any:
        """The rest of a block scalar's header line: blanks (tabs too), a comment, a break."""
        peek, forward = self.reader.peek, self.reader.forward
        while peek() in " \t":
            forward()
        if peek() == "#":
            while peek() not in "\0" + _BREAKS:
                forward()
        if peek() not in "\0" + _BREAKS:
            raise ScannerError("while scanning a block scalar", start_mark,
                               "did not find expected comment or line break",
                               self.reader.get_mark())
        self.scan_line_break()
        return None

    def scan_block_scalar_indentation(self) -> Any:
        """The leading blank lines of a block scalar; unlike ruamel, libyaml accepts one more
        indented than the first text line (keeping its extra spaces as text) and refuses a tab
        before the first text."""
        peek, forward, reader = self.reader.peek, self.reader.forward, self.reader
        chunks = []
        max_indent = 0
        end_mark = reader.get_mark()
        while peek() in " " + _BREAKS:
            if peek() != " ":
                chunks.append(self.scan_line_break())
                end_mark = reader.get_mark()
            else:
                forward()
                max_indent = max(max_indent, reader.column)
        if peek() == "\t":  # libyaml: a tab where the text's indentation is still unknown
            raise ScannerError("while scanning a block scalar", None,
                               "found a tab character where an indentation space is expected",
                               reader.get_mark())
        return chunks, max_indent, end_mark

    def scan_tag(self) -> Any:
        """A bare `!` must be followed by a blank for libyaml (`!{`, `!#x` are errors there);
        ruamel looks for a handle or a URI after it and words the error otherwise."""
        after = self.reader.peek(1)
        if after not in _BLANK_OR_END and after not in "!<" and not _URI_CHAR.match(after):
            start_mark = self.reader.get_mark()
            self.reader.forward()
            raise ScannerError("while scanning a tag", start_mark,
                               "did not find expected whitespace or line break",
                               self.reader.get_mark())
        return super().scan_tag()

    def scan_anchor(self, TokenClass: Any) -> Any:
        """An anchor or alias name as libyaml reads it: ASCII letters, digits, '-' and '_'
        only (ruamel takes `**/x` as an alias named `*/x`)."""
        peek, reader = self.reader.peek, self.reader
        start_mark = reader.get_mark()
        kind = "alias" if peek() == "*" else "anchor"
        reader.forward()
        length = 0
        while _ANCHOR_CHAR.match(peek(length)):
            length += 1
        value = reader.prefix(length)
        reader.forward(length)
        if not length or peek() not in _AFTER_ANCHOR:
            raise ScannerError(f"while scanning an {kind}", start_mark,
                               "did not find expected alphabetic or numeric character",
                               reader.get_mark())
        return TokenClass(value, start_mark, reader.get_mark())

    def scan_plain(self) -> Any:
        """A plain scalar as libyaml 0.2.5 scans it: in flow context a ':' before anything but a
        blank or one of `,?[]{}` is text, and so is a '?' (`[openai:gpt-4o]`, `[why?]` are one
        string each, as js-yaml and the `yaml` package read them too); a ':' before one of
        `,?[]{}` is libyaml's error (`[a:]`, `[a:,b]`), which those two would read."""
        peek, forward, reader = self.reader.peek, self.reader.forward, self.reader
        chunks: list[str] = []
        start_mark = end_mark = reader.get_mark()
        indent = self.indent + 1
        spaces: Any = []
        while peek() != "#":
            length = 0
            while True:
                char = peek(length)
                if char in _BLANK_OR_END:
                    break
                if char == ":":
                    after = peek(length + 1)
                    if after in _BLANK_OR_END:
                        break
                    if self.flow_level and after in _AFTER_FLOW_COLON:
                        forward(length)
                        raise ScannerError("while scanning a plain scalar", start_mark,
                                           "found unexpected ':'", reader.get_mark())
                elif self.flow_level and char in _FLOW_INDICATORS:
                    break
                length += 1
            if length == 0:
                break
            self.allow_simple_key = False
            chunks.extend(spaces)
            chunks.append(reader.prefix(length))
            forward(length)
            end_mark = reader.get_mark()
            spaces = self.scan_plain_spaces(indent, start_mark)
            if not spaces or peek() == "#" or (not self.flow_level and reader.column < indent):
                break
        return ScalarToken("".join(chunks), True, start_mark, end_mark)

    def scan_plain_spaces(self, indent: Any, start_mark: Any) -> Any:
        """The blanks inside a plain scalar (`plain\ttext`): libyaml takes tabs as spaces there,
        except a tab left of the scalar's indentation on a continuation line."""
        peek, forward, reader = self.reader.peek, self.reader.forward, self.reader
        length = 0
        while peek(length) in " \t":
            length += 1
        whitespaces = reader.prefix(length)
        forward(length)
        if peek() not in _BREAKS:
            return [whitespaces] if whitespaces else []
        line_break = self.scan_line_break()
        self.allow_simple_key = True
        breaks: list[str] = []
        while True:
            if (reader.column == 0 and reader.prefix(3) in _DOCUMENT_MARKERS
                    and peek(3) in _BLANK_OR_END):
                return None
            char = peek()
            if char == "\t" and reader.column < indent:
                raise ScannerError("while scanning a plain scalar", start_mark,
                                   "found a tab character that violates indentation",
                                   reader.get_mark())
            if char in " \t":
                forward()
            elif char in _BREAKS:
                breaks.append(self.scan_line_break())
            else:
                break
        chunks = []
        if line_break != "\n":
            chunks.append(line_break)
        elif not breaks:
            chunks.append(" ")
        chunks.extend(breaks)
        return chunks


class _LibyamlParser(Parser):
    def parse_document_end(self) -> Any:
        """After `...` libyaml wants `---` before another document; ruamel starts one bare."""
        event = super().parse_document_end()
        if self.state == self.parse_implicit_document_start:
            self.state = self.parse_document_start
        return event


class _LibyamlComposer(Composer):
    def compose_node(self, parent: Any, index: Any) -> Any:
        """An anchor defined twice is an error for libyaml, a warning for ruamel."""
        event = self.parser.peek_event()
        anchor = getattr(event, "anchor", None)
        if anchor is not None and not isinstance(event, AliasEvent) and anchor in self.anchors:
            raise ComposerError("found duplicate anchor; first occurrence",
                                self.anchors[anchor].start_mark, "second occurrence",
                                event.start_mark)
        return super().compose_node(parent, index)


class _PureLoader(Reader, _LibyamlScanner, _LibyamlParser, _LibyamlComposer, FastResolver):
    """Composes nodes with the resolver the C loader uses; constructs nothing."""

    def __init__(self, stream: str) -> None:
        self.comment_handling = None
        self.doc_infos = [DocInfo()]  # where ruamel notes %YAML and %TAG directives
        self.max_depth = 0  # parse.py refuses over-deep text before parsing, as for C
        # libyaml indents a top-level block scalar's text by at least one space.
        self.top_level_block_style_scalar_no_indent_error_1_1 = True
        Reader.__init__(self, stream, loader=self)
        _LibyamlScanner.__init__(self, loader=self)
        _LibyamlParser.__init__(self, loader=self)
        _LibyamlComposer.__init__(self, loader=self)
        FastResolver.__init__(self, loadumper=self)

    @property
    def processing_version(self) -> Any:
        return _SCANNER_VERSION


def compose_all(text: str) -> list[Any]:
    """Every document's node tree; errors carry libyaml's wording and marks."""
    docs: list[Any] = []
    try:
        loader = _PureLoader(text)  # the reader checks every character here
        while loader.check_node():
            docs.append(loader.get_node())
    except MarkedYAMLError as err:
        raise as_libyaml(err) from None
    except ReaderError as err:
        raise as_libyaml_reader(err) from None
    return docs


def tokens(text: str) -> Iterator[Any]:
    """The scanner's tokens, for the depth guard; errors as `compose_all`'s."""
    try:
        yield from iter(_PureLoader(text).get_token, None)
    except MarkedYAMLError as err:
        raise as_libyaml(err) from None
    except ReaderError as err:
        raise as_libyaml_reader(err) from None


# ruamel's wording (a regex on the problem) -> libyaml's. Both parsers' errors then meet the same
# friendly table in parse.py.
_PROBLEMS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), s) for p, s in (
    (r"^found character .* that cannot start any token",
     "found character that cannot start any token"),
    (r"^mapping keys are not allowed here", "mapping keys are not allowed in this context"),
    (r"^mapping values are not allowed here", "mapping values are not allowed in this context"),
    (r"^sequence entries are not allowed here",
     "block sequence entries are not allowed in this context"),
    (r"^expected alphabetic or numeric character", "did not find expected alphabetic or numeric "
     "character"),
    (r"^expected a digit or '\.'", "did not find expected digit or '.' character"),
    (r"^expected a digit,", "did not find expected version number"),
    (r"^expected ' ', but found", "did not find expected whitespace or line break"),
    (r"^expected a comment or a line break", "did not find expected comment or line break"),
    (r"^expected chomping or indentation indicators",
     "did not find expected comment or line break"),
    (r"^expected indentation indicator in the range 1-9",
     "found an indentation indicator equal to 0"),
    (r"^expected '>' but found", "did not find the expected '>'"),
    (r"^expected escape sequence of \d+ hexdecimal numbers",
     "did not find expected hexdecimal number"),
    (r"^found unknown escape character", "found unknown escape character"),
    (r"^found unexpected document separator", "found unexpected document indicator"),
    (r"^expected '!',? but found", "did not find expected '!'"),
    (r"^expected URI, but found", "did not find expected tag URI"),
    (r"^expected URI escape sequence", "did not find URI escaped octet"),
    (r"^expected '<document start>'", "did not find expected <document start>"),
    (r"^found non-comment content after document end marker",
     "did not find expected <document start>"),
    (r"^found undefined tag handle", "found undefined tag handle"),
    (r"^found undefined alias", "found undefined alias"),
    (r"^found duplicate YAML directive", "found duplicate %YAML directive"),
    (r"^duplicate tag handle", "found duplicate %TAG directive"),
    (r"^expected the node content", "did not find expected node content"),
    (r"^expected ',' or '\]'", "did not find expected ',' or ']'"),
    (r"^expected ',' or '\}'", "did not find expected ',' or '}'"),
))
_BLOCK_END = {"while parsing a block collection": "did not find expected '-' indicator",
              "while parsing a block mapping": "did not find expected key"}


def as_libyaml(err: MarkedYAMLError) -> MarkedYAMLError:
    """`err` as libyaml would have raised it: its problem in libyaml's words, its marks where
    libyaml puts them."""
    problem = (err.problem or "").strip()
    if problem.startswith("expected <block end>"):
        err.problem = _BLOCK_END.get((err.context or "").strip(), problem)
    else:
        err.problem = next((libyaml for pattern, libyaml in _PROBLEMS if pattern.match(problem)),
                           problem)
    mark = err.problem_mark
    if problem.startswith("found unknown escape character") and mark is not None:
        # ruamel marks the character after the backslash; libyaml the backslash.
        err.problem_mark = StreamMark(mark.name, mark.index - 1, mark.line, mark.column - 1)
    if err.context_mark is None and err.context == "while scanning for the next token":
        err.context_mark = err.problem_mark  # libyaml marks the character twice
    return err


def as_libyaml_reader(err: ReaderError) -> ReaderError:
    """libyaml refuses the same characters, in other words."""
    if err.reason == "special characters are not allowed":
        err.reason = "control characters are not allowed"
    return err
