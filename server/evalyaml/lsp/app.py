"""The language server proper, on pygls 2: `create_server` builds it (`server.run` starts it).

The parts, from the bottom up (each imports only the ones before it; `tests/lsp/test_layout.py`
holds the import graph acyclic):

- `guard`: every handler and callback is guarded; failure injection for the tests.
- `engine`: the analysis thread and the background indexer (sees the server as an `EngineHost`).
- `protocol`: pygls' protocol, patched; `progress`: work-done progress.
- `consistency`: which text an answer is about (the answer-consistency rule).
- `diagnostics`: the engine's reports to the client, pushed or pulled.
- `session`: `EvalServer`, the session's state.
- `handlers`: every LSP method, listed and registered in one hub (`handlers/__init__.py`).
"""

from __future__ import annotations

from evalyaml.lsp import guard, handlers
from evalyaml.lsp.session import EvalServer


def create_server() -> EvalServer:
    """A new server with every LSP method registered, ready for `start_io` / `start_tcp`."""
    server = EvalServer()
    guard.quiet_routine_answers()
    handlers.register(server)
    return server
