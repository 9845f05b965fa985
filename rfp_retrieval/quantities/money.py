"""The money grammar: dollar amounts as proposal people write them, in USD whole dollars.

One grammar serves the past-performance library (``Contract Value`` cells such as
``$8M–$14M (ceiling)`` or ``Funded: $11.8M; Ceiling: $16.5M``, read by
``library.money.parse_contract_value``) and the RFP side (value constraints such as ``$10-30M``
or ``between ten and thirty million dollars``, read by ``scope.section_lm``):

- ``find_amounts(text)`` finds every amount or range in free text, with its span;
- ``parse_amount(text)`` reads a text that is exactly one amount;
- ``unclear_amounts(text)`` says which numbers could not be read and why (European grouping
  is read only where it cannot be anything else: ``_read_number``).

The number words (``UNIT_WORDS``, ``TENS_WORDS``) live in ``quantities.numbers``.
Arithmetic is done in ``Decimal`` so ``$12.3M`` is 12_300_000 exactly, never 12_299_999.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from rfp_retrieval.quantities.numbers import (
    MONEY_NUMBER_WORD,
    TENS_WORDS,
    UNIT_WORDS,
    word_to_number,
)

SCALES: dict[str, int] = {
    "k": 1_000,
    "thousand": 1_000,
    "m": 1_000_000,
    "mm": 1_000_000,
    "mil": 1_000_000,
    "mill": 1_000_000,
    "million": 1_000_000,
    "millions": 1_000_000,
    "mn": 1_000_000,
    "mio": 1_000_000,  # European: "1,2 Mio", "1.2 Mio."
    "mln": 1_000_000,
    "mrd": 1_000_000_000,  # European: Milliarde
    "b": 1_000_000_000,
    "bn": 1_000_000_000,
    "billion": 1_000_000_000,
    "billions": 1_000_000_000,
}

APPROX_WORDS = frozenset({"approximately", "approx", "about", "around", "roughly", "circa", "est"})
RANGE_WORDS = frozenset({"to", "through", "thru"})

_TOKEN_RE = re.compile(
    r"(?P<cur>US\$|\$)"
    r"|(?P<num>\d[\d.,]*\d|\d|\.\d+)"  # read by _read_number: grouping and decimal mark
    r"|(?P<word>[A-Za-z]+)"
    r"|(?P<dash>[-–—‒―])"
    r"|(?P<other>\S)"
)


@dataclass(frozen=True)
class _Token:
    kind: str  # cur | num | word | dash | other
    text: str
    start: int
    end: int

    @property
    def lower(self) -> str:
        return self.text.lower()


@dataclass(frozen=True)
class MoneyMention:
    """One dollar amount, or one range, found in text (USD whole dollars).

    ``value`` is the amount (the first end of a range, as written); ``upper`` is the second end of
    a range as written (None for a single amount; ``upper < value`` is possible and is reported
    by callers, never swapped). ``start``/``end`` index ``text`` in the searched string.
    ``approximate`` is True when written with ``~``, "about", "approximately"...
    """

    value: int
    upper: int | None
    start: int
    end: int
    text: str
    approximate: bool = False

    @property
    def is_range(self) -> bool:
        return self.upper is not None


@dataclass(frozen=True)
class _Atom:
    number: Decimal
    scale: int | None
    currency: bool  # "$", "US$" or "USD" before, or "dollars"/"USD" after
    words: bool  # written in words ("ten")
    grouped: bool  # written with thousands separators ("3,700,000")
    start: int
    end: int
    next_index: int
    approximate: bool


# How digits are grouped and where the decimal mark is (rules of ``_read_number``).
_US_GROUPED = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_PLAIN = re.compile(r"\d+(?:\.\d+)?|\.\d+")
_DOT_GROUPED = re.compile(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?")
_DECIMAL_COMMA = re.compile(r"\d+,\d+")


class UnclearNumber(ValueError):
    """Digits whose grouping or decimal mark could be read two ways (or none); the message
    says what was not understood and how to write it."""


def _read_number(text: str, *, scaled: bool) -> tuple[Decimal, bool]:
    """The value of a number token and whether it is written with thousands groups.

    US style (``3,700,000``, ``12.5``) is read as written. European style is read only where it
    cannot be anything else: dots between groups of exactly three digits, at least two of them
    or followed by a decimal comma (``1.234.567``, ``1.234.567,50``, ``1.234,5``); a decimal
    comma right before a scale word (``12,5M``, ``12,5 million``). ``scaled`` says a scale word
    follows. Raises ``UnclearNumber`` for the rest: ``1.234`` without a scale (1,234 dollars or
    1.234 dollars?), ``12,5`` without a scale, ``1,500M`` (1,500 million or 1.5 million?), and
    separators of neither style (``1,23,456``).
    """
    if _PLAIN.fullmatch(text):
        whole, _, fraction = text.partition(".")
        if len(fraction) == 3 and 1 <= len(whole) <= 3 and not scaled:
            raise UnclearNumber(
                f"{text!r} could be {whole},{fraction} dollars (a dot between thousands) or "
                f"{text} dollars (a decimal point): write {whole},{fraction}"
            )
        return Decimal(text), False
    if _US_GROUPED.fullmatch(text):
        if scaled and text.count(",") == 1 and "." not in text:
            decimal = Decimal(text.replace(",", ".")).normalize()
            raise UnclearNumber(
                f"{text!r} before a scale word could be {text} (a comma between thousands) or "
                f"{decimal} (a decimal comma): write {decimal} with a decimal point, or the "
                "whole amount in digits"
            )
        return Decimal(text.replace(",", "")), True
    if _DOT_GROUPED.fullmatch(text) and (text.count(".") >= 2 or "," in text):
        return Decimal(text.replace(".", "").replace(",", ".")), True
    if _DECIMAL_COMMA.fullmatch(text):
        if scaled:
            return Decimal(text.replace(",", ".")), False
        raise UnclearNumber(
            f"{text!r} has a decimal comma but no scale word after it (a decimal comma is read "
            f"only as in 12,5M): write {text.replace(',', '.')} with a decimal point"
        )
    raise UnclearNumber(
        f"{text!r} is grouped neither as 3,700,000 nor as 3.700.000: write the amount as "
        "3,700,000 or $3.7M"
    )


def _scale_at(tokens: list[_Token], i: int) -> int | None:
    """The scale written at ``tokens[i]`` right after a number, or None. A scale letter
    touches the number ("$5M") or is upper case ("$5 M"), so "5 m" (metres) is not five
    million; scale words may stand apart."""
    if i < len(tokens) and tokens[i].kind == "word" and tokens[i].lower in SCALES:
        touching = tokens[i].start == tokens[i - 1].end
        if len(tokens[i].text) > 1 or touching or tokens[i].text.isupper():
            return SCALES[tokens[i].lower]
    return None


def unclear_amounts(text: str) -> list[str]:
    """What could not be read in ``text`` as an amount: one message per number whose grouping
    or decimal mark is unclear (``_read_number``), e.g. ``'12,5' has a decimal comma without a
    scale word: ...``; ``[]`` when every number is understood. ``find_amounts`` skips such
    numbers; readers of a cell known to hold a value report them. Never raises."""
    tokens = _tokenize(text)
    found = []
    for i, token in enumerate(tokens):
        if token.kind != "num":
            continue
        try:
            _read_number(token.text, scaled=_scale_at(tokens, i + 1) is not None)
        except UnclearNumber as error:
            found.append(str(error))
    return found


# "$2 000 000", "$2 000 000" (no-break or thin spaces: ISO 80000 digit groups), "$2'000'000"
# (Swiss): after a currency sign, groups of three digits set apart by a space or an apostrophe
# are one number. Read as "$2,000,000" (break-it: "$2 000 000" read as $2). Without the sign a
# spaced number stays separate numbers ("Phase 1 100 users").
_SPACED_GROUPS_RE = re.compile(
    r"(?:US\$|\$)[ \u00a0\u202f]?\d{1,3}(?:[ \u00a0\u2009\u202f'\u2019]\d{3})+(?:\.\d{1,2})?"
    r"(?![\d.,])"
)
_GROUP_SEPARATORS = str.maketrans(dict.fromkeys(" \u00a0\u2009\u202f'\u2019", ","))
_SIGN_SPACE = " \u00a0\u202f"


def _with_comma_groups(text: str) -> str:
    """``text`` with spaced digit groups after a currency sign written with commas (the same
    length, so spans stay those of ``text``)."""

    def commas(match: re.Match[str]) -> str:
        sign, _, rest = match.group().partition("$")
        lead = len(rest) - len(rest.lstrip(_SIGN_SPACE))
        return f"{sign}${rest[:lead]}{rest[lead:].translate(_GROUP_SEPARATORS)}"

    return _SPACED_GROUPS_RE.sub(commas, text)


def _tokenize(text: str) -> list[_Token]:
    tokens = []
    for match in _TOKEN_RE.finditer(_with_comma_groups(text)):
        kind = match.lastgroup or "other"
        tokens.append(_Token(kind, match.group(), match.start(), match.end()))
    return tokens


def _is_currency_word(token: _Token) -> bool:
    return token.kind == "word" and token.lower in {"usd", "dollars", "dollar"}


def _read_words(tokens: list[_Token], i: int) -> tuple[int, int] | None:
    """Read an English number below 1000 ("thirty", "twenty-five", "one hundred and five")."""
    total = 0
    last: str | None = None  # "unit" | "teen" | "tens" | "hundred"
    j = i
    end_index = i
    while j < len(tokens):
        token = tokens[j]
        word = token.lower if token.kind == "word" else ""
        if word in UNIT_WORDS:
            value = UNIT_WORDS[word]
            allowed = last in (None, "hundred") or (last == "tens" and 0 < value < 10)
            if not allowed:
                break
            total += value
            last = "unit" if value < 10 else "teen"
        elif word in TENS_WORDS:
            if last not in (None, "hundred"):
                break
            total += TENS_WORDS[word]
            last = "tens"
        elif word == "hundred":
            if last != "unit" or total % 100 == 0:
                break
            total = (total - total % 100) + (total % 100) * 100
            last = "hundred"
        elif (
            token.kind == "dash"
            and last == "tens"
            and j + 1 < len(tokens)
            and tokens[j + 1].lower in UNIT_WORDS
            and 0 < UNIT_WORDS[tokens[j + 1].lower] < 10
        ):
            j += 1  # "twenty-five"
            continue
        elif word == "and" and last == "hundred" and j + 1 < len(tokens):
            nxt = tokens[j + 1].lower
            if nxt in UNIT_WORDS or nxt in TENS_WORDS:
                j += 1
                continue
            break
        else:
            break
        j += 1
        end_index = j
    if last is None:
        return None
    return total, end_index


def _read_atom(tokens: list[_Token], i: int) -> _Atom | None:
    """Read ``[~|about] [$|USD] (number|words) [scale] [dollars|USD]`` starting at ``tokens[i]``."""
    start_i = i
    approximate = False
    if i < len(tokens) and (tokens[i].text == "~" or tokens[i].lower in APPROX_WORDS):
        approximate = True
        i += 1
        if i < len(tokens) and tokens[i].text == ".":
            i += 1
    currency = False
    if i < len(tokens) and (tokens[i].kind == "cur" or tokens[i].lower == "usd"):
        currency = True
        i += 1
    if i >= len(tokens):
        return None
    token = tokens[i]
    words = False
    grouped = False
    if token.kind == "num":
        try:
            number, grouped = _read_number(token.text, scaled=_scale_at(tokens, i + 1) is not None)
        except (UnclearNumber, InvalidOperation):  # reported by unclear_amounts
            return None
        i += 1
    else:
        read = _read_words(tokens, i)
        if read is None:
            return None
        value, i = read
        number = Decimal(value)
        words = True
    scale = _scale_at(tokens, i)
    if scale is not None:
        i += 1
    if i < len(tokens) and _is_currency_word(tokens[i]):
        currency = True
        i += 1
    first = tokens[start_i]
    return _Atom(
        number=number,
        scale=scale,
        currency=currency,
        words=words,
        grouped=grouped,
        start=first.start,
        end=tokens[i - 1].end,
        next_index=i,
        approximate=approximate,
    )


def whole_dollars(number: Decimal, scale: int | None) -> int:
    """``number * scale`` in USD whole dollars, rounded half up (``12.3`` M is 12_300_000)."""
    amount = number * (scale or 1)
    return int(amount.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _qualifies(atom: _Atom, *, currency: bool, scale: int | None, require_currency: bool) -> bool:
    if require_currency:
        return currency
    if atom.words:
        return currency or scale is not None
    return True


def find_amounts(text: str, *, require_currency: bool = True) -> list[MoneyMention]:
    """Every dollar amount or range in ``text``, in order of appearance (USD whole dollars).

    Grammar (shared by the library and the RFP reader):
    amount = ``[~|about|approximately] [$|US$|USD] number [K|M|MM|B|thousand|million|billion]
    [dollars|USD]``, where number is digits (``3,700,000``, ``12.5``) or English words below a
    thousand (``ten``, ``twenty-five``, ``one hundred``); range = ``amount (-|–|—|to|through)
    amount``, ``between amount and amount`` or ``from amount to amount``. In a range, a scale or
    currency written once applies to both ends (``$5-8M`` is 5,000,000..8,000,000; ``between ten
    and thirty million dollars`` is 10,000,000..30,000,000) when the first end is a bare number
    below 1000.

    With ``require_currency`` (the default, for free text) an amount needs ``$``/``USD``/
    ``dollars`` so "28 million calls" is not money; without it (a cell known to hold a value)
    bare numbers and ``17.2 million`` count. Never raises.
    """
    tokens = _tokenize(text)
    mentions: list[MoneyMention] = []
    i = 0
    while i < len(tokens):
        atom = _read_atom(tokens, i)
        if atom is None:
            i += 1
            continue
        between = i > 0 and tokens[i - 1].lower in {"between", "from"}
        ranged = _read_range(text, tokens, atom, between=between, require_currency=require_currency)
        if ranged is not None:
            mention, next_index = ranged
            if between:  # the span covers "between ... and ..."
                start = tokens[i - 1].start
                mention = replace(mention, start=start, text=text[start : mention.end])
            i = next_index
            mentions.append(mention)
            continue
        if _qualifies(
            atom, currency=atom.currency, scale=atom.scale, require_currency=require_currency
        ):
            mentions.append(
                MoneyMention(
                    value=whole_dollars(atom.number, atom.scale),
                    upper=None,
                    start=atom.start,
                    end=atom.end,
                    text=text[atom.start : atom.end],
                    approximate=atom.approximate,
                )
            )
            i = atom.next_index
        else:
            i += 1
    return mentions


def _read_range(
    text: str, tokens: list[_Token], low: _Atom, *, between: bool, require_currency: bool
) -> tuple[MoneyMention, int] | None:
    j = low.next_index
    if j >= len(tokens):
        return None
    connector = tokens[j]
    is_connector = (
        connector.kind == "dash"
        or connector.lower in RANGE_WORDS
        or (between and connector.lower == "and")
    )
    if not is_connector:
        return None
    high = _read_atom(tokens, j + 1)
    if high is None:
        return None
    if require_currency and not (high.currency or high.scale is not None):
        return None  # "$5M to 2023" is an amount and a year, not a range
    low_scale = low.scale
    if low_scale is None and high.scale is not None and not low.grouped and low.number < 1000:
        low_scale = high.scale  # "$5-8M", "$10–30M", "ten and thirty million"
    high_scale = high.scale
    currency = low.currency or high.currency
    if not (
        _qualifies(low, currency=currency, scale=low_scale, require_currency=require_currency)
        and _qualifies(high, currency=currency, scale=high_scale, require_currency=require_currency)
    ):
        return None
    if low.words != high.words and low_scale is None:
        return None
    mention = MoneyMention(
        value=whole_dollars(low.number, low_scale),
        upper=whole_dollars(high.number, high_scale),
        start=low.start,
        end=high.end,
        text=text[low.start : high.end],
        approximate=low.approximate or high.approximate,
    )
    return mention, high.next_index


def parse_amount(text: str) -> int:
    """Read a text that is exactly one dollar amount; returns USD whole dollars.

    Accepts ``$12.5M``, ``12.5 million``, ``$385K``, ``$3,700,000``, ``~$6.1M``,
    ``USD34.6 million``, ``ten million dollars``, a bare ``3700000``, and European grouping
    where it is unambiguous (``$1.234.567``, ``$12,5M``; ``_read_number``).
    Raises ``ValueError`` naming the text when it holds no amount, a range or several amounts,
    or a number whose grouping or decimal mark is unclear (``unclear_amounts``).
    """
    unclear = unclear_amounts(text)
    if unclear:
        raise ValueError(f"amount {text!r} is not clear: {'; '.join(unclear)}")
    mentions = find_amounts(text, require_currency=False)
    if len(mentions) != 1 or mentions[0].is_range:
        found = ", ".join(m.text for m in mentions) or "none"
        raise ValueError(
            f"expected one dollar amount in {text!r}, found {found}: "
            "write it like $12.5M, $385K or $3,700,000"
        )
    return mentions[0].value


# --------------------------------------------------------------------------------------------
# the RFP-sentence dialect (Section L/M value constraints)
#
# The Section L/M reader still reads amounts with this older dialect of the grammar: on the
# corpus (rfps*, 800 sentences with a value cue) it reads 34 sentences differently from
# ``find_amounts``, so it is kept, named, until a measured change retires it. It differs in:
# "between $A and $B" is two amounts (the value reader's phrase rules pair them); a lower-case
# single-letter scale never counts ("$100k" is $100, "$25k" is $25); a scale after a range
# multiplies both ends even when the first is grouped ("$1,000,001-$2 million" reads
# 1,000,001,000,000); an English number needs a scale word or a currency; spans may end in
# spaces; "3 Dollar Values" is no amount; ``~`` and "about" are not part of the span.

SENTENCE_SCALES = {
    "k": 1_000,
    "thousand": 1_000,
    "m": 1_000_000,
    "mm": 1_000_000,
    "mil": 1_000_000,
    "million": 1_000_000,
    "b": 1_000_000_000,
    "bn": 1_000_000_000,
    "billion": 1_000_000_000,
}
_SENTENCE_MONEY = re.compile(
    r"(?P<cur>\$|US\$|USD\s?)?\s*(?P<num>\d[\d,]*(?:\.\d+)?|" + MONEY_NUMBER_WORD + r")"
    r"(?:\s*(?P<dash>[-\u2013\u2014]|to)\s*(?P<cur2>\$)?\s*(?P<num2>\d[\d,]*(?:\.\d+)?))?"
    r"\s*(?P<scale>thousand|million|billion|mil|MM|bn|[KMB])?\b(?:\s*(?P<dollars>dollars|USD))?",
    re.I,
)


@dataclass(frozen=True)
class SentenceAmount:
    """One amount of the RFP-sentence dialect: its span in the text and its value in USD whole
    dollars (``upper``: the second end of a ``$10-30M`` range, else None)."""

    start: int
    end: int
    value: int
    upper: int | None  # "$10-30M" shorthand: both ends in one mention


def money_mentions(text: str) -> list[SentenceAmount]:
    """Dollar amounts in ``text`` (USD whole dollars), including ``$10-30M`` shorthand ranges.

    An amount needs ``$``/``USD``/``dollars``, or a scale word after an English number
    ("thirty million"). The RFP-sentence dialect (see the comment above ``SENTENCE_SCALES``:
    how it differs from ``find_amounts``); used by ``scope.section_lm``. Never raises.
    """
    out: list[SentenceAmount] = []
    for m in _SENTENCE_MONEY.finditer(text):
        cur = m.group("cur") or m.group("cur2")
        scale_text = (m.group("scale") or "").lower()
        if scale_text in ("k", "m", "b") and m.group("scale") not in ("K", "M", "B"):
            scale_text = ""  # lower-case single letters are not scales
        num = m.group("num")
        is_word = not num[0].isdigit()
        if not (cur or m.group("dollars") or (is_word and scale_text)):
            continue
        if scale_text and not (cur or m.group("dollars")) and not is_word:
            continue
        scale = SENTENCE_SCALES.get(scale_text, 1)
        first = sentence_number(num)
        if first is None:
            continue
        upper = None
        if m.group("num2"):
            second = sentence_number(m.group("num2"))
            if second is None:
                continue
            upper = int(round(second * scale))
        out.append(SentenceAmount(m.start(), m.end(), int(round(first * scale)), upper))
    return out


def sentence_number(text: str) -> float | None:
    """A number written as digits (``1,000.5``) or English words (``thirty``), or None."""
    if text[0].isdigit():
        try:
            return float(text.replace(",", ""))
        except ValueError:
            return None
    return word_to_number(text)
