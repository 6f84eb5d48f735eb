"""Whether `new RegExp(source)` would throw, decided without a JavaScript engine.

`type: regex` values are JavaScript regular expressions. Python's `re` rejects valid ones
(named groups `(?<name>...)`, `\\k<name>`, `\\d` inside classes is fine in both) and accepts
some JavaScript refuses, so the source is translated for the constructs that differ and only the
errors both engines share are reported: an unbalanced parenthesis, an unterminated class, a
quantifier with nothing to repeat, a reversed class range. Anything else stays silent: a false
"invalid regex" would be worse than a missed one.
"""

from __future__ import annotations

import re

_SHARED_ERRORS = ("missing ), unterminated subpattern", "unbalanced parenthesis",
                  "nothing to repeat", "multiple repeat", "unterminated character set",
                  "bad character range")


def _translate(source: str) -> str:
    out: list[str] = []
    i = 0
    in_class = False
    while i < len(source):
        char = source[i]
        if char == "\\" and i + 1 < len(source):
            nxt = source[i + 1]
            if not in_class and nxt == "k" and source.startswith("<", i + 2):
                end = source.find(">", i + 3)
                if end > 0:
                    out.append(f"(?P={source[i + 3:end]})")
                    i = end + 1
                    continue
            if nxt in "dDwWsSbBnrtfv0\\/^$.*+?()[]{}|-" or nxt in "uxc":
                out.append(source[i:i + 2])
            else:
                out.append(re.escape(nxt))  # an identity escape: `\e`, `\y` mean the letter
            i += 2
            continue
        if in_class:
            if char == "]":
                in_class = False
            out.append(char)
        elif char == "[":
            in_class = True
            out.append(char)
            if source.startswith("]", i + 1) or source.startswith("^]", i + 1):
                # `[]` matches nothing and `[^]` anything in JavaScript; Python reads on.
                skip = 2 if source[i + 1] == "]" else 3
                out[-1] = "(?!)" if skip == 2 else "[\\s\\S]"
                in_class = False
                i += skip
                continue
        elif char == "(" and source.startswith("(?<", i) and \
                not source.startswith(("(?<=", "(?<!"), i):
            out.append("(?P<")
            i += 3
            continue
        else:
            out.append(char)
        i += 1
    return "".join(out)


def js_regex_error(source: str) -> str | None:
    """Why JavaScript's RegExp would refuse `source` (as Python words it), or None."""
    try:
        re.compile(_translate(source))
    except re.error as err:
        message = str(err.msg)
        if any(message.startswith(shared) for shared in _SHARED_ERRORS):
            return message
        return None
    except (RecursionError, OverflowError, ValueError):
        return None
    return None
