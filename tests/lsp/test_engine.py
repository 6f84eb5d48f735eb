"""The engine thread through its seam (`EngineHost`), with no server and no subprocess: a fake
host whose "event loop" is a queue this test drains, and the real `Diagnostics` as report sink.

What it holds: tasks run before document work, and document work before closed files; a burst
of edits to one document costs one analysis, of the latest text; a report computed for a text
that was replaced before it reached the loop is never published.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from evalyaml.lsp.consistency import Waiters
from evalyaml.lsp.diagnostics import Diagnostics
from evalyaml.lsp.documents import DocumentStore, path_to_uri
from evalyaml.lsp.engine import Engine
from evalyaml.lsp.indexing import ProgressSink
from evalyaml.lsp.positions import Encoding
from evalyaml.lsp.reports import Report

DATASET = "#! kind: dataset\nquestions:\n  - id: q1\n    input: hi\n"


class FakeHost:
    """Both seams of the server: what the engine needs (`EngineHost`) and what delivery needs
    (`diagnostics.Host`). `post` queues work for the loop; `run_posted` is the loop."""

    def __init__(self) -> None:
        self.store = DocumentStore()
        self.encoding = Encoding.UTF16
        self.related_support = True
        self.pull = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self.reports: dict[str, Report] = {}
        self.waiters = Waiters()
        self.engine: Engine | None = None
        self.diagnostics = Diagnostics(self)
        self.posted: queue.Queue[tuple[Callable[..., None], tuple[Any, ...]]] = queue.Queue()
        self.published: list[tuple[str, int | None]] = []
        self.events: list[str] = []  # what the engine did, in order (its thread appends)

    def post(self, fn: Callable[..., None], *args: Any) -> None:
        if args and isinstance(args[0], Report):
            self.events.append(f"report {Path(args[0].uri).name} v{args[0].version}")
        self.posted.put((fn, args))

    def run_posted(self) -> None:
        while not self.posted.empty():
            fn, args = self.posted.get()
            fn(*args)

    def progress_reporter(self, title: str) -> ProgressSink:  # pragma: no cover - no index
        raise AssertionError("no index is built in these tests")

    def supports(self, dotted: str) -> bool:
        return False

    def publish_payload(self, uri: str, payload: bytes, version: int | None) -> None:
        self.published.append((Path(uri).name, version))

    def workspace_diagnostic_refresh(self, params: None, callback: Callable[[None], None]
                                     | None = None) -> Future[None]:  # pragma: no cover
        raise AssertionError("a push client is never asked to pull again")

    def workspace_code_lens_refresh(self, params: None, callback: Callable[[None], None]
                                    | None = None) -> Future[None]:  # pragma: no cover
        raise AssertionError("no code lens refresh without support")

    # ---- editor actions
    def open(self, path: Path, text: str) -> str:
        uri = path_to_uri(path)
        self.store.open(types.TextDocumentItem(uri=uri, language_id="yaml", version=1,
                                               text=text))
        return uri

    def edit(self, uri: str, version: int, text: str) -> None:
        self.store.change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]),
            self.encoding)


@pytest.fixture
def host() -> Iterator[FakeHost]:
    fake = FakeHost()
    fake.engine = Engine(fake)
    yield fake
    fake.engine.stop()


def _settle(host: FakeHost) -> None:
    """Wait for the engine to finish its queues (bounded), then run what it posted."""
    assert host.engine is not None
    for _ in range(2000):
        if host.engine.idle():
            break
        threading.Event().wait(0.005)
    assert host.engine.idle()
    host.run_posted()


def _hold(engine: Engine) -> threading.Event:
    """Occupy the engine thread until the returned event is set, so work piles up behind."""
    release, started = threading.Event(), threading.Event()

    def block() -> None:
        started.set()
        release.wait(10)

    engine.task(block)
    assert started.wait(10)
    return release


def test_tasks_run_before_documents_and_documents_before_closed_files(
        host: FakeHost, tmp_path: Path) -> None:
    assert host.engine is not None
    closed = tmp_path / "closed.yaml"
    closed.write_text(DATASET, encoding="utf-8")
    uri = host.open(tmp_path / "open.yaml", DATASET)
    release = _hold(host.engine)
    host.engine.refresh(closed)
    host.engine.analyse(uri)
    host.engine.task(lambda: host.events.append("task"))
    release.set()
    _settle(host)
    assert host.events == ["task", "report open.yaml v1", "report closed.yaml vNone"]


def test_a_burst_of_edits_is_one_analysis_of_the_latest_text(
        host: FakeHost, tmp_path: Path) -> None:
    assert host.engine is not None
    uri = host.open(tmp_path / "open.yaml", DATASET)
    release = _hold(host.engine)
    for version in (2, 3, 4):
        host.edit(uri, version, DATASET.replace("hi", "hi" * version))
        host.engine.analyse(uri)
    release.set()
    _settle(host)
    assert host.events == ["report open.yaml v4"]
    assert host.published == [("open.yaml", 4)]


def test_a_report_for_a_replaced_text_is_never_published(
        host: FakeHost, tmp_path: Path) -> None:
    assert host.engine is not None
    uri = host.open(tmp_path / "open.yaml", DATASET)
    host.engine.analyse(uri)
    for _ in range(2000):  # the report for version 1 is on its way to the loop
        if not host.posted.empty():
            break
        threading.Event().wait(0.005)
    host.edit(uri, 2, DATASET + "  - id: q2\n    input: again\n")  # before the loop runs it
    host.run_posted()
    assert host.published == []  # computed for version 1, which the client no longer has
    host.engine.analyse(uri)
    _settle(host)
    assert host.events == ["report open.yaml v1", "report open.yaml v2"]
    assert host.published == [("open.yaml", 2)]
