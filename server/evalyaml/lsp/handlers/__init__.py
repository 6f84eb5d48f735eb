"""The hub: every LSP method the server answers, listed in one place (`methods`), and the one
function that registers them with pygls (`register`).

The handlers are plain module-level functions of `(ls, params)`, one module per area:
`lifecycle`, `documents`, `navigation`, `editing`, `workspace`, plus the two pull-diagnostics
handlers, which live with the rest of diagnostics in `lsp/diagnostics.py`. A handler module
registers nothing itself (`tests/lsp/test_layout.py` holds this); to answer a new method, write
its handler and add one line here. How a method is listed decides how it fails:

- `request`: an error is logged and answered with `default()`, the method's empty answer
  (`null`, `[]`, an empty list or report); JSON-RPC errors raised on purpose (ContentModified,
  InvalidParams) reach the client (`guard`).
- `notification`: an error is logged.
- `plain`: the lifecycle handlers, left to pygls as they are (pygls answers `initialize` and
  `shutdown` itself and runs these alongside).
- `command`: a `workspace/executeCommand` command.

`protocol.EvalProtocol` overrides pygls' builtins for `initialize` and the three document-sync
notifications only to forward to the handlers registered here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from lsprotocol import types

from evalyaml.lsp import bootstrap, diagnostics, guard
from evalyaml.lsp.handlers import documents, editing, lifecycle, navigation, workspace
from evalyaml.lsp.session import EvalServer

How = Literal["plain", "request", "notification", "command"]


def _none() -> None:
    return None


@dataclass(frozen=True, slots=True)
class Method:
    """One LSP method (or command) and its handler."""

    name: str
    handler: Callable[..., Any]
    how: How = "request"
    options: Any = None
    default: Callable[[], Any] = _none


def methods() -> list[Method]:
    """Every method the server answers, in registration order (fresh option objects per call)."""
    return [
        # ---------------------------------------------- lifecycle (handlers/lifecycle.py)
        Method(types.INITIALIZE, lifecycle.initialize, "plain"),
        Method(types.INITIALIZED, lifecycle.initialized, "plain"),
        Method(types.SHUTDOWN, lifecycle.shutdown, "plain"),
        Method(types.EXIT, lifecycle.exit_, "plain"),
        # ---------------------------------------------- document sync (handlers/documents.py)
        Method(types.TEXT_DOCUMENT_DID_OPEN, documents.did_open, "notification"),
        Method(types.TEXT_DOCUMENT_DID_CHANGE, documents.did_change, "notification"),
        Method(types.TEXT_DOCUMENT_DID_CLOSE, documents.did_close, "notification"),
        # ---------------------------------------------- pull diagnostics (lsp/diagnostics.py)
        Method(types.TEXT_DOCUMENT_DIAGNOSTIC, diagnostics.document_diagnostic,
               options=types.DiagnosticOptions(identifier="evalyaml",
                                               inter_file_dependencies=True,
                                               workspace_diagnostics=True),
               default=lambda: types.RelatedFullDocumentDiagnosticReport(items=[])),
        Method(types.WORKSPACE_DIAGNOSTIC, diagnostics.workspace_diagnostic,
               default=lambda: types.WorkspaceDiagnosticReport(items=[])),
        # ---------------------------------------------- completion and hover (handlers/editing.py)
        Method(types.TEXT_DOCUMENT_COMPLETION, editing.complete,
               options=types.CompletionOptions(trigger_characters=bootstrap.TRIGGER_CHARACTERS),
               default=lambda: types.CompletionList(is_incomplete=False, items=[])),
        Method(types.TEXT_DOCUMENT_HOVER, editing.on_hover),
        # ---------------------------------------------- navigation (handlers/navigation.py)
        Method(types.TEXT_DOCUMENT_DEFINITION, navigation.definition, default=list),
        Method(types.TEXT_DOCUMENT_REFERENCES, navigation.references, default=list),
        Method(types.TEXT_DOCUMENT_DOCUMENT_LINK, navigation.document_links, default=list),
        Method(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, navigation.document_symbols, default=list),
        Method(types.WORKSPACE_SYMBOL, navigation.workspace_symbols, default=list),
        # ---------------------------------------------- rename (handlers/editing.py)
        Method(types.TEXT_DOCUMENT_PREPARE_RENAME, editing.prepare_rename),
        Method(types.TEXT_DOCUMENT_RENAME, editing.rename,
               options=types.RenameOptions(prepare_provider=True)),
        Method(types.WORKSPACE_WILL_RENAME_FILES, editing.will_rename_files,
               options=types.FileOperationRegistrationOptions(filters=[types.FileOperationFilter(
                   pattern=types.FileOperationPattern(glob="**/*"))])),
        # ---------------------------------------------- code lens and its command (navigation)
        Method(types.TEXT_DOCUMENT_CODE_LENS, navigation.code_lens, default=list),
        Method(bootstrap.SHOW_REFERENCES, navigation.show_references, "command"),
        # ---------------------------------------------- quick fixes (handlers/editing.py)
        Method(types.TEXT_DOCUMENT_CODE_ACTION, editing.code_action,
               options=types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
               default=list),
        # ---------------------------------------------- settings and files (handlers/workspace.py)
        # didChangeConfiguration is a notification, guarded as a request (it awaits the client).
        Method(types.WORKSPACE_DID_CHANGE_CONFIGURATION, workspace.did_change_configuration),
        Method(types.WORKSPACE_DID_CHANGE_WATCHED_FILES, workspace.did_change_watched_files,
               "notification"),
        Method(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, workspace.did_change_folders,
               "notification"),
    ]


def register(server: EvalServer) -> None:
    """Register every method of `methods()` with `server`: the only registration there is."""
    for method in methods():
        if method.how == "plain":
            server.feature(method.name)(method.handler)
        elif method.how == "request":
            server.feature(method.name, method.options)(
                guard.request(method.name, method.handler, method.default))
        elif method.how == "notification":
            server.feature(method.name)(guard.notification(method.name, method.handler))
        else:
            server.command(method.name)(method.handler)
