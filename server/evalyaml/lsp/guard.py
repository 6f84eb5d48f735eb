"""No bug in one feature takes the server down: every handler and every callback is guarded.

A request handler that raises is logged (to stderr, never stdout) and answered with its empty
answer; a notification handler or a callback posted to the loop that raises is logged. JSON-RPC
errors a handler raises on purpose (ContentModified, InvalidParams) go to the client as they are,
and pygls' traceback for those routine answers is kept out of the log.

`EVALYAML_LSP_FAIL=textDocument/hover,analysis` makes those handlers (and, for `analysis`, the
engine's analysis; for `render-ahead`, the rendering of a large document's findings during its
analysis, `Engine.map_cases`) raise, so the tests can prove all this.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

from pygls.exceptions import JsonRpcContentModified, JsonRpcException, JsonRpcInvalidParams

log = logging.getLogger("evalyaml.lsp")

INJECTED_FAILURES = frozenset(
    m.strip() for m in os.environ.get("EVALYAML_LSP_FAIL", "").split(",") if m.strip())
"""Method names (and `analysis`, `render-ahead`) made to fail, read once from
`EVALYAML_LSP_FAIL`."""

Request = Callable[..., Awaitable[Any]]
Notification = Callable[..., None]


def request(name: str, fn: Request, default: Callable[[], Any]) -> Request:
    """`fn` answering `name`, guarded: an error is logged and answered with `default()`."""
    @functools.wraps(fn)
    async def guarded(ls: Any, params: Any) -> Any:
        try:
            if name in INJECTED_FAILURES:
                raise RuntimeError(f"injected failure in {name}")
            return await fn(ls, params)
        except JsonRpcException:
            raise
        except Exception:
            log.exception("%s failed", name)
            return default()

    return guarded


def notification(name: str, fn: Notification) -> Notification:
    """`fn` handling the notification `name`, guarded: an error is logged."""
    @functools.wraps(fn)
    def guarded(ls: Any, params: Any) -> None:
        try:
            if name in INJECTED_FAILURES:
                raise RuntimeError(f"injected failure in {name}")
            fn(ls, params)
        except Exception:
            log.exception("%s failed", name)

    return guarded


def guard_call(fn: Callable[..., None], *args: Any) -> None:
    """Call `fn` on the loop; an error is logged, never raised into the loop."""
    try:
        fn(*args)
    except Exception:
        log.exception("evalyaml: %s failed", getattr(fn, "__name__", fn))


class _RoutineAnswers(logging.Filter):
    """pygls logs every error answer with a traceback. ContentModified (the user typed on) and
    InvalidParams (a new name that is not an id) are answers, not server errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, JsonRpcContentModified | JsonRpcInvalidParams)


_ROUTINE = _RoutineAnswers()


def quiet_routine_answers() -> None:
    """Keep pygls' tracebacks for routine error answers out of the log (once per process)."""
    json_rpc_log = logging.getLogger("pygls.protocol.json_rpc")
    if _ROUTINE not in json_rpc_log.filters:
        json_rpc_log.addFilter(_ROUTINE)
