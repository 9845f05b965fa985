"""Response limits stated in an ask's own words: "shall not exceed 30 pages", "no more than
ten (10) pages", "250 words per question", "(limit: 500 words)", "a 10-page limit".

Proposal practice: a page, word, character, slide or time limit is an instruction the
proposal must keep, and the compliance matrix shows it beside the ask it binds (the matrix's
``limit`` column; a response table's limit column gives its rows theirs,
``questions._row_limit``). The rule lives here alone; ``questions`` sets ``Question.limit``
from it and ``matrix`` keeps a sentence stating one an instruction.
"""

from __future__ import annotations

import re

_COUNT_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
    "twenty-five|thirty|forty|fifty|sixty|hundred"
)
_COUNT = (
    rf"(?P<count>\d[\d,]{{0,6}}|(?:{_COUNT_WORDS})(?:\s*\(\s*(?P<digits>\d[\d,]{{0,6}})\s*\))?)"
)
_UNIT = r"(?P<unit>pages?|words?|characters?|slides?|sheets?)"
_SHAPE = r"(?P<shape>(?:(?:single|double|one|two)-(?:sided|spaced)|typed|printed|numbered)\s+)?"
_PER = (
    r"(?P<per>\s+(?:per|for each|each)\s+(?:question|response|answer|reference|resume|"
    r"r[ée]sum[ée]|item|requirement|project|page|section|volume|tab|person)s?|\s+each)?"
)
_CUE_BEFORE = (
    r"(?:not\s+(?:to\s+)?exceed(?:ing)?|no\s+(?:more|longer)\s+than|limited\s+to|"
    r"limit(?:ed)?\s*(?:of|to|is|:|=|-)?|maximum(?:\s+of)?\s*:?|max\.?\s*:?|up\s+to|"
    r"at\s+most|(?:limit|keep|restrict)\s+(?:(?:each|your|the|all|their)\s+)?[\w-]+\s+to)"
)
_CUE_AFTER = r"(?:\s+(?:maximum|max\.?|limit|or\s+(?:fewer|less)))"

RESPONSE_LIMIT = re.compile(
    rf"(?P<before>\b{_CUE_BEFORE}\s+(?:an?\s+|the\s+)?)?\b{_COUNT}[\s-]+{_SHAPE}{_UNIT}\b{_PER}"
    rf"(?P<after>{_CUE_AFTER}\b)?",
    re.I,
)
"""A response limit: a limiting cue ("not exceed", "no more than", "limited to", "limit:",
"maximum of", "up to", "limit responses to") before a count and its unit, or "maximum",
"limit" or "or fewer" after them ("a 10-page limit"). Units: pages, words, characters,
slides, sheets (what a response fills; minutes and hours are left out: "shall not exceed 30
minutes" is as often a service level the work must meet); a count is a numeral, a number
word or both ("ten (10)"). ``response_limit`` requires one of the two cues."""


def response_limit(text: str) -> str | None:
    """The first response limit ``text`` states (``RESPONSE_LIMIT``), as a proposal manager
    writes it in the matrix: the count in digits when the text gives them ("ten (10) pages"
    -> ``10 pages``), the unit as written, the page shape and what it counts per kept
    ("25 single-sided pages", "250 words per question", "two pages each"); None when the text
    states no limit ("submit three (3) references", "within 30 days of award")."""
    for m in RESPONSE_LIMIT.finditer(text):
        if not (m.group("before") or m.group("after")):
            continue  # a count of pages or words that limits nothing ("a one-page summary")
        count = m.group("digits") or m.group("count")
        unit = m.group("unit").lower()
        if count not in ("1", "one") and not unit.endswith("s"):
            unit += "s"  # "a 10-page limit" -> 10 pages
        shape = (m.group("shape") or "").strip()
        per = " ".join((m.group("per") or "").split())
        return " ".join(p for p in (count, shape, unit, per) if p)
    return None
