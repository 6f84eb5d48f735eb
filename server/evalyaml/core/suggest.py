"""Did-you-mean: rank known names by how likely the author meant them.

Edit distance alone ranks `expected_tool` and `expected_facts` too closely for short words, so the
ranking also rewards names that are equal once case and separators are ignored
(`expectedFacts`, `expected-facts`) and a shared prefix. Far-off names get no suggestion: a
suggestion that is wrong teaches the author to ignore all of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache


def _normalize(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "").replace(" ", "")


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal-string-alignment distance (a swap of neighbours costs 1), stopping past `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        best = current[0]
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, previous2[j - 2] + 1)
            current[j] = value
            best = min(best, value)
        if best > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[-1]


def _allowed_distance(name: str) -> int:
    length = len(name)
    if length <= 2:
        return 0
    if length <= 4:
        return 1
    if length <= 9:
        return 2
    return 3


def rank(name: str, candidates: Iterable[str]) -> list[str]:
    """Candidates close enough to `name` to suggest, best first."""
    return list(_rank(name, frozenset(candidates)))


@lru_cache(maxsize=8192)
def _rank(name: str, candidates: frozenset[str]) -> tuple[str, ...]:
    """Cached: a dataset repeats the same unknown keys in case after case."""
    normalized = _normalize(name)
    scored: list[tuple[int, int, int, str]] = []
    for candidate in candidates:
        if candidate == name:
            continue
        if _normalize(candidate) == normalized:
            scored.append((0, 0, 0, candidate))
            continue
        limit = _allowed_distance(max(name, candidate, key=len))
        distance = edit_distance(name.lower(), candidate.lower(), limit)
        if distance <= limit:
            prefix = len(_common_prefix(name.lower(), candidate.lower()))
            scored.append((1, distance, -prefix, candidate))
    scored.sort()
    return tuple(candidate for *_, candidate in scored)


def best(name: str, candidates: Iterable[str]) -> str | None:
    ranked = rank(name, candidates)
    return ranked[0] if ranked else None


ABBREVIATION_SHARE = 0.6
"""A value may be a written-out or cut-short form of an allowed one (`weighted_average` for
`weighted_avg`): separators ignored, the shorter begins as the longer
does, its letters appear in the longer in order, and it covers at least this share of it."""


def best_value(value: str, allowed: Iterable[str]) -> str | None:
    """Did-you-mean for a value of a closed set: `best`, else an allowed value that is the
    written one's leading words (`expected_answer` for `expected`) or that it abbreviates or
    spells out. Only for values: a key in an open object may well extend a
    known key on purpose (`expected_output_format`)."""
    found = best(value, allowed)
    if found is not None:
        return found
    written = _normalize(value)
    scored: list[tuple[int, str]] = []
    words = _words(value)
    for candidate in allowed:
        theirs = _words(candidate)
        shorter, longer = sorted((words, theirs), key=len)
        if shorter and len(shorter[0]) >= 4 and len(shorter) < len(longer) and \
                longer[:len(shorter)] == shorter:
            scored.append((0, candidate))  # `expected_answer` for `expected`: one word more
            continue
        other = _normalize(candidate)
        short, long = sorted((written, other), key=len)
        if len(short) >= 4 and long[:3] == short[:3] and _in_order(short, long) and \
                len(short) >= ABBREVIATION_SHARE * len(long):
            scored.append((len(long) - len(short), candidate))
    return min(scored)[1] if scored else None


def _words(name: str) -> list[str]:
    return [word for word in re.split(r"[_\-\s.]+", name.lower()) if word]


def _in_order(short: str, long: str) -> bool:
    """Whether every letter of `short` appears in `long`, in order (`avg` in `average`)."""
    letters = iter(long)
    return all(letter in letters for letter in short)


def _common_prefix(a: str, b: str) -> str:
    n = 0
    for ca, cb in zip(a, b, strict=False):
        if ca != cb:
            break
        n += 1
    return a[:n]


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """A sentence ending for messages: "; did you mean 'x'?" or ""."""
    choice = best(name, candidates)
    return f"; did you mean '{choice}'?" if choice else ""
