"""Answer `initialize` before the heavy imports are done. Standard library only.

Importing lsprotocol (about a thousand attrs classes) and pygls costs about a second, more than
the whole budget for spawn -> initialize result. The server's capabilities do not depend on
anything that needs those imports, so `serve_stdio` imports the server in a thread, reads the
first message itself, answers `initialize` at once with `initialize_result`, and then hands the
stream to pygls with that first message replayed in front of it (pygls handles it as usual and
sets up its state; its own answer, identical, is not sent a second time). Messages the client
sends meanwhile wait in the pipe. `tests/lsp/test_bootstrap.py` holds `initialize_result` equal
to what pygls computes for the registered features, for every recorded client.
"""

from __future__ import annotations

import contextlib
import io
import json
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

from evalyaml import __version__

TRIGGER_CHARACTERS = ["/", "@", ":", " ", "{", "-"]
SHOW_REFERENCES = "evalyaml.showReferences"


def choose_encoding(offered: list[str]) -> str:
    """UTF-8 when the client offers it, else UTF-16 (what every client supports); UTF-32 when
    it is the only encoding offered that we know."""
    offered = [o.lower() for o in offered]
    if "utf-8" in offered:
        return "utf-8"
    if "utf-16" not in offered and "utf-32" in offered:
        return "utf-32"
    return "utf-16"


def _get(node: Any, *path: str) -> Any:
    for part in path:
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return node


def initialize_result(params: dict[str, Any]) -> dict[str, Any]:
    """The `InitializeResult` for these `InitializeParams`, as JSON."""
    client = params.get("capabilities") or {}
    encodings = _get(client, "general", "positionEncodings")
    sync: dict[str, Any] = {"openClose": True, "change": 2}
    for name in ("willSave", "willSaveWaitUntil"):
        if _get(client, "textDocument", "synchronization", name) is not None:
            sync[name] = False
    sync["save"] = False
    prepare = bool(_get(client, "textDocument", "rename", "prepareSupport"))
    # As pygls answers: a file operation only to a client that says it sends it.
    file_operations: dict[str, Any] = {}
    if _get(client, "workspace", "fileOperations", "willRename"):
        file_operations["willRename"] = {"filters": [{"pattern": {"glob": "**/*"}}]}
    capabilities: dict[str, Any] = {
        "positionEncoding": choose_encoding(encodings if isinstance(encodings, list) else []),
        "textDocumentSync": sync,
        "completionProvider": {"triggerCharacters": TRIGGER_CHARACTERS},
        "hoverProvider": True,
        "definitionProvider": True,
        "referencesProvider": True,
        "documentSymbolProvider": True,
        "codeActionProvider": {"codeActionKinds": ["quickfix"]},
        "codeLensProvider": {"resolveProvider": False},
        "documentLinkProvider": {"resolveProvider": False},
        "renameProvider": {"prepareProvider": True} if prepare else True,
        "executeCommandProvider": {"commands": [SHOW_REFERENCES]},
        "workspaceSymbolProvider": {"resolveProvider": False},
        "workspace": {"workspaceFolders": {"supported": True, "changeNotifications": True},
                      "fileOperations": file_operations},
        "diagnosticProvider": {"identifier": "evalyaml", "interFileDependencies": True,
                               "workspaceDiagnostics": True},
    }
    return {"capabilities": capabilities,
            "serverInfo": {"name": "evalyaml", "version": __version__}}


def read_frame(stream: BinaryIO) -> tuple[bytes, dict[str, Any] | None] | None:
    """One raw LSP frame (headers and body) and its parsed body; None at end of input."""
    raw = bytearray()
    length = None
    while True:
        line = stream.readline()
        if not line:
            return None
        raw += line
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii", errors="replace").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    if length is None:
        return bytes(raw), None
    body = stream.read(length)
    raw += body
    try:
        message = json.loads(body)
    except ValueError:
        return bytes(raw), None
    return bytes(raw), message if isinstance(message, dict) else None


def write_message(stream: BinaryIO, payload: dict[str, Any]) -> None:
    body = json.dumps(payload, separators=(",", ":")).encode("utf-8")
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


class Prefixed(io.RawIOBase):
    """`prefix`, then whatever `stream` has left (a buffered reader)."""

    def __init__(self, prefix: bytes, stream: BinaryIO) -> None:
        super().__init__()
        self._prefix = prefix
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if self._prefix:
            count = min(len(view), len(self._prefix))
            view[:count] = self._prefix[:count]
            self._prefix = self._prefix[count:]
            return count
        read1 = getattr(self._stream, "read1", self._stream.read)
        data = read1(len(view))
        view[: len(data)] = data
        return len(data)


class ClientStream:
    """The server's stdout. It drops the server's answer to one request the bootstrap already
    gave (`request_id`, if any), and whatever is written once the client's end is gone: a
    publish racing `exit` cannot reach anybody, and pygls would log every failed write with a
    traceback (and then fail again reporting it)."""

    def __init__(self, stream: BinaryIO, request_id: object | None) -> None:
        self._stream = stream
        self._pending = request_id
        self._lock = threading.Lock()

    def write(self, data: bytes) -> int:
        with self._lock:
            if self._pending is not None:
                _, _, body = data.partition(b"\r\n\r\n")
                try:
                    message = json.loads(body)
                except ValueError:
                    message = None
                if isinstance(message, dict) and "method" not in message and \
                        message.get("id") == self._pending:
                    self._pending = None
                    return len(data)
            try:
                written = self._stream.write(data)
                self._stream.flush()
            except (ValueError, OSError):  # closed (ValueError) or a broken pipe (OSError)
                return len(data)
            return written

    def flush(self) -> None:
        with contextlib.suppress(ValueError, OSError):  # gone: see write
            self._stream.flush()

    def close(self) -> None:
        self._stream.close()


def serve_stdio(load: Callable[[], Callable[[BinaryIO, BinaryIO], int]],
                stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Answer `initialize` while `load()` runs in a thread; then run what it returns on the
    stream, first message replayed; its result (the exit status) is returned."""
    loaded: dict[str, Any] = {}

    def importer() -> None:
        try:
            loaded["serve"] = load()
        except BaseException as err:  # re-raised below, in the main thread
            loaded["error"] = err

    thread = threading.Thread(target=importer, name="evalyaml-import", daemon=True)
    thread.start()
    replay = b""
    answered: object = None
    frame = read_frame(stdin)
    if frame is not None:
        replay, message = frame
        if message is not None and message.get("method") == "initialize" and "id" in message:
            params = message.get("params")
            write_message(stdout, {"jsonrpc": "2.0", "id": message["id"],
                                   "result": initialize_result(
                                       params if isinstance(params, dict) else {})})
            answered = message["id"]
    thread.join()
    if "error" in loaded:
        raise loaded["error"]
    reader = io.BufferedReader(Prefixed(replay, stdin))
    writer: Any = ClientStream(stdout, answered)
    return int(loaded["serve"](reader, writer))
