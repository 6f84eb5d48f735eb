"""A full semantic version (`1.2.0`, `1.0.0-rc.1+build.5`) read as text, without the `semver`
package.

Why: importing `semver` loads its command line (`argparse`) and its deprecation helpers
(`inspect`), 15-20 ms of a one-file `evalyaml check` whose contract file pins or declares a
full version (issue #27, start-up), while reading one needs only the grammar. This is the
grammar of `semver.Version.parse` (the SemVer 2.0.0 grammar, ASCII only, nothing after the
last identifier); `tests/core/test_semantic_version.py` holds the two equal. Ordering versions
still goes to `semver` (`workspace/resolve.py`), where it is needed.
"""

from __future__ import annotations

import re
from typing import NamedTuple

_PRERELEASE = r"(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)"
_BUILD = r"[0-9a-zA-Z-]+"
_FULL = re.compile(
    rf"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    rf"(?:-({_PRERELEASE}(?:\.{_PRERELEASE})*))?"
    rf"(?:\+({_BUILD}(?:\.{_BUILD})*))?\Z", re.ASCII)


class FullVersion(NamedTuple):
    major: int
    minor: int
    patch: int
    prerelease: str | None
    build: str | None


def parse_full_version(text: str) -> FullVersion | None:
    """The version `text` spells, or None where `semver.Version.parse` raises."""
    found = _FULL.match(text)
    if found is None:
        return None
    major, minor, patch, prerelease, build = found.groups()
    try:
        return FullVersion(int(major), int(minor), int(patch), prerelease, build)
    except ValueError:  # over Python's 4,300-digit limit for int()
        return None
