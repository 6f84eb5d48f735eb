"""Pin matching (DESIGN §3), independent of where definitions come from.

`@1.2.3` is exact; `@1.2` is the highest released `1.2.x`; `@1` the highest released `1.x.y`;
no pin is the highest released version. Pre-releases only match an exact pin, because a
`2.0.0-beta` must never be picked up silently by a case pinned to `@2`. Ordering is the
`semver` package's, so `1.10.0` sorts above `1.9.0` and `1.0.0-rc.2` above `1.0.0-rc.1`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from evalyaml.core.model import Definition, Pin, Reference
from evalyaml.syntax.record import record

if TYPE_CHECKING:
    from semver import Version


class Status(Enum):
    RESOLVED = "resolved"
    UNKNOWN_ID = "unknown-id"  # EY301
    NO_MATCH = "no-match"  # EY302
    MALFORMED = "malformed"  # EY300, reported by the core


@record
class Resolution:
    """What a reference points at, or why it points at nothing.

    `candidates` are every definition of the id, newest first (duplicates included), so the
    language server can offer them in completion and the CLI can list them in messages.
    `newer` is the newest released version above the target's, when there is one (EY304).
    """

    reference: Reference
    status: Status
    path: Path | None = None
    definition: Definition | None = None
    candidates: tuple[tuple[Path, Definition], ...] = ()
    newer: str | None = None

    @property
    def ok(self) -> bool:
        return self.status is Status.RESOLVED


@lru_cache(maxsize=65536)
def parse_version(text: str) -> Version | None:
    from semver import Version  # with the first version met, not with every check

    try:
        return Version.parse(text)
    except (ValueError, TypeError):
        return None


def newest_first(versions: Iterable[str]) -> list[str]:
    """Valid semantic versions, highest first; the order every listing uses."""
    parsed = [(v, p) for v in versions if (p := parse_version(v)) is not None]
    parsed.sort(key=lambda vp: vp[1], reverse=True)
    return [v for v, _ in parsed]


def matches(pin: Pin | None, version: Version) -> bool:
    if pin is None:
        return version.prerelease is None
    if pin.exact:
        from semver import Version

        wanted = Version(pin.major, pin.minor or 0, pin.patch or 0, pin.prerelease)
        return version.compare(wanted) == 0
    if version.prerelease is not None or version.major != pin.major:
        return False
    return pin.minor is None or version.minor == pin.minor


def match_pin(pin: Pin | None, versions: Sequence[str]) -> str | None:
    """The version a pin selects among `versions` (any order), or None."""
    best: tuple[Version, str] | None = None
    for text in versions:
        version = parse_version(text)
        if version is None or not matches(pin, version):
            continue
        if best is None or version > best[0]:
            best = (version, text)
    return best[1] if best else None


def newer_than(version: str, versions: Iterable[str]) -> str | None:
    """The newest released version above `version`, if any."""
    current = parse_version(version)
    if current is None:
        return None
    top: tuple[Version, str] | None = None
    for text in versions:
        candidate = parse_version(text)
        if candidate is None or candidate.prerelease is not None or candidate <= current:
            continue
        if top is None or candidate > top[0]:
            top = (candidate, text)
    return top[1] if top else None


def resolve_among(reference: Reference, candidates: Sequence[tuple[Path, Definition]]
                  ) -> Resolution:
    """Resolve one reference against the definitions of its id (any order).

    With two definitions of the selected version (an EY305 duplicate), the first by path wins
    so that the answer is stable across runs.
    """
    if reference.id is None:
        return Resolution(reference, Status.MALFORMED)
    if not candidates:
        return Resolution(reference, Status.UNKNOWN_ID)
    if not reference.target.versioned:  # a name alone: the first by path (EY305 names the rest)
        ordered = sorted(candidates, key=lambda pd: str(pd[0]))
        return Resolution(reference, Status.RESOLVED, ordered[0][0], ordered[0][1],
                          tuple(ordered))
    ordered = sort_newest_first(candidates)
    versions = [d.version for _, d in ordered if d.version is not None]
    chosen = match_pin(reference.pin, versions)
    if chosen is None:
        return Resolution(reference, Status.NO_MATCH, candidates=tuple(ordered))
    target = min(((p, d) for p, d in ordered if d.version == chosen), key=lambda pd: str(pd[0]))
    newer = newer_than(chosen, versions) if reference.pin is not None else None
    return Resolution(reference, Status.RESOLVED, target[0], target[1], tuple(ordered), newer)


def sort_newest_first(items: Iterable[tuple[Path, Definition]]) -> list[tuple[Path, Definition]]:
    """Definitions by version, highest first; invalid versions last; ties by path. (Files
    whose definitions carry no version never import semver.)"""
    listed = sorted(items, key=lambda i: str(i[0]))
    valid: list[tuple[Version, tuple[Path, Definition]]] = []
    invalid: list[tuple[Path, Definition]] = []
    for item in listed:
        version = parse_version(item[1].version) if item[1].version else None
        if version is None:
            invalid.append(item)
        else:
            valid.append((version, item))
    valid.sort(key=lambda vi: vi[0], reverse=True)  # stable: ties stay in path order
    return [item for _, item in valid] + invalid
