"""One library cell or file as text: encodings, clean cell text, entry ids, Last Updated.

Shared by the spreadsheet rows (``library.spreadsheet_rows``) and the write-ups
(``library.writeups``); rules: ``library.ingest``'s docstring.
"""

from __future__ import annotations

import codecs
import datetime as dt
import re
from pathlib import Path
from typing import Any

from rfp_retrieval.documents.text import without_controls
from rfp_retrieval.library import dates

UNREADABLE_LAST_UPDATED = "unreadable-last-updated"

ENTRY_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/#-]*$")


_SPACED_ID_RE = re.compile(r"^([A-Za-z]{1,6}) +(\d+)$")
NONSTANDARD_ID = "nonstandard-id"


def spelled_entry_id(cell: str) -> tuple[str, list[str]]:
    """An id cell as the library stores it, and its defects: ``PP 701`` (letters, spaces,
    digits: a dash typed as a space) is ``PP-701`` with ``nonstandard-id (PP 701)``, so the row
    is kept and matches ``PP-701`` elsewhere; any other cell is returned as written (the
    caller checks it against ``ENTRY_ID_RE``). Source: break-it ("PP 701" rejected the row)."""
    match = _SPACED_ID_RE.match(cell)
    if match:
        return f"{match.group(1)}-{match.group(2)}", [f"{NONSTANDARD_ID} ({cell})"]
    return cell, []


def entry_id_key(entry_id: str) -> str:
    """An entry id as a writer may type it, for matching: case folded, letters and digits
    only (``pp-127``, ``PP 127`` and ``PP-127`` share ``pp127``)."""
    return "".join(ch for ch in entry_id.casefold() if ch.isalnum())


def library_id(typed: str, known_ids: set[str] | frozenset[str]) -> str:
    """The library's own spelling of an entry id a writer typed: ``typed`` itself when the
    library holds it, else the one id that differs from it only in case, spaces or
    punctuation (``pp-127``, ``PP 127`` and ``pp127`` are ``PP-127``); ``typed`` unchanged
    when no id, or more than one, matches that way (the override check then names it).
    Rule: an entry id is a label, and a writer typing it from a printout does not copy its
    case or its dash."""
    if typed in known_ids or not typed:
        return typed
    key = entry_id_key(typed)
    matches = [i for i in known_ids if entry_id_key(i) == key]
    return matches[0] if len(matches) == 1 else typed


class RowRejected(Exception):
    """A row (or write-up) cannot become an entry; the message is the rejection reason."""


def _header_key(name: Any) -> str:
    return " ".join(str(name or "").lower().split())


TEXT_HEAD_BYTES = 2000


def candidate_encodings(head: bytes) -> list[str]:
    """The encodings a library text file is tried in, in order, from its first
    ``TEXT_HEAD_BYTES`` bytes: UTF-16 (Excel's "Unicode Text" and UTF-16 CSV exports, with a
    byte-order mark or the NUL-byte pattern of one without), else UTF-8 (with or without
    BOM), else Windows-1252; Latin-1, which decodes any bytes, is the caller's last resort."""
    encodings = ["utf-8-sig", "cp1252"]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        encodings.insert(0, "utf-16")
    elif head.count(b"\x00") > len(head) // 4:
        odd_nuls = head[1::2].count(b"\x00") > head[0::2].count(b"\x00")
        encodings.insert(0, "utf-16-le" if odd_nuls else "utf-16-be")
    return encodings


MIXED_UTF8 = "rfp_utf8_stray_cp1252"
"""Codec name of ``MIXED_ENCODING_RULE``: UTF-8, each byte that is not UTF-8 read as
Windows-1252 (Latin-1 for the five bytes Windows-1252 leaves undefined) and preceded by
``STRAY_MARK``."""

STRAY_MARK = "\ue000"
"""A private-use character put before each stray byte's character by ``MIXED_UTF8``, so the
spreadsheet reader can name the cell (``spreadsheet_rows``) and remove it; never in the data."""

MIXED_ENCODING_RULE = (
    "A file that is UTF-8 but for a few bytes (one pasted from a Windows-1252 document) is "
    "read as UTF-8, each stray byte as its Windows-1252 character, and the row is marked "
    "stray-byte:<column>: reading the whole file as Windows-1252 turned every accented "
    "character into mojibake ('CafÃ©') with no word (break-it)."
)
"""The one rule for a UTF-8 file with stray bytes (``mostly_utf8``)."""

_UTF8_MULTIBYTE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}"
)


def _stray_byte(error: UnicodeDecodeError) -> tuple[str, int]:
    """``MIXED_UTF8``'s error handler: the offending bytes as Windows-1252, each marked."""
    bad = error.object[error.start : error.end]
    text = ""
    for byte in bad:
        try:
            text += STRAY_MARK + bytes([byte]).decode("cp1252")
        except UnicodeDecodeError:
            text += STRAY_MARK + bytes([byte]).decode("latin-1")
    return text, error.end


class _MixedDecoder(codecs.BufferedIncrementalDecoder):
    def _buffer_decode(self, data: bytes, errors: str, final: bool) -> tuple[str, int]:
        return codecs.utf_8_decode(data, "rfp-stray-byte", final)


def _mixed_decode(data: bytes, errors: str = "strict") -> tuple[str, int]:
    return codecs.utf_8_decode(bytes(data), "rfp-stray-byte", True)


def _find_codec(name: str) -> codecs.CodecInfo | None:
    if name != MIXED_UTF8:
        return None
    utf8 = codecs.lookup("utf-8")
    return codecs.CodecInfo(
        name=MIXED_UTF8,
        encode=utf8.encode,
        decode=_mixed_decode,
        incrementalencoder=utf8.incrementalencoder,
        incrementaldecoder=_MixedDecoder,
        streamreader=utf8.streamreader,
        streamwriter=utf8.streamwriter,
    )


codecs.register_error("rfp-stray-byte", _stray_byte)
codecs.register(_find_codec)


def mostly_utf8(valid_sequences: int, stray_bytes: int) -> bool:
    """``MIXED_ENCODING_RULE``'s test: a file that failed to decode as UTF-8 is UTF-8 with stray
    bytes when it holds valid UTF-8 multi-byte characters and fewer stray bytes than them."""
    return valid_sequences > 0 and stray_bytes < valid_sequences


_HIGH_BYTES = bytes(range(0x80, 0x100))


def utf8_counts(data: bytes) -> tuple[int, int]:
    """(valid UTF-8 multi-byte characters, bytes that are no part of one and not ASCII)."""
    valid = _UTF8_MULTIBYTE.findall(data)
    high = len(data) - len(data.translate(None, _HIGH_BYTES))
    return len(valid), high - sum(len(v) for v in valid)


def read_text_file(path: Path) -> str:
    """A text file's content, decoded by the first of ``candidate_encodings`` that reads all
    of it (UTF-8 with a few stray bytes by ``MIXED_ENCODING_RULE``, the marks removed), else
    Latin-1."""
    raw = path.read_bytes()
    for encoding in candidate_encodings(raw[:TEXT_HEAD_BYTES]):
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            if encoding.startswith("utf-8") and mostly_utf8(*utf8_counts(raw)):
                return raw.decode(MIXED_UTF8).replace(STRAY_MARK, "")
            continue
    return raw.decode("latin-1")


def _raw_value(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    return value


def _cell_text(value: Any) -> str:
    """A cell as clean text: None -> "", line breaks normalized, outer whitespace stripped,
    invisible controls removed (``documents.text.without_controls``: a bidi override in a
    title reversed it as the brief shows it)."""
    if value is None:
        return ""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = str(value).replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ")
    return without_controls(text).strip()


def _optional(value: Any) -> str | None:
    text = _cell_text(value)
    return text or None


def _last_updated(value: Any) -> tuple[str | None, list[str]]:
    """ISO date of a Last Updated cell (``10/28/2014``, ``2025-09-06``, a spreadsheet date) and
    its defects: ``unreadable-last-updated (<why>)`` when it is not a date, e.g. day/month/year
    order (the entry is then the oldest of its id's rows)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None, []
    try:
        if isinstance(value, dt.date):
            return dates.parse_date_bound(value, "start").isoformat(), []
        return dates.parse_date_bound(_cell_text(value), "start").isoformat(), []
    except ValueError as error:  # the reason says how to write it (break-it: "31/12/2024")
        return None, [f"{UNREADABLE_LAST_UPDATED} ({error})"]
