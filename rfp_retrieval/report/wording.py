"""Small wording rules the writer-facing pages share."""

from __future__ import annotations


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """``"1 candidate"``, ``"3 candidates"``, ``"no candidate"``: a count and its noun in the
    number English uses. ``plural`` defaults to ``singular + "s"``; ``n`` below 0 raises
    ``ValueError``."""
    if n < 0:
        raise ValueError(f"a count cannot be negative: {n}")
    if n == 0:
        return f"no {singular}"
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"
