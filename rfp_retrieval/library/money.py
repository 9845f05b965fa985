"""Contract value cells of the past-performance library, in USD whole dollars.

The grammar (amounts, ranges, scales, number words) is ``rfp_retrieval.quantities.money``, shared
with the RFP reader; this module reads a library ``Contract Value`` cell with it:

- ``parse_contract_value(text)`` reads a library value cell into ``ContractValue``;
- ``value_defects(value)`` names what is wrong with a value (``missing-value``, ``min-above-max``);
- ``checked_value(value, text)`` makes an implausible amount unknown and marks a floor ("$5M+").

``find_amounts``, ``parse_amount``, ``MoneyMention``, ``SCALES``, ``UNIT_WORDS`` and
``TENS_WORDS`` stay importable from here.
"""

from __future__ import annotations

import re
from decimal import Decimal

from rfp_retrieval.library.records import ContractValue
from rfp_retrieval.quantities.money import (
    MoneyMention,
    find_amounts,
    unclear_amounts,
    whole_dollars,
)

__all__ = [
    "CEILING_LABELS",
    "FUNDED_LABELS",
    "MIN_ABOVE_MAX",
    "MISSING_VALUE",
    "MISSING_VALUE_WORDS",
    "FOREIGN_CURRENCY_CODES",
    "IMPLAUSIBLE_VALUE",
    "LOWER_BOUND_VALUE",
    "PLAUSIBLE_VALUE_LIMIT_USD",
    "SHARE_LABELS",
    "check_usd_amount_text",
    "checked_value",
    "implausible_value_defect",
    "is_plausible_amount",
    "parse_contract_value",
    "value_defects",
]

MISSING_VALUE = "missing-value"
MIN_ABOVE_MAX = "min-above-max"
IMPLAUSIBLE_VALUE = "implausible-value"
LOWER_BOUND_VALUE = "lower-bound-value"
PLAUSIBLE_VALUE_LIMIT_USD = 100_000_000_000
"""A contract value above USD 100 billion is taken for a typing or unit error: it is above the
ceiling of the largest government-wide IT contract vehicles (GSA Alliant 2: $75 billion). Such a
value is read as unknown (``checked_value``), never ranked or stored as a figure (a 23-digit
value did not fit the store and stopped the whole library: break-it)."""
# Wording that makes an amount a floor: "$5M+", "$5M or more", "over $5M", "at least $5M".
_LOWER_BOUND_RE = re.compile(
    r"\d\s*[kmb]?\s*\+|\bor (?:more|greater|above|higher)\b|\b(?:over|above|more than|"
    r"greater than|at least|in excess of|exceeding|minimum of|no less than|not less than)\s+\$?\d",
    re.IGNORECASE,
)

# Cells that say "no value yet" rather than giving a wrong one: read as unknown (None/None).
MISSING_VALUE_WORDS = frozenset(
    {"", "tbd", "tba", "n/a", "na", "none", "unknown", "pending", "not available", "-", "—", "?"}
)

# Labels that say which role an amount plays in a contract value cell.
CEILING_LABELS = (
    "ceiling",
    "not to exceed",
    "nte",
    "maximum",
    "max",
    "total potential",
    "potential",
)
FUNDED_LABELS = ("funded", "obligated", "obligation")
SHARE_LABELS = ("our share", "share")


def _labels_near(text: str, mentions: list[MoneyMention]) -> list[set[str]]:
    """Attach each role label ("ceiling", "funded"...) to the amount it describes.

    A label followed by ``:`` describes the next amount (``Ceiling: $16.5M``); otherwise it
    describes the amount before it (``$9.8M ceiling``, ``$38.2M (our share)``).
    """
    labels: list[set[str]] = [set() for _ in mentions]
    lowered = text.lower()
    for role, names in (
        ("ceiling", CEILING_LABELS),
        ("funded", FUNDED_LABELS),
        ("share", SHARE_LABELS),
    ):
        for name in names:
            for match in re.finditer(rf"\b{re.escape(name)}\b", lowered):
                if any(m.start <= match.start() < m.end for m in mentions):
                    continue
                after = [k for k, m in enumerate(mentions) if m.start >= match.end()]
                before = [k for k, m in enumerate(mentions) if m.end <= match.start()]
                gap_to_next = lowered[match.end() : mentions[after[0]].start] if after else None
                if after and gap_to_next is not None and re.fullmatch(r"[\s:=]*", gap_to_next):
                    labels[after[0]].add(role)
                elif before:
                    labels[before[-1]].add(role)
                elif after:
                    labels[after[0]].add(role)
    return labels


# Currencies other than US dollars, as written next to an amount: ISO 4217 codes of the
# currencies a contractor's books are likely kept in, their signs, and dollars of other
# countries (C$, A$...). A library value is compared with the RFP's value band in USD, so an
# amount in one of these is reported, never read as dollars.
FOREIGN_CURRENCY_CODES = frozenset(
    {
        "EUR", "GBP", "CAD", "AUD", "NZD", "JPY", "CHF", "CNY", "RMB", "INR", "MXN", "BRL",
        "SEK", "NOK", "DKK", "PLN", "ZAR", "SGD", "HKD", "KRW", "ILS", "AED", "SAR",
    }
)  # fmt: skip
_FOREIGN_CURRENCY_RE = re.compile(
    r"(?P<sign>[€£¥₹₩₪])"
    r"|(?<![A-Za-z])(?P<dollar>C|CA|A|AU|NZ|HK|S|SG|NT|R|MX)\$"
    rf"|\b(?P<code>{'|'.join(sorted(FOREIGN_CURRENCY_CODES))})\b"  # upper case: codes
    r"|\b(?P<word>(?i:euros?|pounds sterling|yen|rupees))(?![-\w])"
)
# A minus sign before an amount ("-$500K", "$-500,000", "−1.2M") or an accountant's
# parentheses around the whole cell ("($500,000)"): a negative value (a de-obligation, a
# credit) is not what a contract is worth.
_NEGATIVE_RE = re.compile(
    r"^[-−‒–]\s*(?:US\$|\$|USD)?\s*[\d.]"
    r"|(?:US\$|\$|USD)\s*[-−]\s*\d"
    r"|^\(\s*(?:US\$|\$|USD)?\s*[\d.,]+\s*(?:[KMB]|MM|million|thousand|billion)?\s*\)$",
    re.IGNORECASE,
)


# A spreadsheet formula saved as text without its computed value ("=SUM(A1:A2)", "=B4*2")
_FORMULA_RE = re.compile(r"^\s*=\s*[A-Za-z(]")
# A number in scientific notation ("1e15", "$2.5E+06"), as a sheet shows a too-wide number
_SCIENTIFIC_RE = re.compile(r"(?<![\w.])\d+(?:\.\d+)?[eE][+-]?\d+(?![\w.])")


def check_usd_amount_text(text: str) -> None:
    """Raise ``ValueError`` when a library value text is not a plain amount in US dollars: it
    names another currency (``EUR 1.2M``, ``€1.2M``, ``$1.2M CAD``, ``C$4M``: the message says
    which and asks for USD), is negative (``-$500K``, ``$-500,000``, ``($500,000)``), is a
    spreadsheet formula saved without its value (``=SUM(A1:A2)``) or a number in scientific
    notation (``1e15``: a too-wide number as a sheet shows it). Other
    text passes (the grammar then reads or rejects it). Rule: a past-performance value is
    compared with the RFP's value band, which is in USD, and what a contract is worth is never
    below zero."""
    foreign = _FOREIGN_CURRENCY_RE.search(text)
    if foreign:
        raise ValueError(
            f"contract value {text!r} is in {foreign.group().strip()}, not US dollars: convert "
            "it to USD (e.g. $1.3M) so it can be compared with an RFP's value range"
        )
    if _FORMULA_RE.match(text):
        raise ValueError(
            f"contract value {text!r} is a spreadsheet formula saved without its value: save "
            "the computed amount (e.g. $3,700,000) in the cell, or export the sheet with values"
        )
    sci = _SCIENTIFIC_RE.search(text)
    if sci:
        raise ValueError(
            f"contract value {text!r} is a number in scientific notation ({sci.group()}): "
            "write the amount in dollars, e.g. $12.5M or $3,700,000"
        )
    if _NEGATIVE_RE.search(text.strip()):
        raise ValueError(
            f"contract value {text!r} is negative: give what the contract is worth in USD "
            "(a de-obligation or credit is not a contract value)"
        )


def parse_contract_value(text: str | int | float | Decimal | None) -> ContractValue:
    """Read a contract value cell into ``ContractValue`` (USD whole dollars).

    - one amount (``$3.1M``, ``17.2 million``, ``~$6.1M``): ``min == max``;
    - a range (``$8M–$14M (ceiling)``, ``$9,100,000 - $24,000,000``, ``$5-8M``): min, max as
      written (``$27.8M–$19.6M`` stays 27.8M..19.6M; ``value_defects`` reports it);
    - two labelled amounts: the ceiling is max, the other is min; a funded/obligated amount is
      also ``funded`` (``Funded: $11.8M; Ceiling: $16.5M``, ``$3.2M obligated / $9.8M ceiling``,
      ``$38.2M (our share) of $412M ceiling``);
    - empty, ``TBD``, ``N/A``...: ``ContractValue(None, None)`` (a ``missing-value`` defect).

    Numbers (from a spreadsheet cell) are dollars. European grouping is read where it is
    unambiguous (``$1.234.567``, ``$12,5M``). Raises ``ValueError`` naming the text when a
    number's grouping or decimal mark is unclear (``$1.234``, ``$12,5``: the message says which
    number and how to write it), when it holds no amount, more than two, or two that are not
    told apart by a "ceiling" label, and when it is in another currency or negative
    (``check_usd_amount_text``; a negative or non-finite number cell too).
    Source: the library spreadsheet's value column (data/README.md) and seed 1 (value {min, max}).
    """
    if text is None:
        return ContractValue(None, None)
    if isinstance(text, bool):
        raise ValueError(f"contract value {text!r} is not a dollar amount")
    if isinstance(text, int | float | Decimal):
        if text != text or text in (float("inf"), float("-inf")):
            raise ValueError(f"contract value {text!r} is not a dollar amount")
        if text < 0:
            raise ValueError(
                f"contract value {text!r} is negative: give what the contract is worth in USD "
                "(a de-obligation or credit is not a contract value)"
            )
        amount = whole_dollars(Decimal(str(text)), None)
        return ContractValue(amount, amount)
    cleaned = " ".join(text.split())
    if cleaned.lower().strip(" .") in MISSING_VALUE_WORDS:
        return ContractValue(None, None)
    check_usd_amount_text(cleaned)
    unclear = unclear_amounts(cleaned)
    if unclear:
        raise ValueError(f"contract value {text!r} is not clear: {'; '.join(unclear)}")
    mentions = find_amounts(cleaned, require_currency=False)
    if not mentions:
        raise ValueError(
            f"no dollar amount in contract value {text!r}: "
            "write it like $12.5M, $3,700,000 or $8M–$14M (ceiling)"
        )
    labels = _labels_near(cleaned, mentions)
    if len(mentions) == 1:
        only = mentions[0]
        funded = only.value if "funded" in labels[0] and not only.is_range else None
        upper = only.upper if only.upper is not None else only.value
        return ContractValue(only.value, upper, funded=funded)
    if len(mentions) > 2 or any(m.is_range for m in mentions):
        raise ValueError(
            f"contract value {text!r} has more amounts than a funded/ceiling pair: "
            "give one amount, one range, or 'Funded: $X; Ceiling: $Y'"
        )
    ceiling = [k for k in range(2) if "ceiling" in labels[k]]
    if len(ceiling) != 1:
        raise ValueError(
            f"contract value {text!r} has two amounts and it is not clear which is the ceiling: "
            "label it, e.g. 'Funded: $X; Ceiling: $Y' or '$X obligated / $Y ceiling'"
        )
    high = mentions[ceiling[0]]
    low_index = 1 - ceiling[0]
    low = mentions[low_index]
    funded = low.value if "funded" in labels[low_index] else None
    return ContractValue(low.value, high.value, funded=funded)


def value_defects(value: ContractValue) -> list[str]:
    """Defect codes for a contract value: ``missing-value`` when unknown, ``min-above-max``."""
    if value.min is None and value.max is None:
        return [MISSING_VALUE]
    if value.min is not None and value.max is not None and value.min > value.max:
        return [MIN_ABOVE_MAX]
    return []


def is_plausible_amount(amount: int | float | Decimal) -> bool:
    """False for a dollar amount (USD) that is no contract's worth: larger than
    ``PLAUSIBLE_VALUE_LIMIT_USD`` ($100B, either sign), infinite or not a number (a JSON
    ``1e309`` reads as infinity). The one rule ``checked_value`` and the award importer
    apply."""
    if amount != amount:  # NaN
        return False
    return -PLAUSIBLE_VALUE_LIMIT_USD <= amount <= PLAUSIBLE_VALUE_LIMIT_USD


def implausible_value_defect(written: str) -> str:
    """The ``implausible-value (<text>)`` defect of an amount written ``written`` (its first 40
    characters: the code ``quality`` reads the text back from)."""
    return f"{IMPLAUSIBLE_VALUE} ({' '.join(written.split())[:40]})"


def checked_value(value: ContractValue, text: object) -> tuple[ContractValue, list[str]]:
    """``value`` (read from the cell ``text``) made safe to rank on, and its defect codes.

    - an amount above ``PLAUSIBLE_VALUE_LIMIT_USD`` ($100B) is a typo: the value becomes
      unknown (``ContractValue(None, None)``) with ``implausible-value (<text>)``, so the entry
      is ranked with its value unknown rather than as the largest contract in the library;
    - an amount written as a floor (``$5M+``, ``$5M or more``, ``over $5M``) keeps the amount
      and gets ``lower-bound-value (<text>)``: the library owner should give the figure;
    - then ``value_defects`` (``missing-value``, ``min-above-max``).
    Never raises. Source: break-it (a 23-digit value was stored and ranked).
    """
    written = " ".join(str(text).split()) if text is not None else ""
    amounts = (v for v in (value.min, value.max, value.funded) if v is not None)
    if not all(is_plausible_amount(v) for v in amounts):
        return ContractValue(None, None), [implausible_value_defect(written)]
    defects = []
    if written and _LOWER_BOUND_RE.search(written):
        defects.append(f"{LOWER_BOUND_VALUE} ({written[:40]})")
    return value, defects + value_defects(value)
