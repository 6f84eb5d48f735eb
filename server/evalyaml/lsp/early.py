"""Work on a large document that starts before the server can take it.

An editor restoring its tabs sends their `didOpen` right after `initialized`, while the server
is still importing pygls and lsprotocol (about a second, on one core: the bootstrap answers
`initialize` meanwhile, `bootstrap.serve_stdio`). The other core has nothing to do then. So the
bootstrap shows this module (a `bootstrap.Peek`) each message it reads in that second. A
workspace with a large YAML file near its roots starts the case worker at `initialize`
(`_holds_large_yaml`: a spawned worker needs half a second to import and warm up, which the
indexer would start for that file anyway, only later); a large message's header starts it
too (`coming`), and a `didOpen` of a contract dataset
large enough for it (`LARGE_TEXT`) sends it the document's cases (`message`,
`CasePool.prefetch`), from the end, as the engine would. When the engine
gets the document it runs its usual analysis; the shares the worker has done or started by then
come from the worker, the rest are drawn from both ends as always (`CasePool.map`).

Nothing here decides a finding: the engine analyses the document as it would have, and takes
the worker's results only for the very case texts, read with the same options. A guess that
turns out wrong (the client sent other settings, a workspace configuration names bundles) costs
the worker some work and nothing else.

Threads: `coming` and `message` run in the main thread while the import thread imports the
server. So that the two never import the same modules at once, they do nothing that imports
until `prepare`, which the import thread runs first, has imported what they use: evalyaml's
modules and multiprocessing's front (the look at the roots at `initialize` uses `os` only).
Starting the worker still imports a few of multiprocessing's own modules here, which pygls and
lsprotocol never import.
"""

from __future__ import annotations

import gc
import logging
import threading
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

if TYPE_CHECKING:
    from evalyaml.parallel import CasePool

LARGE_TEXT = 1_000_000
"""Characters: a document this large is analysed partly in the case worker (about 1,500
cases); after analysing one, the engine keeps the collector off its results."""

PREPARE_WAIT = 1.0
"""Seconds to wait for `prepare` before letting a document go (the engine still has it)."""

SCAN_ENTRIES = 2_000
"""Directory entries `_holds_large_yaml` reads at most: a few milliseconds of the main thread
while the server is imported, and a tree this size is usually an eval workspace's top."""

SCAN_SECONDS = 0.05
"""And for at most this long: a slow file system (a network mount) must not hold up the
server, which takes its stream once the main thread is done looking."""

SKIPPED = frozenset({"node_modules", "venv", "env", "__pycache__", "build", "dist",
                     "site-packages"})
"""Directories never looked into for a large dataset, nor are those whose name starts with a
dot: the default excludes (`config.DEFAULT_EXCLUDE`), written out because the main thread
imports nothing of evalyaml's while the server is imported."""

log = logging.getLogger(__name__)
_collector_paused = threading.Event()
_prepared = threading.Event()
_expected = threading.Event()  # a large YAML file is in the workspace: start the worker early
_lock = threading.Lock()
_pools: list[CasePool] = []  # the one pool, once made


def case_pool() -> CasePool:
    """The server's one case worker pool: the engine's, and the one started early here."""
    from evalyaml.parallel import CasePool

    with _lock:
        if not _pools:
            _pools.append(CasePool())
        return _pools[0]


def pause_collector() -> None:
    """Turn the cyclic collector off while the server is imported (import thread, first).

    Its young collections among the 100,000 objects the import makes cost 10-15 % of the
    import's CPU (871 -> 767 ms, medians of 12), and the import is what the first diagnostics
    wait for. Turned on again by `resume_collector`, once the first documents are published."""
    if gc.isenabled():
        gc.disable()
        _collector_paused.set()


def resume_collector() -> None:
    """Collect what the import and the first analyses left, freeze what lives on (the server's
    classes and tables: later full collections skip them), and turn the collector on again
    (the indexer thread, when the engine is first idle; later calls do nothing). A full
    collection then takes about 0.2 s, off the first diagnostics' path; freezing without it
    would keep the import's 8 MB of garbage for good."""
    if _collector_paused.is_set():
        _collector_paused.clear()
        gc.collect()
        gc.freeze()
        gc.enable()


def prepare() -> None:
    """Import what `coming` and `message` use (import thread, before the server itself): the
    registry's item hooks are called once on nothing, which loads the rules they lazily load."""
    import concurrent.futures.process  # noqa: F401  (what `CasePool.start` imports)
    import multiprocessing  # noqa: F401

    from evalyaml.core.options import Options
    from evalyaml.formats import ITEM_TEXTS, ITEMS_KEY

    pool = case_pool()
    if _expected.is_set():
        pool.start()  # as early as it can be: the item hooks below take a while to load
    ITEMS_KEY(Options())
    ITEM_TEXTS("questions: []\n", None)
    _prepared.set()
    if _expected.is_set():  # set by `message` after the look above, before `_prepared`
        pool.start()


def coming(length: int) -> None:
    """A message of `length` bytes is on its way: when it is large, start the case worker now,
    so that it is ready when the message is read and parsed (main thread, see above)."""
    if length > LARGE_TEXT and _prepared.wait(PREPARE_WAIT):
        case_pool().start()


def message(message: dict[str, Any]) -> None:
    """Start the case worker for a workspace with a large YAML file, or on a large dataset the
    client opens (main thread, see above)."""
    method, params = message.get("method"), message.get("params")
    if method == "initialize" and isinstance(params, dict):
        if _holds_large_yaml(_roots(params)):
            _expected.set()
            if _prepared.is_set():
                case_pool().start()
        return
    if method != "textDocument/didOpen":
        return
    document = params.get("textDocument") if isinstance(params, dict) else None
    if not isinstance(document, dict):
        return
    text, uri = document.get("text"), document.get("uri")
    if not isinstance(text, str) or len(text) <= LARGE_TEXT or not isinstance(uri, str):
        return
    if not _prepared.wait(PREPARE_WAIT):
        return
    from evalyaml.core.options import Options
    from evalyaml.formats import ITEM_TEXTS

    texts = ITEM_TEXTS(text, _path_of(uri))
    if texts is not None:
        log.debug("sending the case worker the %d cases of %s ahead", len(texts), uri)
        # Default options: an item's findings read only what `ITEMS_KEY` holds of them (not the
        # clock), and `map` takes the worker's results only when that is the same.
        case_pool().prefetch(texts, Options(), owner=uri)


def _path_of(uri: str) -> str | None:
    """A `file:` URI's path (what detection reads of it); None for another scheme."""
    parts = urlsplit(uri)
    return unquote(parts.path) if parts.scheme == "file" else None


def _roots(params: dict[str, Any]) -> list[str]:
    """The workspace's root directories, as `handlers.lifecycle.initialize` takes them from the
    same message (the folders, else the root URI, else the root path), read here from the raw
    JSON: the main thread has no lsprotocol yet."""
    folders = params.get("workspaceFolders")
    paths = [_path_of(f["uri"]) for f in folders
             if isinstance(f, dict) and isinstance(f.get("uri"), str)] \
        if isinstance(folders, list) else []
    uri, root = params.get("rootUri"), params.get("rootPath")
    if not paths and isinstance(uri, str) and uri:
        paths = [_path_of(uri)]
    elif not paths and isinstance(root, str) and root:
        paths = [root]
    return [p for p in paths if p]


def _holds_large_yaml(roots: list[str]) -> bool:
    """Whether a YAML file larger than `LARGE_TEXT` bytes lies among the first `SCAN_ENTRIES`
    entries of the roots, read breadth first (symbolic links not followed) within
    `SCAN_SECONDS`. A guess, both ways: a miss leaves the worker to start as before (at a
    large message, or when the indexer meets a large file), and a large file that is no
    dataset (or one the settings exclude) costs a worker process that waits for work."""
    import os
    import time

    waiting, seen = list(roots), 0
    deadline = time.monotonic() + SCAN_SECONDS
    while waiting and seen < SCAN_ENTRIES and time.monotonic() < deadline:
        folder = waiting.pop(0)
        try:
            with os.scandir(folder) as entries:
                for entry in entries:
                    seen += 1
                    if seen > SCAN_ENTRIES:
                        return False
                    name = entry.name
                    if name.startswith(".") or name in SKIPPED:
                        continue
                    if entry.is_dir(follow_symlinks=False):
                        waiting.append(entry.path)
                    elif name.endswith((".yaml", ".yml")) and \
                            entry.is_file(follow_symlinks=False) and \
                            entry.stat(follow_symlinks=False).st_size > LARGE_TEXT:
                        return True
        except OSError:
            continue
    return False
