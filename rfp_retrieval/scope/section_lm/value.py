"""Contract value constraints of Section L/M ("$10-30M", "between $30 million and $75 million",
"at least $15 million", "approximately $25M"), read on the past-performance sentences with the
RFP-sentence money dialect of ``rfp_retrieval.quantities.money`` (``money_mentions``).
"""

from __future__ import annotations

import re

from rfp_retrieval.quantities.money import SentenceAmount, money_mentions, sentence_number
from rfp_retrieval.quantities.numbers import MONEY_NUMBER_WORD
from rfp_retrieval.scope.section_lm.records import (
    APPROX_BAND,
    PastPerformanceRequirements,
    ValueRange,
)
from rfp_retrieval.scope.section_lm.sentences import PP_STRONG, DocumentSentence, stated

_VALUE_CONTEXT = re.compile(r"\bvalue|\bvalued|\bsize\b|\bdollar|\$|million|billion", re.I)
_NOT_VALUE = re.compile(
    r"size standard|\bbudget\b|\bpric(?:e|ed|ing)\b|\bfee\b|\bgrants?\b|\bappropriat", re.I
)
_NO_MINIMUM = re.compile(
    r"\bno (?:minimum|maximum) (?:dollar |contract )?(?:value|amount|size)\b", re.I
)


# the stated amount is a value per year ("an annual value of $1 million or more", "$2 million
# per year"), not a total; "completed within a year" says nothing of the value
_ANNUAL = re.compile(
    r"\bannual(?:ized)? (?:contract |dollar )?(?:value|amount|spend)s?\b|"
    r"\b(?:value|amount|worth)s? (?:per|a|each) year\b|"
    r"\$\s?[\d.,]+(?:\s*(?:million|billion|thousand|mm|[MKB])\b)?\s*(?:per year|a year|each year|"
    r"annually|per annum|/\s?(?:yr|year))\b|\bper annum\b",
    re.I,
)


# an amount in another currency than the dollar ("EUR 5 million", "€5M", "£2.5 million",
# "5 million euros"): the library states USD, and no exchange rate is looked up at run time
_FOREIGN_AMOUNT = re.compile(
    r"(?:\b(?:EUR|GBP|CAD|AUD|CHF|JPY|NZD|SEK|NOK|DKK)\s?|[€£¥])\s?\d[\d.,]*"
    r"(?:\s*(?:million|billion|thousand|mn|bn|[MKB])\b)?|"
    r"\b\d[\d.,]*(?:\s*(?:million|billion|thousand))?\s*(?:euros?|pounds sterling|"
    r"(?:Canadian|Australian) dollars|(?:EUR|GBP|CAD|AUD|CHF)\b)",
    re.I,
)
FOREIGN_NOT_COMPARED = (
    "value stated in a currency other than USD: not compared with the library's USD values "
    "(no exchange rates at run time); check the reference's value by hand"
)
"""The trace's reading of a value bound in a foreign currency (``value_foreign``)."""


def read_value(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    """Set ``req.value`` from the first past-performance sentence stating a USD value bound
    (or ``no_value_constraint``). A bound stated only in another currency sets
    ``value_foreign`` (the first such sentence; ``FOREIGN_NOT_COMPARED``) and the search goes
    on for a USD one."""
    for s in sentences:
        text = s.text
        if not (s.pp or PP_STRONG.search(text)):
            continue
        if not _VALUE_CONTEXT.search(text) or _NOT_VALUE.search(text):
            continue
        if _NO_MINIMUM.search(text) and not money_mentions(text):
            req.no_value_constraint = stated(s, _NO_MINIMUM.search(text).group(0))
            return
        foreign = _FOREIGN_AMOUNT.search(text)
        if foreign is not None and not money_mentions(text):
            if req.value_foreign is None:
                req.value_foreign = stated(s, foreign.group(0))
            continue
        found = _value_from(text)
        if found is None:
            continue
        lo, hi, approx, phrase = found
        basis = "annual" if _ANNUAL.search(text) else "total"
        req.value = ValueRange(lo, hi, approx, basis, stated(s, phrase))
        return


# Bound words before an amount ("a minimum value of $6 million", "should not exceed $5
# million"); the filler between the bound word and the amount is short ("of", "a total of").
_FILLER = r"(?:\s+(?:of|a|an|the|total|contract|dollar|value|values|amount|size|in|each))*"
LOWER_WORDS = (
    r"at least|no less than|not less than|no smaller than|not smaller than|no lower than|"
    r"not lower than|not under|not below|no fewer than|a minimum|minimum|a floor of|"
    r"greater than|more than|exceeding|in excess of|over|upwards of|starting at|above"
)
UPPER_WORDS = (
    r"no more than|not more than|no greater than|not greater than|no larger than|"
    r"not larger than|not over|not above|not to exceed|not exceeding|(?:should|must|shall|may|"
    r"will|can|does|do|cannot) not exceed|cannot exceed|a maximum|maximum|a ceiling of|at most|"
    r"up to|less than|below|under"
)
_LOWER_BEFORE = re.compile(rf"\b(?:{LOWER_WORDS}){_FILLER}\s*$", re.I)
_UPPER_BEFORE = re.compile(rf"\b(?:{UPPER_WORDS}){_FILLER}\s*$", re.I)
_LOWER_AFTER = re.compile(
    r"^\s*(?:or (?:more|greater|above|higher|larger)|and (?:above|up)|"
    r"minimum\b)",
    re.I,
)
_UPPER_AFTER = re.compile(
    r"^\s*(?:or (?:less|lower|below|smaller)|and (?:below|under)|"
    r"maximum\b)",
    re.I,
)
_APPROX_BEFORE = re.compile(
    r"(?:approximately|approx\.?|about|around|roughly|circa|~|on the order of|comparable|"
    r"similar|in the neighborhood of)[^<]{0,40}$",
    re.I,
)
# "References below $2 million will not be considered": the amount is the floor
_EXCLUDED_BELOW = re.compile(
    r"(?:below|less than|under|lower than|smaller than) <(\d+)>[^.<]{0,60}?\b(?:not be "
    r"considered|not considered|considered not|not relevant|not be accepted|not accepted|"
    r"ineligible|not eligible|not qualify|do not count|does not count)(?: relevant)?",
    re.I,
)
_EXCLUDED_ABOVE = re.compile(
    r"(?:above|more than|over|greater than|larger than|exceeding|in excess of) <(\d+)>[^.<]{0,60}?"
    r"\b(?:not be considered|not considered|considered not|not relevant|not be accepted|"
    r"not accepted|ineligible|not eligible|not qualify|do not count|does not count)(?: relevant)?",
    re.I,
)


def _bound_before(before: str) -> str | None:
    """ "lo" or "hi" for the bound words that end ``before``; the longer phrase wins, so "no
    less than" is a floor although "less than" is a ceiling, and "not exceeding" a ceiling
    although "exceeding" is a floor."""
    lo, hi = _LOWER_BEFORE.search(before), _UPPER_BEFORE.search(before)
    if lo and hi:
        return "lo" if lo.start() < hi.start() else "hi"
    return "lo" if lo else "hi" if hi else None


def _distinct(text: str, mentions: list[SentenceAmount]) -> list[SentenceAmount]:
    """Drop an amount restated in figures right after its words ("two million dollars
    ($2,000,000)")."""
    out: list[SentenceAmount] = []
    for mm in mentions:
        if out:
            prev = out[-1]
            between = text[prev.end : mm.start]
            if (
                mm.value == prev.value
                and mm.upper == prev.upper
                and re.fullmatch(r"\s*\(\s*", between)
            ):
                continue
        out.append(mm)
    return out


def _value_from(text: str) -> tuple[int | None, int | None, int | None, str] | None:
    """(min, max, approx, phrase) stated in one sentence, or None when it states no value.

    Read in this order: "between ten and thirty million dollars"; a range ("$3 million to $10
    million", "from $3 million up to $10 million", "$10-30M"); an exclusion ("below $2 million
    will not be considered" is a floor); bound words before or after each amount (``LOWER_WORDS``
    / ``UPPER_WORDS``, "$5 million or more"); an approximate size ("approximately $25M", the
    band ``APPROX_BAND``). A floor and a ceiling in one sentence make one range.
    """
    mentions = _distinct(text, money_mentions(text))
    if not mentions:
        return None
    # placeholder text so the phrase patterns see "<0>", "<1>" instead of amounts
    parts: list[str] = []
    last = 0
    for i, mm in enumerate(mentions):
        parts.append(text[last : mm.start])
        parts.append(f" <{i}> ")
        last = mm.end
    parts.append(text[last:])
    shaped = re.sub(r"\s+", " ", "".join(parts))
    shaped = re.sub(r"\( ?(<\d+>) ?\)", r"\1", shaped)

    def amount(i: str | int) -> SentenceAmount:
        return mentions[int(i)]

    def phrase(*idx: str | int) -> str:
        ms = [amount(i) for i in idx]
        return text[min(m.start for m in ms) : max(m.end for m in ms)].strip()

    m = re.search(
        r"between (?P<a>\$?\s?\d[\d,.]*|" + MONEY_NUMBER_WORD + r") and <(?P<b>\d+)>", shaped, re.I
    )
    if m:  # "between ten and thirty million dollars": the first end borrows the scale
        b = amount(m.group("b"))
        first = sentence_number(m.group("a").replace("$", "").strip())
        if first is not None:
            scale = 1
            for s in (1_000_000_000, 1_000_000, 1_000):
                if b.value >= s and first < 1000:
                    scale = s
                    break
            return int(first * scale), b.value, None, m.group(0)
    m = re.search(
        r"<(\d+)> ?(?:-|\u2013|\u2014|to|through|thru|up to|and up to|and) ?<(\d+)>", shaped, re.I
    )
    if m:
        return amount(m.group(1)).value, amount(m.group(2)).value, None, phrase(*m.groups())
    for mm in mentions:
        if mm.upper is not None:
            return mm.value, mm.upper, None, text[mm.start : mm.end].strip()
    lo: int | None = None
    hi: int | None = None
    used: list[int] = []
    below, above = _EXCLUDED_BELOW.search(shaped), _EXCLUDED_ABOVE.search(shaped)
    if below or above:
        lo = amount(below.group(1)).value if below else None
        hi = amount(above.group(1)).value if above else None
        stated = " ".join(_restore(m.group(0), mentions, text) for m in (below, above) if m)
        return lo, hi, None, stated
    for i in range(len(mentions)):
        token = f"<{i}>"
        at = shaped.index(token)
        before, after = shaped[:at], shaped[at + len(token) :]
        bound = _bound_before(before)
        if bound is None:
            bound = (
                "hi" if _UPPER_AFTER.search(after) else "lo" if _LOWER_AFTER.search(after) else None
            )
        if bound == "hi" and hi is None:
            hi = amount(i).value
            used.append(i)
        elif bound == "lo" and lo is None:
            lo = amount(i).value
            used.append(i)
    if lo is not None or hi is not None:
        if lo is not None and hi is not None and lo > hi:
            lo, hi = hi, lo
        return lo, hi, None, _bound_phrase(text, mentions, used, shaped)
    for i in range(len(mentions)):
        at = shaped.index(f"<{i}>")
        if _APPROX_BEFORE.search(shaped[:at]):
            x = amount(i).value
            lo, hi = int(x * APPROX_BAND[0]), int(x * APPROX_BAND[1])
            m = _APPROX_BEFORE.search(shaped[:at])
            return lo, hi, x, _restore(shaped[m.start() : at + len(f"<{i}>")], mentions, text)
    return None


def _bound_phrase(text: str, mentions: list[SentenceAmount], used: list[int], shaped: str) -> str:
    """The words of the sentence from the first bound word to the last amount used."""
    first, last = min(used), max(used)
    start_tok, end_tok = shaped.index(f"<{first}>"), shaped.index(f"<{last}>") + len(f"<{last}>")
    before = shaped[:start_tok]
    m = _LOWER_BEFORE.search(before) or _UPPER_BEFORE.search(before)
    start = m.start() if m else start_tok
    after = shaped[end_tok:]
    m2 = _LOWER_AFTER.search(after) or _UPPER_AFTER.search(after)
    end = end_tok + (m2.end() if m2 else 0)
    return _restore(shaped[start:end], mentions, text)


def _restore(shaped: str, mentions: list[SentenceAmount], text: str) -> str:
    return re.sub(
        r"\s?<(\d+)>\s?",
        lambda m: (
            " "
            + text[mentions[int(m.group(1))].start : mentions[int(m.group(1))].end].strip()
            + " "
        ),
        shaped,
    ).strip()
