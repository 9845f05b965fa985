"""Number words and counts as solicitations and libraries write them (one table).

``UNIT_WORDS`` / ``TENS_WORDS`` are read by the money grammar (``quantities.money``: "thirty
million dollars") and by ``word_to_number`` / ``COUNT`` ("three (3) references", "five (5)
years"), used by the Section L/M reader.
"""

from __future__ import annotations

import re

UNIT_WORDS: dict[str, int] = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
TENS_WORDS: dict[str, int] = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}

_UNITS = UNIT_WORDS  # one table: the money grammar reads the same words
_TENS = TENS_WORDS
NUMBER_WORD = (
    r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|"
    r"five|six|seven|eight|nine))?|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
    r"twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|a hundred|one hundred)"
)
"""Regex fragment for an English number word from zero to one hundred."""

MONEY_NUMBER_WORD = (
    r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|"
    r"five|six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|"
    r"twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|a hundred|one hundred)"
)
"""``NUMBER_WORD`` without ``zero``: the number words of an RFP sentence amount ("thirty
million dollars"; ``quantities.money.money_mentions``)."""

COUNT = rf"(?:\d+(?:\.\d+)?|{NUMBER_WORD})(?:\s*\(\d+(?:\.\d+)?\))?"
"""Regex fragment for a count as written in solicitations: ``5``, ``five``, ``five (5)``."""


def word_to_number(text: str) -> float | None:
    """The value of a count written as digits or words (``"five (5)"`` -> 5, ``"twenty-four"``).

    A parenthesised digit wins over the words when both are present. Returns None when ``text``
    is not a count.
    """
    text = text.strip().lower()
    paren = re.search(r"\((\d+(?:\.\d+)?)\)", text)
    if paren:
        return float(paren.group(1))
    if re.fullmatch(r"\d+(?:\.\d+)?", text):
        return float(text)
    text = text.replace("-", " ")
    if text in ("a hundred", "one hundred"):
        return 100.0
    parts = text.split()
    if not parts:
        return None
    total = 0
    for part in parts:
        if part in _TENS:
            total += _TENS[part]
        elif part in _UNITS:
            total += _UNITS[part]
        else:
            return None
    return float(total)
