"""Consumption-manifest pins, read with Apastra's resolver grammar (`resolver/chain.py`,
`resolver/git_ref.py`); nothing is ever fetched.

`sha256:`, `https://`, `oci://`, `npm:`, `pypi:`, `github-release:` go to the packaged
resolver; `git+<url>#<ref>` and `git+<url>#semver:<range>` to a remote; `semver:<range>` to the
local tags; anything else is a tag or commit. A range is `^X.Y.Z`, `~X.Y.Z` or `X.Y.Z` (a `v`
allowed): `parse_version` needs all three numbers, so `semver:^1.2` matches no tag ever.
"""

from __future__ import annotations

import re

_PACKAGED = ("sha256:", "https://", "oci://", "npm:", "pypi:", "github-release:")
_VERSION = re.compile(r"v*(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
                      r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?")
_SHA = re.compile(r"sha256:[a-f0-9]{64}")


def _range_problem(range_text: str) -> str | None:
    body = range_text.lstrip("v")
    if body[:1] in ("^", "~"):
        body = body[1:]
    if _VERSION.fullmatch(body) is None:
        return (f"the semver range '{range_text}' matches no tag: Apastra's resolver reads "
                "only ^X.Y.Z, ~X.Y.Z or X.Y.Z, all three numbers written")
    return None


def problem(pin: str) -> tuple[str, int, int] | None:
    """What is wrong with a pin, and the part of it (start, end offsets) to underline."""
    if not pin.strip():
        return "an empty pin resolves nothing", 0, len(pin)
    if pin != pin.strip():
        return "the pin has spaces around it, which the resolver keeps", 0, len(pin)
    if pin.startswith("sha256:") and _SHA.fullmatch(pin) is None:
        return "a sha256: pin is 'sha256:' and 64 lowercase hex digits", 0, len(pin)
    if pin.startswith(_PACKAGED):
        rest = pin.split(":", 1)[1].lstrip("/")
        if not rest:
            return "the packaged pin names no artifact", 0, len(pin)
        return None
    if pin.startswith("git+"):
        if "#" not in pin:
            return ("a git+ pin needs '#<ref>' (git+<url>#<tag> or #semver:<range>): "
                    "the resolver splits on '#'", 0, len(pin))
        url, ref = pin[4:].split("#", 1)
        ref_start = 4 + len(url) + 1
        if not url:
            return "the git+ pin names no repository URL", 0, ref_start - 1
        if not ref:
            return "the ref after '#' is empty", ref_start - 1, len(pin)
        if ref.startswith("semver:"):
            found = _range_problem(ref[len("semver:"):])
            if found:
                return found, ref_start, len(pin)
        return None
    if pin.startswith("semver:"):
        found = _range_problem(pin[len("semver:"):])
        if found:
            return found, 0, len(pin)
    return None


def unsafe_prompt_id(prompt_id: str) -> str | None:
    """`resolver/workspace.validate_prompt_id`: what makes the resolver refuse an id."""
    if not prompt_id.strip():
        return "an empty prompt id"
    if "\\" in prompt_id:
        return "a backslash"
    if prompt_id.startswith("/"):
        return "an absolute path"
    parts = prompt_id.split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "an empty, '.' or '..' path segment"
    return None
