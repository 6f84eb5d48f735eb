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
import os
import select
import sys
import threading
from collections.abc import Callable
from typing import Any, BinaryIO, Protocol

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
        self._prefix = memoryview(prefix)  # read through, never copied whole again
        self._at = 0
        self._stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        if self._at < len(self._prefix):
            count = min(len(view), len(self._prefix) - self._at)
            view[:count] = self._prefix[self._at : self._at + count]
            self._at += count
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


class FrameReader:
    """LSP frames read straight from a pipe's file descriptor, each wait bounded: what lets the
    bootstrap look at the client's first messages while the server is still being imported,
    and stop looking the moment it is (`serve_stdio`). Every byte read is kept (`consumed`) to
    be replayed in front of the stream that pygls then reads."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.consumed = bytearray()
        self._at = 0  # where the next frame starts in `consumed`
        self.ended = False
        # Told the length of each frame whose header is read and whose body is not yet whole.
        self.coming: Callable[[int], None] | None = None
        self._announced = -1  # the frame (its start) last announced to `coming`

    def next(self, timeout: float, keep_waiting: Callable[[], bool]) -> dict[str, Any] | None:
        """The next whole frame's body, parsed; None when the frame is not whole and waiting
        `timeout` brought no bytes while `keep_waiting()` still held, or at end of input (then
        `ended`), or when the body is not a JSON object (it is replayed all the same)."""
        while True:
            frame = self._split()
            if frame is not None:
                return frame if isinstance(frame, dict) else None
            if self.ended or not keep_waiting():
                return None
            ready, _, _ = select.select([self.fd], [], [], timeout)
            if not ready:
                if not keep_waiting():
                    return None
                continue
            chunk = os.read(self.fd, 1 << 20)
            if not chunk:
                self.ended = True
                return None
            self.consumed += chunk

    def _split(self) -> object | None:
        """The next frame's parsed body (`_NOT_JSON` if it is not JSON) once it is whole."""
        data, at = self.consumed, self._at
        end = data.find(b"\n\r\n", at)
        bare = data.find(b"\n\n", at)
        if bare != -1 and (end == -1 or bare < end):
            head_end, body_start = bare, bare + 2
        elif end != -1:
            head_end, body_start = end, end + 3
        else:
            return None
        length = None
        for line in bytes(data[at:head_end]).decode("ascii", errors="replace").splitlines():
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length" and value.strip().isdigit():
                length = int(value.strip())
        if length is None:  # not a frame we can read: stop looking, pygls will say what
            self.ended = True
            return None
        if len(data) < body_start + length:
            if self.coming is not None and self._announced != at:
                self._announced = at
                with contextlib.suppress(Exception):
                    self.coming(length)
            return None
        self._at = body_start + length
        try:
            message = json.loads(bytes(data[body_start : self._at]))
        except ValueError:
            return _NOT_JSON
        return message if isinstance(message, dict) else _NOT_JSON


_NOT_JSON = object()


def _answer(stdout: BinaryIO, message: dict[str, Any] | None) -> object | None:
    """Answer `message` if it is `initialize`; the id answered, else None."""
    if message is None or message.get("method") != "initialize" or "id" not in message:
        return None
    params = message.get("params")
    write_message(stdout, {"jsonrpc": "2.0", "id": message["id"],
                           "result": initialize_result(params if isinstance(params, dict) else {})})
    answered: object = message["id"]
    return answered


def _fileno(stream: BinaryIO) -> int | None:
    """The stream's descriptor when it is a pipe or file the bootstrap may read past, else
    None (an in-memory stream; Windows, whose pipes `select` cannot wait on)."""
    if os.name == "nt":
        return None
    try:
        return stream.fileno()
    except (OSError, ValueError, AttributeError):
        return None


PIPE_BYTES = 1 << 20
"""The pipe buffer asked for while peeking: a large `didOpen` then takes a few reads."""
READING_INTERVAL = 0.0005
"""The interpreter's switch interval while a large message is read (see `_peek_while`)."""
LARGE_MESSAGE = 256 * 1024
"""Bytes: a message this large takes several reads (and as many waits for the GIL)."""


class Peek(Protocol):
    """What looks at the client's messages while the server is imported (`lsp.early`)."""

    def coming(self, length: int) -> None:
        """A message of `length` bytes is being read."""

    def message(self, message: dict[str, Any]) -> None:
        """A message read (it will be replayed to the server all the same)."""


def _peek_while(thread: threading.Thread, frames: FrameReader, peek: Peek) -> None:
    """Show `peek` each message read while `thread` (the import) runs, and the length of
    each as soon as its header is read.

    The import holds the GIL but for the interpreter's switch interval (5 ms), and this thread
    needs it after every read: with the 64 KB a pipe holds by default, a 6 MB `didOpen` would
    take a second to read. So the pipe is asked to hold more (Linux; refused quietly elsewhere
    or above the system's limit), and the switch interval is shortened while a large message
    is read (only then: a short interval slows the import down)."""
    with contextlib.suppress(ImportError, OSError, AttributeError):
        import fcntl

        if fcntl.fcntl(frames.fd, fcntl.F_GETPIPE_SZ) < PIPE_BYTES:  # grown, never shrunk
            fcntl.fcntl(frames.fd, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    interval = sys.getswitchinterval()

    def coming(length: int) -> None:
        if length >= LARGE_MESSAGE:
            sys.setswitchinterval(READING_INTERVAL)
        peek.coming(length)

    frames.coming = coming
    try:
        while thread.is_alive() and not frames.ended:
            message = frames.next(0.02, thread.is_alive)
            sys.setswitchinterval(interval)
            if message is not None:
                with contextlib.suppress(Exception):
                    peek.message(message)
    finally:
        frames.coming = None
        sys.setswitchinterval(interval)


def serve_stdio(load: Callable[[], Callable[[BinaryIO, BinaryIO], int]],
                stdin: BinaryIO, stdout: BinaryIO,
                peek: Peek | None = None) -> int:
    """Answer `initialize` while `load()` runs in a thread; then run what it returns on the
    stream, every message read so far replayed; its result (the exit status) is returned.

    `peek` sees each message the client sends while the import is still running (an editor
    restoring its tabs sends their `didOpen`s then), so that work on them can start before
    the server can take them: it must not take long, and what it raises is ignored."""
    loaded: dict[str, Any] = {}

    def importer() -> None:
        try:
            loaded["serve"] = load()
        except BaseException as err:  # re-raised below, in the main thread
            loaded["error"] = err

    thread = threading.Thread(target=importer, name="evalyaml-import", daemon=True)
    thread.start()
    fd = _fileno(stdin)
    if fd is None:
        frame = read_frame(stdin)
        replay, answered = b"", None
        if frame is not None:
            replay, message = frame
            answered = _answer(stdout, message)
    else:
        frames = FrameReader(fd)
        first = frames.next(3600.0, lambda: True)
        answered = _answer(stdout, first)
        if peek is not None:
            if first is not None:
                with contextlib.suppress(Exception):
                    peek.message(first)
            _peek_while(thread, frames, peek)
        replay = bytes(frames.consumed)
    thread.join()
    if "error" in loaded:
        raise loaded["error"]
    reader = io.BufferedReader(Prefixed(replay, stdin))
    writer: Any = ClientStream(stdout, answered)
    return int(loaded["serve"](reader, writer))
