"""Decompose compound questions into parts (seed 2, step 2), without over-splitting.

"Describe your approach to migration and your data validation methodology" becomes
"Describe your approach to migration" + "Describe your data validation methodology". The seed's
open problem is over-splitting: "Discuss your security and compliance posture" names one
thing that one block may answer jointly. Rules, applied in order:

1. Sentences: "Is data encrypted at rest? If so, describe the algorithm..." splits at the
   question mark; a leading "If so," / "If yes," is dropped from the follow-up.
2. Clauses: an ``and`` followed by a new instruction ("and describe", "and how", "and your",
   "and were") starts a new part; the new part borrows the instruction verb when it has none.
   ", including X" becomes its own part.
3. Phrases at the end of a clause: "at rest and in transit" (a repeated preposition) shares
   the head ("encryption at rest" + "encryption in transit"); "support tiers and hours of
   coverage" (two multi-word noun phrases) splits. A single word before ``and`` is a shared
   modifier or verb and is kept whole: "security and compliance posture", "cost and schedule
   performance", "validated and reconciled", "generates, translates, and tracks".

4. Names are never split: an ``and`` between two capitalised words inside a sentence joins a
   name ("Independent Verification and Validation", "Applied Research and Development",
   "Terms and Conditions"), and one inside a thesaurus phrase joins a fixed term ("operations
   and maintenance"); either stays whole.
5. A split part keeps an instruction: a part that starts with "how", "what", "your" ... borrows
   the verb its first part starts with ("Describe how ... and how users get help" -> "Describe
   how users get help").

6. A split part stands alone: a personal pronoun in a later part ("... and describe how you
   assess *them*") means the thing the question named first, the object of the first part
   ("Identify *the subprocessors* that ..."), so the part says it in the pronoun's place
   ("Describe how you assess the subprocessors"). A part that is read on its own has no
   sentence before it to point to.

A part needs at least one topical word; otherwise it is merged back ("..., and by whom?").
The undivided question is always retrieved as well (seed 2), so a block that answers the
parts jointly is not lost; ``parts`` lists only the pieces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rfp_retrieval.rewrite.specificity import ABSTRACT_WORDS
from rfp_retrieval.rewrite.terms import QUESTION_WORDS, STOPWORDS, content_words

PREPOSITIONS = frozenset(
    "in at on for during from with to by when within across under into after before".split()
)
_CLAUSE_STARTERS = (
    QUESTION_WORDS
    | frozenset("how what where when whether which who why".split())
    | frozenset("your are were is was does do did can will has have".split())
)
_VERBISH = frozenset(
    "will would is are was were be been being can could should shall may must has have had "
    "does do did".split()
)
_DETERMINERS = frozenset("the a an its their your our his her this these those".split())
_BORROWS_VERB = frozenset("your how what where when whether which who why".split())
"""Clause starters that need the first part's instruction verb to stand alone (rule 5)."""
_FOLLOW_UP = re.compile(r"^(?:if\s+(?:so|yes|not|applicable)|otherwise)\s*,?\s*", re.I)


@dataclass
class Decomposition:
    """Parts of a compound question (empty when it is not compound) and the rule trace."""

    parts: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    separate_asks: bool = False
    """True when a sentence or clause split made the parts (two asks, each with its own
    instruction: "... and your data validation methodology"), not only a shared-head or
    noun-phrase split; the chain splits such a question even when it is specific."""

    @property
    def compound(self) -> bool:
        return len(self.parts) >= 2


def decompose(text: str) -> Decomposition:
    """Split ``text`` into parts by the rules of the module docstring.

    Returns a ``Decomposition``: ``parts`` (each a standalone query, original wording kept)
    and ``log`` (one line per split made or refused, shown in the rewrite log).
    """
    result = Decomposition()
    sentences = [s for s in re.split(r"(?<=[?.!])\s+", text.strip()) if s]
    pieces: list[str] = []
    for i, sentence in enumerate(sentences):
        body = _FOLLOW_UP.sub("", sentence).strip() if i else sentence.strip()
        if i and not _topical(body):
            result.log.append(f"kept {sentence!r} with the previous sentence: no topic of its own")
            continue
        if i:
            result.log.append(f"sentence split before {sentence!r}")
            result.separate_asks = True
        clauses = _split_clauses(body, result.log)
        if len(clauses) > 1 and any("clause split" in line for line in result.log):
            result.separate_asks = True
        pieces.extend(clauses)
    parts: list[str] = []
    for piece in pieces:
        parts.extend(_split_phrases(piece, result.log))
    parts = [_tidy(p) for p in parts if _topical(p)]
    deduped: list[str] = []
    for p in parts:
        if p.lower() not in (d.lower() for d in deduped):
            deduped.append(p)
    result.parts = _resolve_pronouns(deduped, result.log) if len(deduped) >= 2 else []
    result.separate_asks = result.separate_asks and bool(result.parts)
    return result


_PART_PRONOUNS = frozenset({"it", "they", "them"})
_QUANTIFIERS = frozenset("each every all any".split())
_LEAD_WORDS = frozenset("how what which where when whether who why often long much many".split())


def _object_phrase(part: str) -> str:
    """The first noun phrase after the instruction verb and question words of ``part``:
    "Identify the subprocessors that would handle ..." -> "the subprocessors", "Describe how
    often backups are taken" -> "backups". "" when none (rule 6)."""
    tokens = part.rstrip("?.! ").split()
    if not tokens or (
        tokens[0].lower() not in QUESTION_WORDS and tokens[0].lower() not in _LEAD_WORDS
    ):
        return ""  # no instruction verb or question word: no object to find
    i = 0
    while i < len(tokens) and (
        tokens[i].lower() in QUESTION_WORDS or tokens[i].lower() in _LEAD_WORDS
    ):
        i += 1
    phrase: list[str] = []
    while i < len(tokens):
        low = tokens[i].lower().strip(",;:")
        if (low in _DETERMINERS or low in _QUANTIFIERS) and not phrase:
            phrase.append(tokens[i])
        elif low in STOPWORDS or low in PREPOSITIONS or low in _VERBISH or low in _PART_PRONOUNS:
            break
        else:
            phrase.append(tokens[i].strip(",;:"))
            if tokens[i].endswith((",", ";", ":")):
                break
        i += 1
    if phrase and phrase[0].lower() in ("this", "these", "those", "that"):
        return ""  # "this period": the question itself points outside; the context names it
    if not any(w.lower() not in _DETERMINERS | _QUANTIFIERS for w in phrase):
        return ""
    if (
        tokens[0].lower() in _LEAD_WORDS | {"how", "what"}
        or tokens[1:2]
        and (tokens[1].lower() in _LEAD_WORDS)
    ):
        # "Describe what the warranty covers": after a question word the phrase is the
        # clause's subject, and a phrase that runs to the end of the part ends in its verb
        if i == len(tokens) and len(phrase) >= 3:
            phrase = phrase[:-1]
    return " ".join(phrase) if _topical(" ".join(phrase)) else ""


def _resolve_pronouns(parts: list[str], log: list[str]) -> list[str]:
    """Later parts with "it" / "they" / "them" take the first part's object phrase (rule 6)."""
    referent = _object_phrase(parts[0])
    if not referent:
        return parts
    out = [parts[0]]
    for part in parts[1:]:
        tokens = part.split()
        for j, token in enumerate(tokens):
            bare = token.strip(",;:?.!")
            if bare.lower() in _PART_PRONOUNS:
                tokens[j] = token.replace(bare, referent, 1)
                log.append(f"part {part!r}: {bare!r} is {referent!r}")
                break
        out.append(" ".join(tokens))
    return out


def _joins_a_name(tokens: list[str], i: int) -> bool:
    """True when ``tokens[i]`` ("and") joins a name or a fixed phrase (rule 4)."""
    left = tokens[i - 1].strip(",;:()") if i > 0 else ""
    right = tokens[i + 1].strip(",;:()") if i + 1 < len(tokens) else ""
    if i > 1 and left[:1].isupper() and right[:1].isupper() and not left.isupper():
        return True
    if i > 1 and left.isupper() and right.isupper() and len(left) == 1:
        return True  # "R and D"
    text = " ".join(tokens)
    offset = len(" ".join(tokens[:i])) + (1 if i else 0)
    for start, end in _fixed_phrase_spans(text):
        if start < offset < end:
            return True
    return False


def _fixed_phrase_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of thesaurus phrases with an inner "and" ("operations and maintenance")."""
    from rfp_retrieval.rewrite.terms import word_spans
    from rfp_retrieval.rewrite.thesaurus import find_concepts

    spans = word_spans(text)
    out = []
    for start, end, _, _ in find_concepts(text):
        a, b = spans[start][0], spans[end - 1][1]
        if " and " in text[a:b].lower():
            out.append((a, b))
    return out


def _topical(text: str) -> bool:
    return any(w.lower() not in ABSTRACT_WORDS for w in content_words(text))


def _tidy(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip(" ,;")
    text = text[0].upper() + text[1:] if text else text
    return text


def _leading_verb(text: str) -> str:
    """The instruction verb a clause starts with ("Describe"), or ""."""
    first = text.split()[0] if text.split() else ""
    return first if first.lower() in QUESTION_WORDS else ""


def _split_clauses(sentence: str, log: list[str]) -> list[str]:
    core = sentence.rstrip("?.! ")
    end = sentence[len(core) :]
    including = re.split(r",\s+including\s+", core, maxsplit=1)
    clauses: list[str] = []
    if len(including) == 2 and _topical(including[1]):
        verb = _leading_verb(including[0])
        log.append(f"', including' split: {including[1]!r} is its own part")
        clauses = [including[0], f"{verb} {including[1]}".strip()]
    else:
        clauses = [core]
    out: list[str] = []
    for clause in clauses:
        out.extend(_split_on_and_clause(clause, log))
    return [c + end if c is out[-1] else c for c in out]


def _split_on_and_clause(clause: str, log: list[str]) -> list[str]:
    tokens = clause.split()
    for i, token in enumerate(tokens):
        if token.lower() != "and" or i == 0 or i + 1 >= len(tokens):
            continue
        nxt = tokens[i + 1].lower().strip(",")
        if nxt not in _CLAUSE_STARTERS or _joins_a_name(tokens, i):
            continue
        left = " ".join(tokens[:i]).rstrip(",")
        right = " ".join(tokens[i + 1 :])
        if not _topical(right) or not _topical(left):
            continue
        verb = _leading_verb(left)
        if nxt in _BORROWS_VERB and verb:
            right = f"{verb} {right}"
        log.append(f"clause split at 'and {tokens[i + 1]}'")
        return [left, *_split_on_and_clause(right, log)]
    return [clause]


def _split_phrases(clause: str, log: list[str]) -> list[str]:
    """Split a coordination at the end of ``clause`` (rule 3)."""
    core = clause.rstrip("?.! ")
    tokens = core.split()
    positions = [
        i for i, t in enumerate(tokens) if t.lower() == "and" and not _joins_a_name(tokens, i)
    ]
    if not positions:
        return [clause]
    i = positions[-1]
    left_tokens, right_tokens = tokens[:i], tokens[i + 1 :]
    right = " ".join(right_tokens)
    if not right_tokens or any(t.lower() in _VERBISH for t in right_tokens):
        return [clause]
    first = right_tokens[0].lower()
    if first in PREPOSITIONS:
        # "encryption at rest and in transit": the head before the last preposition is shared.
        for j in range(len(left_tokens) - 1, 0, -1):
            if left_tokens[j].lower() in PREPOSITIONS:
                head = " ".join(left_tokens[:j])
                log.append(f"shared head {head!r}: split {' '.join(tokens[j:])!r}")
                return [" ".join(left_tokens).rstrip(","), f"{head} {right}"]
        return [clause]
    if first in QUESTION_WORDS:
        return [clause]
    last_np = _last_noun_phrase(left_tokens)
    before = left_tokens[len(left_tokens) - len(last_np) - 1].lower() if last_np else ""
    if len(last_np) < 2 or len(right_tokens) < 2 or before in _VERBISH:
        phrase = " ".join(last_np + ["and"] + right_tokens)
        log.append(f"kept {phrase!r} whole: a shared modifier or verb, answered jointly")
        return [clause]
    prefix_tokens = left_tokens[: len(left_tokens) - len(last_np)]
    if first in _DETERMINERS:
        # "Describe what this period includes and the criteria ...": the second part is a noun
        # phrase of its own, so it takes the instruction verb, not "what" ("Describe the
        # criteria ...", issue 14 defect 4)
        while prefix_tokens and (
            prefix_tokens[-1].lower() in _DETERMINERS or prefix_tokens[-1].lower() in _BORROWS_VERB
        ):
            prefix_tokens = prefix_tokens[:-1]
    prefix = " ".join(prefix_tokens)
    log.append(f"noun phrases split: {' '.join(last_np)!r} / {right!r}")
    return [" ".join(left_tokens).rstrip(","), f"{prefix} {right}"]


def _last_noun_phrase(tokens: list[str]) -> list[str]:
    """The words after the last stopword, preposition or instruction verb (at most 4, not
    counting the ``and`` of a name, which belongs to the phrase: rule 4)."""
    phrase: list[str] = []
    counted = 0
    for index in range(len(tokens) - 1, -1, -1):
        token = tokens[index]
        low = token.lower().strip(",")
        if token.endswith(",") and phrase:
            break
        if low == "and" and phrase and _joins_a_name(tokens, index):
            phrase.insert(0, token)
            continue
        if low in STOPWORDS or low in PREPOSITIONS or low in QUESTION_WORDS or "'" in low:
            break
        phrase.insert(0, token.strip(","))
        counted += 1
        if counted == 4:
            break
    return phrase
