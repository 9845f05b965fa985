"""The one reader of the labelled JSONL files the ``eval`` commands measure with (golden sets,
answer qrels, parse truth): UTF-8 (a byte-order mark allowed; UTF-16 with its byte-order
mark, as Windows PowerShell writes, too), one JSON object per line,
blank lines skipped, and a file with no line refused, so a broken or empty file is never
measured as recall 0.000.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_objects(
    path: Path | str, error: type[Exception], what: str
) -> list[tuple[int, dict[str, Any]]]:
    """``[(line number, object)]`` of the JSONL file ``path``, in file order.

    ``what`` names a line in messages ("golden-set", "qrels", "truth").

    Raises:
        error: the file is not UTF-8, is one JSON array spread over lines (not JSON Lines),
            a line is not JSON or not a JSON object, or the file holds no line; the message
            names the file (and the line).
        FileNotFoundError: ``path`` does not exist.
    """
    path = Path(path)
    raw = path.read_bytes()
    # a UTF-16 byte-order mark is unambiguous: Windows PowerShell's `>` and Out-File write it
    encoding = "utf-16" if raw.startswith((b"\xff\xfe", b"\xfe\xff")) else "utf-8-sig"
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as exc:
        raise error(
            f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start}); re-save it as UTF-8"
        ) from None
    _refuse_one_array(text, path, error, what)
    out: list[tuple[int, dict[str, Any]]] = []
    # lines end at "\n" (a "\r" before it is dropped) only: ``str.splitlines`` would also cut a
    # JSON string at U+2028, U+0085 or a form feed, which JSON writers leave unescaped
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise error(
                f"{path}:{number}: bad {what} line ({exc}); one JSON object per line"
            ) from None
        if not isinstance(item, dict):
            raise error(
                f"{path}:{number}: a {what} line is a JSON object, got {type(item).__name__}"
            )
        out.append((number, item))
    if not out:
        raise error(f"{path}: no {what} line (the file is empty)")
    return out


def _refuse_one_array(text: str, path: Path, error: type[Exception], what: str) -> None:
    """Raise ``error`` when the file is one JSON array spread over lines (a pretty-printed
    export) rather than JSON Lines, saying how to convert it; line-by-line reading would only
    report its first line, ``[``, as bad JSON."""
    if not text.lstrip().startswith("["):
        return
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        return
    if isinstance(whole, list) and "\n" in text.strip():
        raise error(
            f"{path}: the file is one JSON array of {len(whole)} item(s), not JSON Lines; "
            f"write one {what} object per line (e.g. jq -c '.[]' {path.name})"
        )
