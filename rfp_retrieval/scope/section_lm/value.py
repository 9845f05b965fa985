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


def read_value(sentences: list[DocumentSentence], req: PastPerformanceRequirements) -> None:
    for s in sentences:
        text = s.text
        if not (s.pp or PP_STRONG.search(text)):
            continue
        if not _VALUE_CONTEXT.search(text) or _NOT_VALUE.search(text):
            continue
        if _NO_MINIMUM.search(text) and not money_mentions(text):
            req.no_value_constraint = stated(s, _NO_MINIMUM.search(text).group(0))
            return
        found = _value_from(text)
        if found is None:
            continue
        lo, hi, approx, phrase = found
        basis = (
            "annual"
            if re.search(r"\bannual(?:ly)?\b|per year|each year|a year", text, re.I)
            else "total"
        )
        req.value = ValueRange(lo, hi, approx, basis, stated(s, phrase))
        return


def _value_from(text: str) -> tuple[int | None, int | None, int | None, str] | None:
    """(min, max, approx, phrase) stated in one sentence, or None when it states no value."""
    mentions = money_mentions(text)
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

    def amount(i: str) -> SentenceAmount:
        return mentions[int(i)]

    def phrase(*idx: str) -> str:
        ms = [amount(i) for i in idx]
        return text[min(m.start for m in ms) : max(m.end for m in ms)].strip()

    m = re.search(
        r"(?:at least|no less than|not less than|a minimum of|minimum of) <(\d)> (?:and|but) "
        r"(?:no more than|not more than|not to exceed|not exceeding|a maximum of|less than) <(\d)>",
        shaped,
        re.I,
    )
    if m:
        return amount(m.group(1)).value, amount(m.group(2)).value, None, phrase(*m.groups())
    m = re.search(
        r"between (?P<a>\$?\s?\d[\d,.]*|" + MONEY_NUMBER_WORD + r") and <(?P<b>\d)>", shaped, re.I
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
    m = re.search(r"(?:between )?<(\d)> ?(?:-|\u2013|\u2014|to|through|and) ?<(\d)>", shaped, re.I)
    if m:
        return amount(m.group(1)).value, amount(m.group(2)).value, None, phrase(*m.groups())
    for mm in mentions:
        if mm.upper is not None:
            return mm.value, mm.upper, None, text[mm.start : mm.end].strip()
    m = re.search(
        r"(?:below|less than|under|lower than) <(\d)>[^.]{0,60}?\b(?:not be considered|not "
        r"considered|considered not relevant|considered not|not relevant|not be accepted|"
        r"ineligible|not eligible)",
        shaped,
        re.I,
    )
    if m:
        return (
            amount(m.group(1)).value,
            None,
            None,
            m.group(0).replace(f" <{m.group(1)}> ", f" {phrase(m.group(1))} ").strip(),
        )
    m = re.search(
        r"(?:no more than|not more than|not to exceed|not exceeding|a maximum of|maximum of) "
        r"<(\d)>",
        shaped,
        re.I,
    )
    if m:
        return None, amount(m.group(1)).value, None, _restore(m.group(0), mentions, text)
    m = re.search(
        r"(?:at least|no less than|not less than|a minimum of|minimum of|greater than|more than|"
        r"exceeding|in excess of|over) <(\d)>|<(\d)> or (?:more|greater|above|higher)",
        shaped,
        re.I,
    )
    if m:
        i = m.group(1) or m.group(2)
        return amount(i).value, None, None, _restore(m.group(0), mentions, text)
    m = re.search(
        r"(?:up to|less than|below|under) <(\d)>",
        shaped,
        re.I,
    )
    if m:
        return None, amount(m.group(1)).value, None, _restore(m.group(0), mentions, text)
    m = re.search(
        r"(?:approximately|about|around|roughly|~|comparable|similar)[^<]{0,40}<(\d)>", shaped, re.I
    )
    if m:
        x = amount(m.group(1)).value
        lo, hi = int(x * APPROX_BAND[0]), int(x * APPROX_BAND[1])
        return lo, hi, x, _restore(m.group(0), mentions, text)
    return None


def _restore(shaped: str, mentions: list[SentenceAmount], text: str) -> str:
    return re.sub(
        r"\s?<(\d)>\s?",
        lambda m: (
            " "
            + text[mentions[int(m.group(1))].start : mentions[int(m.group(1))].end].strip()
            + " "
        ),
        shaped,
    ).strip()
