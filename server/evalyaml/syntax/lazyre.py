"""`lazy_re`: a module-level regular expression compiled at its first use, not at import.

Why: a one-file `evalyaml check` imports every format's registration (detection, codes) and
compiled about 120 patterns at import, 60-odd of which it never used (another format's
detection, a fix's title, a suppression comment): 10 ms of its start (issue #27). The object
stands in for the `re.Pattern` (mypy sees one); the first attribute read compiles the pattern
and keeps its bound methods on the instance, so later calls cost what a compiled pattern's do.
Only method calls and the `pattern` / `flags` / `groups` / `groupindex` attributes are
supported: such an object is not an `re.Pattern` instance for `isinstance` or for the `re`
module's functions, so those are not given one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

_METHODS = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split",
            "scanner")


class _LazyPattern:
    def __init__(self, pattern: str, flags: int) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:
        """Reached only while the pattern is not compiled (or for a name a pattern lacks)."""
        compiled = re.compile(*self._source)
        attributes = self.__dict__
        for method in _METHODS:
            attributes[method] = getattr(compiled, method)
        attributes.update(pattern=compiled.pattern, flags=compiled.flags,
                          groups=compiled.groups, groupindex=compiled.groupindex)
        return getattr(compiled, name)


if TYPE_CHECKING:
    def lazy_re(pattern: str, flags: int = 0) -> re.Pattern[str]:
        """`re.compile(pattern, flags)`, compiled at first use."""
        ...
else:
    def lazy_re(pattern: str, flags: int = 0) -> _LazyPattern:
        """`re.compile(pattern, flags)`, compiled at first use."""
        return _LazyPattern(pattern, flags)
