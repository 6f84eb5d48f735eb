"""The JSON reader's slow paths: every token the fast patterns of `json._Reader.read` do not
take comes here, to be read the lax way and explained at its character (a trailing comma, a
comment, a single-quoted string, a bad escape). Kept apart from the loop so each stays
readable; `_Reader` inherits them."""


import json.decoder
from collections.abc import Callable
from typing import NoReturn, cast

from evalyaml.syntax.json_tokens import (
    _COLON,
    _ESCAPES,
    _HEX4,
    _JSON_WS,
    _LAX_NUMBER,
    _LITERAL_HINTS,
    _NON_FINITE,
    _OTHER_SPACE,
    _STRING_RUN,
    _SURROGATE,
    _VALUE,
    _WORD,
    DUPLICATE_KEY,
    FLOAT,
    INT,
    NON_FINITE,
    STR,
    SYNTAX,
    TRAILING_COMMA,
    _escaped,
    _Fixes,
    _lax_number_problem,
    _Note,
    _Related,
    _shown,
    _Stop,
    _tail,
    describe,
)
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

# (value, end offset) of the string whose opening quote is just before the offset; C code.
_scanstring: Callable[[str, int, bool], tuple[str, int]] = \
    json.decoder.scanstring  # type: ignore[attr-defined]  # typeshed leaves it out


class ReaderBase:
    __slots__ = ("n", "notes", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.notes: list[_Note] = []

    def note(self, code: str, message: str, start: int, end: int, *,
             related: _Related = (), fixes: _Fixes = ()) -> None:
        self.notes.append((code, message, start, end, related, fixes))

    def _check_keys(self, pairs: list[tuple[Node, Node]]) -> None:
        named = cast("list[tuple[Scalar, Node]]", pairs)  # every name here is a string Scalar
        if len({k.text for k, _ in named}) == len(named):
            return
        first: dict[str, Scalar] = {}
        for key, _ in named:
            earlier = first.setdefault(key.text, key)
            if earlier is key:
                continue
            shown = _shown(key.text)
            self.note(DUPLICATE_KEY,
                      f"duplicate key '{shown}': JSON readers disagree on which value counts "
                      f"(Python's json keeps the last, evalyaml checks the first); keep one",
                      key.start, key.end,
                      related=((earlier.start, earlier.end, f"first '{shown}' is here"),))

    def _trailing_comma(self, comma: int, closer: str) -> None:
        self.note(TRAILING_COMMA, f"trailing comma before '{closer}': JSON allows no comma "
                  "after the last item", comma, comma + 1,
                  fixes=(("Remove the trailing comma", comma, comma + 1, ""),))

    def _extra_data(self, pos: int) -> None:
        self.note(SYNTAX, f"expected the end of the input after the JSON value, found "
                  f"{describe(self.text, pos)}; a JSON text holds exactly one value",
                  pos, min(pos + 1, self.n))

    def _bad_closer(self, pos: int, stack: list[Mapping | Sequence], *, in_map: bool
                    ) -> NoReturn:
        opener = stack[-1]
        expected = "',' or '}' after a member" if in_map else "',' or ']' after an item"
        raise _Stop(pos, pos + 1, f"expected {expected}, found {describe(self.text, pos)}",
                    related=((opener.start, opener.start + 1,
                              f"the {'object' if in_map else 'array'} starts here"),))

    def skip(self, pos: int) -> int:
        """Past JSON whitespace, and past comments and other whitespace, which are reported."""
        text, n = self.text, self.n
        while pos < n:
            char = text[pos]
            if char in _JSON_WS:
                pos += 1
            elif char == "/" and text.startswith("//", pos):
                end = pos + 2
                while end < n and text[end] not in "\r\n":
                    end += 1
                self._comment(pos, end)
                pos = end
            elif char == "/" and text.startswith("/*", pos):
                close = text.find("*/", pos + 2)
                if close < 0:
                    raise _Stop(pos, pos + 2, "this comment is never closed: expected '*/' "
                                "(and JSON allows no comments)")
                self._comment(pos, close + 2)
                pos = close + 2
            elif char.isspace() or char in _OTHER_SPACE:
                end = pos + 1
                while end < n and (text[end].isspace() or text[end] in _OTHER_SPACE) \
                        and text[end] not in _JSON_WS:
                    end += 1
                self.note(SYNTAX, f"{describe(text, pos)} is not whitespace in JSON; only "
                          "spaces, tabs and line breaks may separate tokens", pos, end)
                pos = end
            else:
                break
        return pos

    def _comment(self, start: int, end: int) -> None:
        self.note(SYNTAX, "JSON allows no comments; remove it (or move the note into a "
                  "string value)", start, end)

    def _after_slow(self, pos: int, stack: list[Mapping | Sequence], *, in_map: bool
                    ) -> tuple[int, int]:
        """After an item or member, where the fast pattern found no ',' or closer: returns the
        state and offset to go on from, or raises."""
        value_end = pos
        pos = self.skip(pos)
        text, n = self.text, self.n
        if pos > value_end and pos < n and text[pos] in ",]}":
            return (4 if in_map else 2), pos  # past comments: the fast pattern again
        self._check_number_tail(value_end, pos)
        opener = stack[-1]
        what = "object" if in_map else "array"
        expected = "',' or '}' after a member" if in_map else "',' or ']' after an item"
        if pos < n and (text[pos] == '"' if in_map else self._value_starts(pos)):
            # Two well-formed items in a row: a comma is missing, and where is unambiguous.
            self.note(SYNTAX, f"expected {expected}, found {describe(text, pos)}: a ',' is "
                      "missing", value_end, value_end,
                      fixes=(("Insert the missing ','", value_end, value_end, ","),))
            return (1 if in_map else 0), pos
        raise _Stop(pos, min(pos + 1, n), f"expected {expected}, found {describe(text, pos)}",
                    related=((opener.start, opener.start + 1, f"the {what} starts here"),))

    def _value_starts(self, pos: int) -> bool:
        """Whether a well-formed value starts at `pos`: then a missing ',' or ':' before it is
        the only reading, and the parse can go on."""
        m = _VALUE.match(self.text, pos)
        return m is not None and m.lastindex != 10  # not ']'

    def _end(self, pos: int) -> None:
        """After the root: only whitespace may follow."""
        value_end = pos
        pos = self.skip(pos)
        if pos < self.n:
            self._check_number_tail(value_end, pos)
            self._extra_data(pos)

    def _check_number_tail(self, value_end: int, pos: int) -> None:
        """`0x1F`, `1_000`, `1e`: a number the fast patterns stopped short of."""
        text = self.text
        if pos != value_end or pos >= self.n or not text[pos - 1].isdigit():
            return
        tail = _tail(text, pos)
        if tail == pos:
            return
        start = pos - 1
        while start > 0 and text[start - 1] in "0123456789.eE+-":
            start -= 1
        raise _Stop(pos, pos + 1, f"invalid number '{_shown(text[start:tail])}': a JSON number "
                    "is decimal digits with an optional '-', fraction and exponent")

    def _colon_slow(self, pos: int, key: Scalar) -> tuple[int, int]:
        pos = self.skip(pos)
        text = self.text
        if pos < self.n and text[pos] == ":":
            return 0, pos + 1
        found = describe(text, pos)
        if self._value_starts(pos):
            self.note(SYNTAX, f"expected ':' after the member name, found {found}: a ':' is "
                      "missing", key.end, key.end,
                      fixes=(("Insert the missing ':'", key.end, key.end, ":"),))
            return 0, pos
        raise _Stop(pos, min(pos + 1, self.n), f"expected ':' after the member name, found "
                    f"{found}")

    def _key_slow(self, pos: int, comma: int) -> tuple[int, int, Scalar | None]:
        """Where a member name or '}' must come: returns (state, pos, the name if read)."""
        start = pos
        pos = self.skip(pos)
        if pos > start:
            return 1, pos, None  # the fast pattern gets another go
        text = self.text
        found = describe(text, pos)
        if pos < self.n and text[pos] == "'":
            key = self._quoted(pos, "'")
            self.note(SYNTAX, "member names must be in double quotes, not single quotes",
                      key.start, key.end)
            return 3, key.end, key
        word = _WORD.match(text, pos)
        if word is not None and _COLON.match(text, word.end()):
            name = word.group()
            self.note(SYNTAX, f"member names must be strings in double quotes: write "
                      f"'\"{name}\"'", pos, word.end(),
                      fixes=(("Quote the name", pos, word.end(), f'"{name}"'),))
            return 3, word.end(), Scalar(STR, pos, word.end(), name, '"')
        expected = "a member name in double quotes" if comma >= 0 else \
            "a member name in double quotes or '}'"
        raise _Stop(pos, min(pos + 1, self.n), f"expected {expected}, found {found}")

    def _value_slow(self, pos: int, stack: list[Mapping | Sequence], comma: int
                    ) -> tuple[int, int, Node | None]:
        """Where a value must come: returns (state, pos, the value if read)."""
        start = pos
        pos = self.skip(pos)
        if pos > start:
            return 0, pos, None
        text, n = self.text, self.n
        if pos >= n:
            if len(stack) == 1:
                raise _Stop(pos, pos, "expected a JSON value, found the end of the input"
                            + (" (the text is empty)" if not text.strip() else ""))
            opener = stack[-1]
            what = "object" if isinstance(opener, Mapping) else "array"
            raise _Stop(pos, pos, "expected a value, found the end of the input",
                        related=((opener.start, opener.start + 1, f"the {what} starts here"),))
        char = text[pos]
        if char == "'":
            node = self._quoted(pos, "'")
            self.note(SYNTAX, "strings must be in double quotes, not single quotes",
                      node.start, node.end)
            return 2, node.end, node
        non_finite = _NON_FINITE.match(text, pos)
        if non_finite is not None and _tail(text, non_finite.end()) == non_finite.end():
            raw = non_finite.group()
            self.note(NON_FINITE, f"'{raw}' is not a JSON number: JSON has no NaN or infinity "
                      "(Python's json reads them, most other readers refuse); write null or a "
                      "string", pos, non_finite.end())
            return 2, non_finite.end(), Scalar(FLOAT, pos, non_finite.end(), raw, "")
        number = _LAX_NUMBER.match(text, pos)
        if number is not None or char in "-+":
            end = number.end() if number is not None else pos + 1
            tail = _tail(text, end)
            raw = text[pos:tail]
            if number is None or tail > end:
                bad = end if number is not None else pos + 1
                raise _Stop(bad, min(bad + 1, n), f"invalid number '{_shown(raw)}': a JSON "
                            "number is decimal digits with an optional '-', fraction and "
                            "exponent")
            self.note(SYNTAX, f"invalid number '{raw}': {_lax_number_problem(raw)}; Python's "
                      "json and other strict readers refuse it", pos, end)
            tag = FLOAT if any(c in raw for c in ".eE") else INT
            return 2, end, Scalar(tag, pos, end, raw, "")
        word = _WORD.match(text, pos)
        hint = ""
        if word is not None:
            literal = _LITERAL_HINTS.get(word.group())
            hint = f" (JSON writes this {literal})" if literal else \
                " (strings must be in double quotes)"
        raise _Stop(pos, pos + 1, f"expected a value, found {describe(text, pos)}{hint}")

    def _string(self, start: int) -> Scalar:
        """A double-quoted string at `start` that the fast pattern did not take."""
        text = self.text
        try:
            value, end = _scanstring(text, start + 1, True)
        except ValueError:
            return self._quoted(start, '"')
        if _SURROGATE.search(value):
            return self._quoted(start, '"')  # again, to place the lone surrogates
        return Scalar(STR, start, end, value, '"')

    def _quoted(self, start: int, quote: str) -> Scalar:
        """Decode a string by hand, reporting each problem at its place and keeping going."""
        text, n = self.text, self.n
        run = _STRING_RUN[quote].match
        parts: list[str] = []
        pos = start + 1
        while True:
            m = run(text, pos)
            if m is not None:
                parts.append(m.group())
                pos = m.end()
            if pos >= n or text[pos] in "\r\n":
                raise _Stop(pos, pos, f"this string is not closed: expected '{quote}' before "
                            f"{describe(text, pos)}", related=((start, start + 1,
                                                                "the string starts here"),))
            char = text[pos]
            if char == quote:
                return Scalar(STR, start, pos + 1, "".join(parts), '"')
            if char == "\\":
                pos = self._escape(pos, quote, parts)
            elif char < " ":
                self.note(SYNTAX, f"{describe(text, pos)} must be escaped inside a string "
                          f"(write {_escaped(char)})", pos, pos + 1,
                          fixes=(("Escape the character", pos, pos + 1, _escaped(char)),))
                parts.append(char)
                pos += 1
            else:  # a lone surrogate in the text itself
                self.note(SYNTAX, f"lone surrogate U+{ord(char):04X} in a string: it is not a "
                          "Unicode character and cannot be written as UTF-8", pos, pos + 1)
                parts.append(char)
                pos += 1

    def _escape(self, pos: int, quote: str, parts: list[str]) -> int:
        """The escape at `pos` (a backslash): appends its value, returns the offset after it."""
        text = self.text
        if pos + 1 >= self.n or text[pos + 1] in "\r\n":
            return pos + 1  # the caller reports the unclosed string
        esc = text[pos + 1]
        simple = _ESCAPES.get(esc)
        if simple is not None:
            parts.append(simple)
            return pos + 2
        if esc == quote:  # \' inside a single-quoted string, which is reported as a whole
            parts.append(esc)
            return pos + 2
        if esc != "u":
            shown = describe(text, pos + 1) if not esc.isprintable() else f"'\\{esc}'"
            self.note(SYNTAX, f"invalid escape {shown}: JSON knows \\\" \\\\ \\/ \\b \\f \\n "
                      "\\r \\t and \\uXXXX; write '\\\\' for a backslash", pos, pos + 2)
            parts.append(text[pos:pos + 2])  # kept as written
            return pos + 2
        if not _HEX4.match(text, pos + 2):
            end = pos + 2
            while end < pos + 6 and end < self.n and text[end] in "0123456789abcdefABCDEF":
                end += 1
            self.note(SYNTAX, f"invalid escape '{text[pos:end]}': \\u needs four hexadecimal "
                      "digits", pos, end)
            parts.append(text[pos:end])
            return end
        code = int(text[pos + 2:pos + 6], 16)
        if 0xD800 <= code <= 0xDBFF and text.startswith("\\u", pos + 6) \
                and _HEX4.match(text, pos + 8):
            low = int(text[pos + 8:pos + 12], 16)
            if 0xDC00 <= low <= 0xDFFF:
                parts.append(chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)))
                return pos + 12
        if 0xD800 <= code <= 0xDFFF:
            advice = "pair it with a low surrogate" if code <= 0xDBFF else \
                "it must follow a high surrogate"
            self.note(SYNTAX, f"lone surrogate escape '{text[pos:pos + 6]}': it is not a "
                      f"Unicode character, so the value cannot be written as UTF-8; {advice} "
                      "or write the character itself", pos, pos + 6)
        parts.append(chr(code))
        return pos + 6


