"""The JSON reader's tokens: the per-state patterns of the fast path, the characters the
slow path names in its messages, and the hard stop. Shared by `json` (the loop) and
`json_slow` (what explains a token the fast path did not take)."""

from __future__ import annotations

import re
import unicodedata

_CORE = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL, MAP, SEQ = (
    _CORE + name for name in ("str", "int", "float", "bool", "null", "map", "seq"))

SYNTAX, DUPLICATE_KEY, NON_FINITE, TRAILING_COMMA, NESTING = (
    "EY110", "EY111", "EY112", "EY113", "EY105")

# --- tokens -------------------------------------------------------------------------------------
# Each state has one pattern that takes the whitespace before a token and as much as it can of
# the common case in one C call: in an object, ', "name": value' for a scalar value; in an
# array, ', value'. Whatever a pattern does not take goes to a slow path that explains it.
_WS = r"[ \t\n\r]*"
_BODY = r'[^"\\\x00-\x1f\ud800-\udfff]*'  # a string needing no decoding and no check
_INT = r"-?(?:0|[1-9][0-9]*)"
_NUMBER_END = r"(?![.eE0-9])"
# Six groups for a scalar: string, int, float, true, false, null.
_SCALAR = (rf'"({_BODY})"|({_INT}){_NUMBER_END}'
           rf"|({_INT}(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?){_NUMBER_END}|(true)|(false)|(null)")
_NAME = rf'"({_BODY})":({_WS})'  # the space after the colon places the name
_OPEN = r"(\{)|(\[)"
# Where a value must come: 1-6 a scalar, 7 {, 8 [, 9 a string to decode, 10 ] (an empty
# array, or after a trailing comma).
_VALUE = re.compile(_WS + rf'(?:{_SCALAR}|{_OPEN}|(")|(\]))')
# After an array item: 1-6 ', scalar', 7 ', {', 8 ', [', 9 ',', 10 ], 11 }.
_ITEM_NEXT = re.compile(_WS + rf"(?:,{_WS}(?:{_SCALAR}|{_OPEN})|(,)|(\])|(\}}))")
# The two member patterns agree on 1-11: 1 a name, 2 the space after its colon, then its value
# when it is a scalar (3-8) or opens a container (9 {, 10 [); 11 a name and colon, before a
# value of another kind.
# Where a member must come (after '{' or ','): 12 } (an empty object, or after a trailing
# comma), 13 a name without its colon, 14 a name to decode.
_MEMBER = re.compile(
    _WS + rf'(?:{_NAME}(?:{_SCALAR}|{_OPEN})|"({_BODY})":|(\}})|"({_BODY})"|("))')
# After a member: 12 ',', 13 }, 14 ].
_MEMBER_NEXT = re.compile(
    _WS + rf'(?:,{_WS}{_NAME}(?:{_SCALAR}|{_OPEN})|,{_WS}"({_BODY})":|(,)|(\}})|(\]))')
_COLON = re.compile(_WS + ":")
_TAGS = (STR, INT, FLOAT, BOOL, BOOL, NULL)  # by scalar group

_SURROGATE = re.compile("[\ud800-\udfff]")
_LAX_NUMBER = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_NON_FINITE = re.compile(r"[-+]?(?:NaN|Infinity)")
_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_WORD_TAIL = re.compile(r"[A-Za-z0-9_$.+-]*")
_STRING_RUN = {'"': re.compile(r'[^"\\\x00-\x1f\ud800-\udfff]+'),
               "'": re.compile(r"[^'\\\x00-\x1f\ud800-\udfff]+")}
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r",
            "t": "\t"}
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_JSON_WS = frozenset(" \t\n\r")
_OTHER_SPACE = frozenset("\ufeff\u200b\u2060\u180e")
_CONTROL_NAMES = {"\t": "tab", "\x0b": "vertical tab", "\x0c": "form feed", "\x00": "NUL",
                  "\x85": "NEXT LINE"}
_LITERAL_HINTS = {"True": "true", "False": "false", "None": "null", "nil": "null",
                  "undefined": "null", "TRUE": "true", "FALSE": "false", "NULL": "null"}


_Related = tuple[tuple[int, int, str], ...]  # (start, end, message)
_Fixes = tuple[tuple[str, int, int, str], ...]  # (title, start, end, new text)
_Note = tuple[str, str, int, int, _Related, _Fixes]  # a finding in offsets: code, message, span


class _Stop(Exception):
    """A hard syntax error: the parse ends with this one finding."""

    def __init__(self, start: int, end: int, message: str, *,
                 related: _Related = (), code: str = SYNTAX) -> None:
        super().__init__(message)
        self.code = code
        self.start = start
        self.end = end
        self.message = message
        self.related = related



def describe(text: str, pos: int) -> str:
    """The character at `pos` as a message shows it."""
    if pos >= len(text):
        return "the end of the input"
    char = text[pos]
    if char in "\n\r":
        return "the end of the line"
    if char.isprintable() and not char.isspace():
        word = _WORD.match(text, pos)
        shown = word.group() if word and len(word.group()) <= 20 else char
        return f"'{shown}'"
    name = _CONTROL_NAMES.get(char) or unicodedata.name(char, "a control character")
    return f"U+{ord(char):04X} ({name})"



def _lax_number_problem(raw: str) -> str:
    digits = raw.lstrip("+-")
    if raw.startswith("+"):
        return "a JSON number cannot start with '+'"
    if digits.startswith("."):
        return "a JSON number needs a digit before '.'"
    mantissa = digits.split("e")[0].split("E")[0]
    if mantissa.endswith("."):
        return "a JSON number needs a digit after '.'"
    if len(mantissa) > 1 and mantissa[0] == "0" and mantissa[1] != ".":
        return "a JSON number cannot have leading zeros"
    return "not a JSON number"  # pragma: no cover - _LAX_NUMBER admits nothing else


def _tail(text: str, pos: int) -> int:
    """The end of the letters, digits and signs that stick to a token ending at `pos`."""
    m = _WORD_TAIL.match(text, pos)
    return m.end() if m is not None else pos


def _escaped(char: str) -> str:
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
    return named.get(char, f"\\u{ord(char):04x}")


def _shown(text: str) -> str:
    """A value short enough for a message."""
    return text if len(text) <= 60 else text[:57] + "..."

