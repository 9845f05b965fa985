"""Why cite a reference: lines drawn from the RFP and the library entry, by shared phrases.

General rule, no ids or vocabulary of any RFP: two texts match on their two-word phrases of
stemmed content words (``rewrite.terms.index_tokens``: stopwords dropped, Snowball stems;
"contact centers" matches "Contact Center"), leaving out numbers and the words every
past-performance sentence uses ("reference", "contract", "similar", ...). Single shared
words are too common to mean a match ("systems", "services"); a phrase is not.

A reason phrase is a topic of the work, as a writer would quote it: it never spans a
punctuation mark ("records management, case intake" holds no "management case"), holds no
time span or count ("two weeks", "two-week sprint"), no function word ("system using"), no
cut word ("re" of "re-review") and no staffing idiom ("subject matter expert"); shared
phrases that overlap in the text are quoted as one ("subject matter expert", not "subject
matter, matter expert"). Scope reasons come from the work sections only: a section about the
buyer or about the procurement itself (RFP process, submission, evaluation, questions,
schedule) gives none.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rfp_retrieval.documents.records import RfpDocument
from rfp_retrieval.rewrite.terms import index_tokens, words
from rfp_retrieval.scope.section_lm import find_pp_requirements
from rfp_retrieval.scope.units import scope_units

# Words of the past-performance boilerplate itself: they say nothing about the work.
_BOILERPLATE = frozenset(
    index_tokens(
        """reference references contract contracts project projects similar relevant relevance
        relevancy scope size complexity offeror offerors proposer proposers experience past
        performance work provide provided demonstrate demonstrated years year including
        include includes considered evaluate evaluated degree extent show shows
        hundred hundreds thousand thousands million millions billion billions percent dozen"""
    )
)
# Headings of sections that describe the buyer, not the work ("About Northwind", "Company
# Overview", "Who We Are"): a phrase shared with them is no reason to cite.
_BACKGROUND_HEADING = re.compile(
    r"^\W*(?:[\dA-Z]{1,4}[.)]\s+)?(?:about\b|who\s+we\s+are\b|(?:company|organi[sz]ation(?:al)?|"
    r"agency|corporate)\s+(?:overview|profile|background|information)\b)",
    re.IGNORECASE,
)
# Headings of sections about the procurement, not the work ("RFP Process", "Submission of
# Proposals", "Questions", "Questions for Vendors", "Vendor Questionnaire", "Schedule of
# Events", "Evaluation Criteria"): a phrase shared with
# them is no reason to cite. A longer work heading keeps a process word ("Claims Process
# Improvement", "Program Evaluation Support").
_PROCESS_WORDS = (
    r"(?:process|procedures?|schedule|timeline|information|instructions|requirements|"
    r"submissions?|format|preparation|evaluation|questions|overview)"
)
_PROCESS_HEADING = re.compile(
    r"^\W*(?:(?:section\s+)?[\dA-Z]{1,4}[.)]?(?:\d+[.)]?)*\s+)?"
    r"(?:(?:appendix|attachment|exhibit)\s+[\dA-Z]{1,3}[.:)]?\s+(?:[-\u2013\u2014]\s+)?)?(?:"
    r"(?:rfp|rfq|rfi|rfx|solicitation)s?\b|"
    r"(?:procurement|acquisition|proposal|bid|quotation|quote|offer|selection)s?"
    rf"(?:\s+(?:and\s+)?{_PROCESS_WORDS})*\W*$|"
    r"(?:questions?|inquiries|clarifications?)(?:\s+(?:and\s+answers|(?:for|to|from)\s+"
    r"(?:the\s+)?(?:vendors?|offerors?|bidders?|proposers?|respondents?|contractors?)))?\W*$|"
    r"(?:(?:vendor|offeror|bidder|proposer|respondent|supplier)s?\s+)?questionnaires?\W*$|"
    r"(?:schedule|timeline|calendar)(?:\s+of\s+events)?\W*$|(?:key|important)\s+dates\W*$|"
    r"submissions?(?:\s+(?:of\s+(?:proposals|offers|quotes|quotations|responses)|"
    r"instructions|requirements|deadline|process))?\W*$|"
    r"evaluation(?:\s+(?:criteria|factors?|process|and\s+award|of\s+(?:proposals|offers|"
    r"quotes|quotations|responses)))?\W*$|instructions\b|terms(?:\s+and\s+conditions)?\W*$|"
    r"contacts?\W*$|points?\s+of\s+contact\b|general\s+information\W*$|"
    r"award(?:\s+(?:criteria|process|basis))?\W*$|basis\s+(?:of|for)\s+award\b|"
    r"pricing\W*$|price\W*$|cost\W*$)",
    re.IGNORECASE,
)
# Words that break a phrase though they are no stopword: time units and counts ("two
# weeks", "two-week sprint"), function words ("system using"), staffing words.
_BREAK_WORDS = frozenset(
    index_tokens(
        """second seconds minute minutes hour hours hourly day days daily week weeks weekly
        biweekly month months monthly quarter quarters quarterly annual annually period
        periods one two three four five six seven eight nine ten eleven twelve
        first third fourth fifth sixth several few many multiple various using use used uses
        via per based related associated following new current existing additional overall
        ongoing approximately approximate within across throughout expert experts staff
        staffing personnel"""
    )
)
# "subject matter expert(s)" / "SME" is a staffing idiom and "task order" a contract vehicle,
# not topics of the work
_IDIOM = re.compile(
    r"\bsubject[- ]matter[- ]experts?\b|\bSMEs?\b|\btask[- ]orders?\b", re.IGNORECASE
)
# a phrase never spans these marks (clause and list boundaries)
_CLAUSE_BREAK = re.compile(r"[,;:!?()\[\]{}\"\u201c\u201d|]|\.(?=\s|$)|\s[-\u2013\u2014]+\s")
MAX_CRITERIA = 2
"""At most this many relevance criteria are quoted per reference (most shared phrases first)."""


@functools.lru_cache(maxsize=8192)
def _word_stem(word: str) -> tuple[str, ...]:
    """``index_tokens(word)`` of one word, remembered: a brief tokenises the same library
    texts several times (a few hundred distinct words in ~37,000, issue 15 speed)."""
    return tuple(index_tokens(word))


@functools.lru_cache(maxsize=1024)
def _tokens(text: str) -> tuple[tuple[str, str], ...]:
    """``(stem, word)`` per word of ``text`` in order; stopwords, numbers and boilerplate
    are kept as breaks (empty stem) so a phrase never spans them ("eligibility or case").
    Remembered per text (``_phrases`` and ``_head_phrases`` read the same texts)."""
    out: list[tuple[str, str]] = []
    for clause in _CLAUSE_BREAK.split(_IDIOM.sub(" , ", text or "")):
        for word in words(clause.replace("-", " ")):
            stem = _word_stem(word)
            if (
                not stem
                or stem[0] in _BOILERPLATE
                or stem[0] in _BREAK_WORDS
                or any(ch.isdigit() for ch in word)
                or (len(word) < 3 and not word.isupper())  # a cut word: "re" of "re-review"
            ):
                out.append(("", word))
            else:
                out.append((stem[0], word))
        out.append(("", ","))
    return tuple(out)


def _phrases(text: str) -> dict[tuple[str, str], str]:
    """Two-word phrases of stemmed content words -> the phrase as written (lower case)."""
    tokens = _tokens(text)
    found: dict[tuple[str, str], str] = {}
    for (s1, w1), (s2, w2) in zip(tokens, tokens[1:], strict=False):
        if s1 and s2 and s1 != s2:
            found.setdefault((s1, s2), f"{w1} {w2}".lower())
    return found


def _head_phrases(text: str) -> set[tuple[str, str]]:
    """The two-word phrases of ``text`` whose second word is the head of its noun run: the
    last content word before a break ("system security" of "control system security.", not
    of "system security plan", where security only modifies plan)."""
    tokens = [*_tokens(text), ("", "")]
    return {
        (s1, s2)
        for (s1, _), (s2, _), (s3, _) in zip(tokens, tokens[1:], tokens[2:], strict=False)
        if s1 and s2 and s1 != s2 and not s3
    }


def shared_phrases(text: str, other: str) -> list[str]:
    """The phrases of ``text`` (as written there, lower case) whose two-word phrases
    ``other`` also holds; shared two-word phrases that overlap in ``text`` are one phrase
    ("records management system", not "records management, management system"). In the
    order of first appearance in ``text``, each once.

    A shared phrase that is the tail of a longer compound in ``text`` (a content word
    before it, its head noun last) counts only when ``other`` also ends a noun run with its
    last two words, not only uses them as a modifier of a further noun. Rule: a compound's
    modifier names another thing ("industrial control system security" is not met by the
    "system security plan" of an entry, a plan).
    """
    theirs = _phrases(other)
    their_heads = _head_phrases(other)
    tokens = [*_tokens(text), ("", ""), ("", "")]
    out: list[str] = []
    start = None  # index in ``tokens`` of the current shared run's first word
    for i in range(len(tokens) - 1):
        (s1, _), (s2, _) = tokens[i], tokens[i + 1]
        if s1 and s2 and s1 != s2 and (s1, s2) in theirs:
            start = i if start is None else start
            continue
        if start is not None:
            phrase = " ".join(w.lower() for _, w in tokens[start : i + 1])
            # the tail of a longer compound of ``text`` (a content word before it, a break
            # after it) is met only where ``other`` ends a noun run with it too
            tail = start > 0 and bool(tokens[start - 1][0]) and not s2
            last = (tokens[i - 1][0], s1)
            if (not tail or last in their_heads) and phrase not in out:
                out.append(phrase)
            start = None
    return out


# Capitalised abbreviations of the procurement itself or too broad to name a topic
_NOT_TOPIC_ACRONYMS = frozenset(
    "RFP RFQ RFI RFX SOW PWS SOO CO COR KO FAR DFARS IT US USA LLC INC FY POC PM ID".split()
)


def shared_acronyms(text: str, other: str) -> list[str]:
    """The capitalised abbreviations of two or more letters ``text`` and ``other`` both write
    ("CRM", "ERP", "GIS"), in the order of ``text``, each once; the procurement's own and
    too-broad ones (``_NOT_TOPIC_ACRONYMS``: RFP, SOW, IT, ...) are left out. A named system
    type is as specific as a two-word phrase."""
    theirs = {w for w in words(other) if w.isupper()}
    out: list[str] = []
    for w in words(text):
        if (
            len(w) > 1
            and w.isupper()
            and w.isalpha()
            and w not in _NOT_TOPIC_ACRONYMS
            and w in theirs
            and w not in out
        ):
            out.append(w)
    return out


def entry_text(entry: Mapping[str, Any]) -> str:
    """The library entry's own words: title, domains, stack, description, outcomes.

    Parts are joined with " and " (a stopword) so no phrase spans two of them.
    """
    parts = [entry.get("title"), entry.get("technical_description"), entry.get("narrative")]
    parts.append(entry.get("outcome_narrative"))
    for key in ("domains", "stack_tags", "outcome_metrics"):
        parts += [str(v) for v in entry.get(key) or []]
    return " and ".join(p for p in parts if p)


def short_section(section: str | None, sentence: str = "") -> str | None:
    """A section path without the document title and without a last part that only
    repeats ``sentence`` (a numbered paragraph's heading is its first sentence)."""
    if not section:
        return None
    parts = [p.strip() for p in section.split(" > ") if p.strip()]
    if len(parts) > 1:
        parts = parts[1:]
    if len(parts) > 1 and sentence and sentence[:40].lower() in parts[-1].lower():
        parts = parts[:-1]
    return " > ".join(parts) or None


def relevance_criteria(doc: RfpDocument) -> list[dict[str, str | None]]:
    """The RFP's relevance-criteria sentences ``[{"sentence", "section"}]`` in document order
    (Section L/M and past-performance sections: ``find_pp_requirements(doc).relevance``)."""
    return [
        {"sentence": s.sentence, "section": s.section} for s in find_pp_requirements(doc).relevance
    ]


def rfp_scope_sections(doc: RfpDocument) -> list[tuple[str, str]]:
    """The statement-of-work units ``[(heading, text)]`` (``scope.units.scope_units``)."""
    return scope_units(doc)


def best_metric(entry: Mapping[str, Any], scope_text: str) -> tuple[str, list[str]] | None:
    """The outcome metric sharing most content words with ``scope_text`` and those words
    (lower case). Ties go to a metric with a number, then to library order. None when the
    entry has no metric."""
    metrics = [m for m in entry.get("outcome_metrics") or [] if m and m.strip()]
    if not metrics:
        return None
    scope = {s for s, _ in _tokens(scope_text) if s}
    best: tuple[int, bool, int] | None = None
    chosen: tuple[str, list[str]] = (metrics[0], [])
    for i, metric in enumerate(metrics):
        shared = list(dict.fromkeys(w.lower() for s, w in _tokens(metric) if s and s in scope))
        key = (len(shared), any(ch.isdigit() for ch in metric), -i)
        if best is None or key > best:
            best, chosen = key, (metric, shared)
    return chosen


WHY_CRITERION = "Meets the RFP's relevance criterion"
WHY_SCOPE = "Matches the RFP's scope"
WHY_SECTION = f"{WHY_SCOPE} section"
WHY_DOMAINS = "Covers the domains the RFP emphasises"
WHY_OUTCOME = "Outcome to quote:"
WHY_VAGUE_OUTCOME = "Outcome as written (no measurable result: get numbers before quoting):"
"""How each kind of ``why_cite`` line begins: a criterion met, a scope section matched and
the emphasised domains covered are topical reasons; an outcome to quote is not, and an entry
whose outcomes are vague has its outcome shown as written, not offered to quote."""


_DOCUMENT_NAME = re.compile(
    r"^\W*(?:(?:sources?\s+sought|market\s+research)(?:\s+notice)?|request\s+for\s+"
    r"(?:proposals?|quotations?|quotes?|information|qualifications|offers?)|(?:rfp|rfq|rfi|"
    r"ifb|itb)\b|(?:special\s+|combined\s+)?notice\b|solicitation\b)",
    re.IGNORECASE,
)


def _names_the_document(heading: str, title: str | None) -> bool:
    """True when a scope unit's heading is the document's own name: its title, or a
    solicitation's name ("SOURCES SOUGHT NOTICE", "Request for Proposals RFP 2027-11: ...")
    standing for a document with no work sections of its own (new-user trial: the brief
    quoted the notice's title as "the RFP's scope section")."""
    text = " ".join((heading or "").split())
    if not text:
        return False
    return text == " ".join((title or "").split()) or bool(_DOCUMENT_NAME.match(text))


def has_topical_reason(lines: Sequence[str]) -> bool:
    """True when ``why_cite`` lines hold a topical reason (a relevance criterion met, a scope
    section matched or an emphasised domain covered), not only an outcome to quote."""
    return any(line.startswith((WHY_CRITERION, WHY_SCOPE, WHY_DOMAINS)) for line in lines)


def why_cite(
    entry: Mapping[str, Any],
    scope: Mapping[str, Any],
    relevance: Sequence[Mapping[str, Any]] = (),
    sections: Sequence[tuple[str, str]] | None = None,
    vague_outcome: bool = False,
) -> list[str]:
    """Reasons to cite ``entry`` (a ``pp_entries`` row) for the RFP, most specific first.

    ``scope`` is the ``scope_query`` row (``section_headings``, ``text_whole``,
    ``text_outcome``, ``emphasized_domains``); ``relevance`` the RFP's relevance-criteria
    sentences ``[{"sentence", "section"}]`` (``relevance_criteria``); ``sections`` the scope
    units ``[(heading, text)]`` (``rfp_scope_sections``; None: the headings of ``scope``).
    Lines: each relevance criterion sharing a phrase or a system acronym (``shared_acronyms``)
    with the entry (at most
    ``MAX_CRITERIA``), the scope section sharing most phrases, the emphasised domains the
    entry covers and the outcome metric to quote (its shared words named only when they hold
    a phrase or a capitalised acronym). Sections about the buyer ("About ...", "Company
    Overview") or the procurement ("RFP Process", "Submission", "Questions", "Schedule")
    give no scope reason. [] when nothing matches and the entry has no metric.
    ``vague_outcome``: the entry's outcomes have no measurable result (``library.outcomes``),
    so its metric is shown as written (``WHY_VAGUE_OUTCOME``), not offered to quote.
    """
    own = entry_text(entry)
    lines: list[str] = []
    met = []
    for item in relevance:
        sentence = str(item.get("sentence") or "")
        # a criterion is met on a shared phrase, or on a shared system acronym ("CRM")
        shared = shared_phrases(sentence, own) or shared_acronyms(sentence, own)
        if shared:
            met.append((len(shared), sentence, item.get("section"), shared))
    for _, sentence, section, shared in sorted(met, key=lambda m: -m[0])[:MAX_CRITERIA]:
        where = short_section(section, sentence)
        lines.append(
            f'{WHY_CRITERION} "{sentence}"'
            + (f" ({where})" if where else "")
            + f": {', '.join(shared)}."
        )
    if sections is None:
        sections = [(h, h) for h in scope.get("section_headings") or [] if h]
    matched = [
        (len(shared), -i, heading, shared)
        for i, (heading, text) in enumerate(sections)
        if not _BACKGROUND_HEADING.match(heading or "")
        and not _PROCESS_HEADING.match(heading or "")
        and (shared := shared_phrases(text, own))
    ]
    if matched:
        _, _, heading, shared = max(matched)
        if _names_the_document(heading, scope.get("title")):
            # the unit is the document itself ("SOURCES SOUGHT NOTICE", the RFP's title)
            lines.append(f"{WHY_SCOPE} as a whole: {', '.join(shared[:4])}.")
        else:
            lines.append(f'{WHY_SECTION} "{heading}": {", ".join(shared[:4])}.')
    emphasised = set(scope.get("emphasized_domains") or [])
    covered = [d for d in entry.get("domains") or [] if d in emphasised]
    if covered:
        lines.append(f"{WHY_DOMAINS}: " + ", ".join(covered) + ".")
    scope_text = " ".join(str(scope.get(k) or "") for k in ("text_whole", "text_outcome"))
    metric = best_metric(entry, scope_text)
    if metric is not None:
        text, shared = metric
        # single common words ("time", "mean") are no match: name the shared words only when
        # they hold a shared phrase or an acronym the metric writes in capitals ("CRM")
        telling = shared_phrases(text, scope_text) or any(
            w.isupper() and len(w) > 1 and w.lower() in shared for w in words(text)
        )
        on = f" (shares {', '.join(shared)} with the RFP's scope)" if shared and telling else ""
        lead = WHY_VAGUE_OUTCOME if vague_outcome else WHY_OUTCOME
        lines.append(f'{lead} "{text}"{on}.')
    return lines
