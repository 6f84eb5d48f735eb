"""Bytes to text, the same for every syntax."""

from __future__ import annotations


def decode(data: bytes) -> tuple[str, str | None]:
    """Bytes to text; the second item explains why the bytes are not UTF-8 text, if they are not.

    NUL bytes mean binary; invalid UTF-8 is reported at its first bad byte rather than replaced
    silently, because a replaced character would shift every column after it.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "", "the file is UTF-16; evalyaml reads UTF-8 YAML (save it as UTF-8)"
    if b"\x00" in data[:8192]:
        return "", "the file looks binary (it contains NUL bytes), not YAML text"
    try:
        # A UTF-8 byte-order mark is dropped, as editors do, so columns on line 1 agree.
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as err:
        prefix = data[: err.start].decode("utf-8", errors="replace")
        line = prefix.count("\n") + 1
        return "", f"the file is not valid UTF-8: byte 0x{data[err.start]:02x} at line {line}"
