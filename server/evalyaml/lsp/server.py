"""`evalyaml lsp`: start the language server (stdio, or TCP for debugging).

Deliberately light: the server itself (`app`) is imported in the background while
`bootstrap` answers `initialize`, so an editor gets its answer within a fraction of a second.
Logs go to stderr, never stdout (stdout carries LSP frames only).
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable
from typing import BinaryIO

from evalyaml.lsp import bootstrap, early

log = logging.getLogger("evalyaml.lsp")


def _load() -> Callable[[BinaryIO, BinaryIO], int]:
    early.pause_collector()  # until the first documents are published (`early`)
    early.prepare()  # first: what `early.peek` needs, while the client is still starting up
    from evalyaml.lsp.app import create_server

    server = create_server()

    def serve(stdin: BinaryIO, stdout: BinaryIO) -> int:
        server.start_io(stdin, stdout)
        return server.exit_code or 0  # None: the client went away without `exit`

    return serve


def run(tcp: str | None = None, log_level: str = "WARNING") -> int:
    """Serve until the client says exit. The exit status is 0 after `shutdown` + `exit` (or
    when the client just closes the stream), 1 after `exit` without `shutdown`."""
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, log_level, logging.WARNING),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if log_level != "DEBUG":
        logging.getLogger("pygls").setLevel(logging.WARNING)
    threading.excepthook = _thread_excepthook
    if tcp:
        from evalyaml.lsp.app import create_server

        host, _, port = tcp.rpartition(":")
        server = create_server()
        server.start_tcp(host or "127.0.0.1", int(port))
        return server.exit_code or 0
    return bootstrap.serve_stdio(_load, sys.stdin.buffer, sys.stdout.buffer, early)


def _thread_excepthook(args: threading.ExceptHookArgs) -> None:
    log.error("uncaught exception in thread %s", args.thread.name if args.thread else "?",
              exc_info=(args.exc_type, args.exc_value, args.exc_traceback))  # type: ignore[arg-type]
