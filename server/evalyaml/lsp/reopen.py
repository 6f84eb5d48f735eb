"""What a closed document leaves behind, so that opening it again costs what the first open did.

Closing a document used to drop its case cache and its published fragments, and the index
re-read the file from disk; opening it again then analysed the whole file once more to warm a
new cache (issue #27: 550 ms to re-open a 10,000-case dataset, against 229 ms to open it the
first time). Now the index keeps the buffer's analysis when the disk holds the same text
(`Workspace.close`), and the engine keeps the document's `CaseCache` and `Fragments` here,
keyed by uri and the digest of the text they were made for. A re-open of that very text takes
them back: its diagnostics are the previous payload, and its first edit costs one case.

Bounded: the last `CAPACITY` closed documents only (a 10,000-case cache is tens of MB). Engine
thread only.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from evalyaml.core.incremental import CaseCache
from evalyaml.lsp.publish import Fragments
from evalyaml.workspace.loading import digest_of

CAPACITY = 3


@dataclass(slots=True)
class Kept:
    """A closed document's cache (None when it was never filled) and last fragments."""

    digest: bytes
    cache: CaseCache | None
    fragments: Fragments


class ClosedDocuments:
    """The last few closed documents' caches, by uri (see the module docstring)."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._kept: OrderedDict[str, Kept] = OrderedDict()

    def keep(self, uri: str, text: str, cache: CaseCache | None,
             fragments: Fragments | None) -> None:
        """`cache` and `fragments` were made for exactly `text`, the document's last text."""
        self._kept.pop(uri, None)
        if fragments is None:
            return
        self._kept[uri] = Kept(digest_of(text), cache if cache is not None and cache.used
                               else None, fragments)
        while len(self._kept) > self.capacity:
            self._kept.popitem(last=False)

    def fragments(self, uri: str) -> Fragments | None:
        """The closed document's fragments, for its report as a closed file (same text)."""
        kept = self._kept.get(uri)
        return kept.fragments if kept is not None else None

    def take(self, uri: str, text: str) -> Kept | None:
        """What the document left when closed, if it is opened again with the same text."""
        kept = self._kept.pop(uri, None)
        if kept is None or kept.digest != digest_of(text):
            return None
        return kept

    def __len__(self) -> int:
        return len(self._kept)
