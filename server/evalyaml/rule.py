"""`evalyaml rule CODE`: a code's section of docs/diagnostics.md in the terminal, like
`ruff rule`.

The page ships in the wheel (`evalyaml/docs/diagnostics.md`, a link to the checkout's `docs/`),
so the text printed is the very page the diagnostics' links open, installed or not.
"""

from __future__ import annotations

import re
from importlib import resources

from evalyaml.core.codes import CODES
from evalyaml.core.suggest import did_you_mean

_NEXT = re.compile(r"^(?:<a id=|---$|# )", re.MULTILINE)


def diagnostics_page() -> str:
    return resources.files("evalyaml").joinpath("docs/diagnostics.md").read_text("utf-8")


def section(code: str, page: str | None = None) -> str | None:
    """The text of `code`'s section, from its heading to the next section; None without one."""
    text = diagnostics_page() if page is None else page
    anchor = text.find(f'<a id="{code.lower()}"></a>')
    if anchor < 0:
        return None
    start = text.find("\n", anchor) + 1
    following = _NEXT.search(text, start)
    return text[start:following.start() if following else len(text)].strip() + "\n"


def explain(code: str) -> tuple[str, int]:
    """What `evalyaml rule CODE` prints and its exit code (2 for an unknown code)."""
    wanted = code.upper()
    if wanted not in CODES:
        return f"evalyaml: unknown code '{code}'{did_you_mean(wanted, CODES)}\n", 2
    found = section(wanted)
    known = CODES[wanted]
    return (found or f"## {wanted} {known.name}\n\n{known.summary}\n"), 0
