"""Small wording rules the writer-facing pages share (the brief, the review page, the CLI)."""

from __future__ import annotations

NOT_STATED = "not stated"
"""What the brief and the CLI say of a filter or fact the RFP (or the library) does not state:
one wording for every such place (issue 15: the CLI summary said "customer types: any",
"value: any" and "work ended on/after: no recency window" where the RFP stated nothing, which
reads as if the RFP had said "any")."""


def or_not_stated(value: object) -> str:
    """``value`` as text, or ``NOT_STATED`` when it is None, empty text or an empty list
    (``"2021-06-01"`` -> ``"2021-06-01"``, ``None`` -> ``"not stated"``, ``[]`` -> ``"not
    stated"``, ``["federal", "state"]`` -> ``"federal, state"``). Never raises."""
    if value is None or value == "" or (isinstance(value, list | tuple) and not value):
        return NOT_STATED
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value))
    return str(value)


def counted(n: int, singular: str, plural: str | None = None) -> str:
    """``"1 candidate"``, ``"3 candidates"``, ``"no candidate"``: a count and its noun in the
    number English uses. ``plural`` defaults to ``singular + "s"``; ``n`` below 0 raises
    ``ValueError``."""
    if n < 0:
        raise ValueError(f"a count cannot be negative: {n}")
    if n == 0:
        return f"no {singular}"
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def number_word(n: int) -> str:
    """``3`` -> ``"three"`` (0..10 in words, as a proposal writes a count), larger as digits."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def references_heading(n: int) -> str:
    """The brief's heading over its picks: ``"The three references"``, ``"The two
    references"``, ``"The reference"`` for one, ``"The references"`` for none (trial: "The
    three references" headed lists of two and five). ``n`` is the number of picks shown."""
    if n == 1:
        return "The reference"
    if n <= 0:
        return "The references"
    return f"The {number_word(n)} references"
