"""Bytes of a text file (Markdown, text, CSV, JSON) as text: the encodings RFP files arrive in."""

from __future__ import annotations

import re
from pathlib import Path

from rfp_retrieval.documents.records import DocumentError


def read_bytes(p: Path) -> bytes:
    """The bytes of ``p``. Raises ``DocumentError`` (check its permissions) when unreadable."""
    try:
        return p.read_bytes()
    except OSError as exc:
        raise DocumentError(str(p), f"cannot read the file ({exc}); check its permissions") from exc


def _decode(data: bytes, name: str) -> tuple[str, list[str]]:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), []
        except UnicodeDecodeError as exc:
            raise DocumentError(
                name,
                f"has a UTF-16 byte-order mark but is not valid UTF-16 ({exc}); re-save it "
                "as UTF-8",
            ) from exc
    head = data[:2000]
    if head.count(b"\x00") > len(head) // 4:  # UTF-16 saved without a byte-order mark
        encoding = (
            "utf-16-le" if head[1::2].count(b"\x00") > head[0::2].count(b"\x00") else ("utf-16-be")
        )
        try:
            return data.decode(encoding), [f"{name}: no byte-order mark; decoded as {encoding}"]
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8-sig"), []
    except UnicodeDecodeError:
        pass
    text = data.decode("cp1252", errors="replace")
    return text, [f"{name}: not UTF-8; decoded as Windows-1252 (cp1252)"]


CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")
"""C0 control characters other than tab, newline, form feed and carriage return (and DEL)."""
BINARY_SHARE = 0.01
"""Above this share of control characters (and more than 8 of them) a "text" file is binary."""


def decode_text(data: bytes, name: str = "<bytes>") -> tuple[str, list[str]]:
    """Decode a text file: UTF-8 (with or without BOM), UTF-16 (BOM, or NUL-byte pattern),
    else Windows-1252; stray control characters (a DOS end-of-file mark ``\\x1a``, NULs) are
    removed with a warning (form feeds stay: they separate pages).

    Returns (text, warnings); a warning is added when the cp1252 fallback was used or control
    characters were removed. Raises ``DocumentError`` when a UTF-16 BOM is present but the
    bytes do not decode, or when the file is binary (more than 1% control characters).
    """
    text, warnings = _decode(data, name)
    found = len(CONTROL_CHARACTERS.findall(text))
    if not found:
        return text, warnings
    if found > 8 and found > BINARY_SHARE * len(text):
        raise DocumentError(
            name,
            f"looks like a binary file, not text ({found} control characters in "
            f"{len(text)}); save the RFP as PDF, DOCX, Markdown or plain text",
        )
    warning = f"{name}: {found} control character(s) removed (e.g. a DOS end-of-file mark)"
    return CONTROL_CHARACTERS.sub("", text), [*warnings, warning]
