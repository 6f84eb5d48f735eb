"""Document sync: `didOpen`, `didChange`, `didClose`.

The text is put down in the `DocumentStore` (on the loop, edits applied in place) and the
engine is told; it reads the latest text itself when it gets to the document.
"""

from __future__ import annotations

from lsprotocol import types

from evalyaml.lsp.session import EvalServer


def did_open(ls: EvalServer, params: types.DidOpenTextDocumentParams) -> None:
    doc = ls.store.open(params.text_document)
    assert ls.engine is not None
    ls.engine.analyse(doc.uri, force=True)


def did_change(ls: EvalServer, params: types.DidChangeTextDocumentParams) -> None:
    doc = ls.store.change(params, ls.encoding)
    if doc is not None and ls.engine is not None:
        ls.engine.analyse(doc.uri)


def did_close(ls: EvalServer, params: types.DidCloseTextDocumentParams) -> None:
    uri = params.text_document.uri
    doc = ls.store.close(uri)
    ls.reports.pop(uri, None)
    ls.waiters.wake(uri, None)  # requests waiting for an analysis of it answer now
    engine = ls.engine
    if doc is not None and engine is not None:
        path = doc.path
        engine.task(lambda: engine.closed(uri, path, doc))
