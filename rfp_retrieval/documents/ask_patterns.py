"""The wording of an ask: the verbs and sentence patterns that make text a question, a
requirement or an evaluation criterion, and the list markers, labels and cross-references
around it (read by ``questions``, the compliance-matrix finder).

Sources: proposal practice of "shredding" an RFP into a compliance matrix and the wording of
the shared solicitations (``../shared/data``).
"""

from __future__ import annotations

import re

from rfp_retrieval.documents.numbering import QUESTION_LABEL
from rfp_retrieval.documents.text import strip_inline_markdown

CONTENT_VERBS = (
    "describe|explain|identify|discuss|demonstrate|detail|outline|provide|list|specify|indicate|"
    "confirm|summari[sz]e|propose|present|define|address|elaborate|give|show|clarify|share|"
    "justify|articulate|illustrate|tell us|walk us through|recommend|estimate|rate|rank|"
    "document|state (?:your|the|whether|how|what|any|if|which|all)|note (?:any|whether|how)"
)
"""Imperatives that ask for written content: the response answers them (kind ``question``)."""

PROCEDURAL_VERBS = "submit|include|complete|attach|furnish|supply|certify|attest|acknowledge|sign"
"""Imperatives that ask for an action or an enclosure (kind ``requirement``)."""

ASK_VERBS = f"{CONTENT_VERBS}|{PROCEDURAL_VERBS}"
_ACTORS = (
    r"(?:the\s+|each\s+|all\s+)?(?:interested\s+)?(?:offeror|offerors|quoter|quoters|vendor|vendors|"
    r"respondent|respondents|proposer|proposers|bidder|bidders|applicant|applicants|firm|firms|"
    r"offeror\(s\)|contractors|contractor\(s\)|"
    r"you|proposal|proposals|quote|quotation|response|responses|submission|narrative)"
    r"(?:['’]s)?"
)
"""Who an ask is addressed to: the bidder by any of its names (``Interested vendors shall
identify ...`` in an RFI), or the proposal itself."""
_CONTRACTOR = r"(?:the\s+|each\s+)?contractor"
"""One contractor as the subject of an ask: only with ``shall`` / ``must`` (Section L and an
RFQ call the offeror "the Contractor": ``The Contractor shall describe ...``); "the
Contractor will ..." describes the awarded work. Contractors in the plural (``Contractors will
submit the attached spreadsheet``) are the firms competing, one of ``_ACTORS``.
``matrix.matrix_kind`` keeps a contractor's post-award work apart."""


def _ask_pattern(verbs: str) -> re.Pattern[str]:
    return re.compile(
        rf"^(?:[A-Z][^.?!:]{{0,60}}?(?:\s?[-\u2013\u2014]\s|:\s))?"  # "Staffing Plan - Please ..."
        rf"(?:(?:(?:for|in|as part of|with respect to|where|if|based on|using|given|within|at|"
        rf"on|under|beyond|in addition(?: to)?)\b[^,]{{0,90}},\s*"
        rf"|for (?:each|every)\s+(?:[\w-]+\s+){{1,3}}?(?=(?:please\s+)?(?:{verbs})\b))?"
        rf"(?:please\s+)?"
        rf"(?:(?:be|make) sure to\s+)?(?:also\s+|"
        rf"briefly\s+|clearly\s+|fully\s+|succinctly\s+|concisely\s+|thoroughly\s+)?"
        rf"(?:{verbs})\b"
        rf"|{_ACTORS}\s+(?:shall|must|should|will|is|are)\s+(?:be\s+)?(?:also\s+|briefly\s+|"
        rf"clearly\s+|asked to\s+|requested to\s+|required to\s+|expected to\s+|"
        rf"encouraged to\s+)*(?:{verbs})\b"
        rf"|{_CONTRACTOR}\s+(?:shall|must)\s+(?:also\s+|briefly\s+|clearly\s+)?(?:{verbs})\b)",
        re.I,
    )


ASK = _ask_pattern(ASK_VERBS)
PROCEDURAL_ASK = _ask_pattern(PROCEDURAL_VERBS)
_RESPONDERS = (
    r"(?:offerors?|quoters?|vendors?|respondents?|proposers?|bidders?|applicants?|firms?|"
    r"contractors?|businesses|companies)"
)
REQUESTED_ASK = re.compile(
    rf"\brequests?\s+(?:that\s+)?(?:the\s+|all\s+|interested\s+)?{_RESPONDERS}\s+(?:{ASK_VERBS}|"
    rf"propose|comment)\b"
    rf"|\b(?:is|are)\s+(?:requested|asked|invited|encouraged)\s+to\s+(?:{ASK_VERBS}|propose|"
    rf"comment)\b",
    re.I,
)
"""An ask written as a request: ``The Government requests the offerors propose ...``,
``Request offerors include the payment address ...``, ``... are requested to complete
Addendum J-3`` (the draft-RFP and RFI way of asking)."""
PRESENT_TENSE_ASK = re.compile(
    rf"^{_ACTORS}\s+(?:also\s+)?(?:{ASK_VERBS})s?\b",
    re.I,
)
"""``Offerors provide an executive summary ...``, ``The offeror submits a cost/price proposal
...``: the instructions' normative present tense (an ask inside Section L text only, where
it cannot describe what a vendor does today)."""
PROPOSAL_PART_ASK = re.compile(
    r"^(?:the|each|this|your|a|an)\s+(?:[\w-]+\s+){0,2}?(?:summary|narrative|plan|letter|"
    r"volume|resumes?|cover page|chart|statement|section|submission|response|proposal|quote|"
    r"quotation)\s+(?:shall|must|should|will)\s+(?:also\s+|clearly\s+|briefly\s+)?"
    rf"(?:{ASK_VERBS}|contain|consist of)\b",
    re.I,
)
"""A part of the proposal as the subject of an ask (``The summary should also include live
links ...``, ``The pricing narrative should describe ...``, ``The letter will indicate the
principal ...``): an instruction in Section L text (the caller checks where it stands), where
"should" and "will" state what the part holds."""
QUESTION_WORD = re.compile(
    r"^(?:what|how|why|where|when|who|whom|whose|which|is|are|does|do|did|can|could|will|"
    r"would|should|has|have|was|were|may|to what|in what|if)\b",
    re.I,
)
ABOUT_OFFEROR = re.compile(
    r"\bthe (?:contractor|offeror|quoter|vendor|respondent|proposer|bidder|proposal|quote|"
    r"quotation|proposed|submitted|response)\b|\b(?:contractor|offeror|quoter|vendor)['’]s\b",
    re.I,
)
SECOND_PERSON = re.compile(r"\b(?:you|your|yours)\b", re.I)
CONTINUATION = re.compile(
    r"^(?:if so|if yes|if not|if no|if applicable|where applicable|as applicable|include|"
    r"including|also|in addition|please also|and|or|this (?:should|must|shall)|the response "
    r"(?:should|must|shall)|responses? (?:should|must|shall)|be sure|at a minimum|"
    r"to what extent|be (?:very |as )?(?:specific|detailed|thorough|concise|brief|clear))\b",
    re.I,
)
_REQUIREMENT = re.compile(
    r"\b(?:shall|must|is required to|are required to)\b"
    r"|\b(?:references?|experience|projects?|contracts?|resumes?|résumés?|samples?)\b[^.;:]{0,80}?"
    r"\s(?:(?:is|are)\s+not|(?:will|shall)\s+not\s+be|cannot\s+be)\s+(?:acceptable|accepted|"
    r"allowed|permitted)\b"
    r"|(?<!\bno\s)(?<!\bnot\s)\b(?:information|use|submission|signature|copy|copies|form|"
    r"forms|letter|statement|attachment|certification|documentation)\b[^.;:!?]{0,60}?\s(?:is|are)\s+"
    r"(?:also\s+)?required\b",
    re.I,
)
"""``shall`` / ``must`` / ``is required to``, an enclosure that "is required" (``Use of the
Technical Approach Template is required``, ``The following information is required on the
cover page:``), and the references, experience or resumes the buyer will not accept
(``References from private companies are not acceptable``: a condition the offer must
meet)."""
FORMAT_RULE = re.compile(
    r"\b(?:should|will|is to|are to)\s+(?:not\s+)?(?:be\s+)?(?:no (?:more|longer) than|not exceed|"
    r"exceed|limited to|at most|a maximum of)\s+(?:\w+\s+)?(?:\(\d+\)\s+)?"
    r"(?:(?:single|double)[- ]sided\s+)?(?:[\w.”\"]+\s+){0,2}pages?\b"
    r"|\b(?:should|will|is to|are to)\s+be\s+(?:in|at least|no smaller than)\s+(?:\w+\s+)?"
    r"\(?\d{1,2}\)?[- ]?(?:point|pt)\b"
    r"|\b(?:may|can)\s+(?:only\s+)?(?:use|be(?:\s+(?:in|set in))?)\s+(?:\w+\s+)?"
    r"\(?\d{1,2}\)?[- ]?(?:point|pt)\b",
    re.I,
)
"""A page limit or font rule written with ``should`` (``This section should be no more than five
pages``, ``Written responses should be in 12-point font``), or a smaller font it permits
(``Tables may use 9 point``: the exception is part of the format rule): a format instruction
the proposal must meet, as binding in practice as one written with ``shall``."""
STATED_LIMIT = re.compile(
    r"\b\(?\d{1,3}\)?[- ]pages?\s+(?:maximum|max\b\.?|limit\b)"
    r"|\b(?:maximum|limit)(?:\s+of)?:?\s+(?:\w+\s+)?\(?\d{1,3}\)?\s+pages?\b"
    r"|\b\(?\d{1,2}\)?[- ]?(?:point|pt\b\.?)\s+(?:font|type(?:face)?)\b",
    re.I,
)
"""A page or font limit stated without a verb (``Technical Volume: 30 pages maximum, 11-point
font``, ``limit: 4 pages``, ``12 pt font``): a format rule of the proposal, as binding as one
written with ``shall``."""
_NOT_REQUIREMENT = re.compile(
    r"\bmeans\b|\bas used in\b|\bis defined as\b|\bshall be deemed\b|\bshall be construed\b|"
    r"\bshall (?:not )?be subject to\b|"
    r"\bshall mean\b|\bshall have the meaning\b|\bnothing in\b|\bshall be considered\b|"
    r"\bshall not obligate\b|\bshall (?:result in|constitute|create) a binding\b|"
    r"^[^:.]{1,40}:\s*(?:relates|refers) to\b",
    re.I,
)
"""A definition, a deeming rule or a legal effect: ``... means ...``, ``... shall be deemed /
considered ...``, ``... shall not be subject to public disclosure`` (``Equipment specifications
... shall be considered as minimal requirements``), what an act does in law (``Evaluation of
options shall not obligate the Government ...``, ``A written notice of award ... shall result in
a binding contract``), a term defined by ``Senior Level: relates to very experienced ...``."""
EVALUATED = re.compile(
    r"\bwill (?:be )?(?:evaluated?|assess(?:ed)?|rated?|considered?|scored?|reviewed?)\b|"
    r"\b(?:evaluates|assesses)\b|\bwill evaluate\b|\bevaluation will\b|"
    r"\bwill (?:be assigned|receive)\b[^.;]{0,80}?\bratings?\b|"
    r"\baward will be (?:made|based)\b[^.;]{0,40}?\b(?:basis|best[- ]value|lowest)|"
    r"\b(?:more|less|equally|as) important (?:than|as)\b",
    re.I,
)
"""A statement of how the buyer evaluates, in evaluation text (Section M): ``will be
evaluated / rated``, a rating each offer or reference receives (``Each reference will be
assigned one of the following relevance ratings``, ``the Offeror will receive one confidence
rating``), the basis of award (``Award will be made on a best-value tradeoff basis``) and
the factors' relative importance (``Factor 1 is more important than Factor 2``): an
evaluation item of the compliance matrix (FAR 15.304: the factors and their importance)."""
ANSWERED = re.compile(
    r"^\W*(?:A\d{1,3}\s*[:.)-]|A\s*:|(?i:answer|response|government(?:'s)? response|reply)"
    r"\s*[:.-])"
)
LIST_MARKER = re.compile(
    r"^\s*(?P<m>[-*+•●○▪◦]|\(?(?:\d{1,2}|[a-z]|[ivx]{1,4}|[A-Z])\)|(?:\d{1,2}|[a-z]|[ivx]{1,4}|"
    r"[IVX]{1,4}|[A-Z])\.)\s+(?=\S)"
)
REQUIREMENT_ID = re.compile(r"^\s*(?P<m>(?P<prefix>[A-Z]{1,4})-\d{2,4}(?:\.\d{1,3})*)\s+(?=[A-Z])")
"""A requirement ID opening a row of a requirements list flattened to text (``R-01 The
system shall ...``, ``SEC-003 ...``): a short caps prefix, a dash, a number of two or more
digits. A row label only when at least two rows of the section share the prefix
(``questions``), so ``SF-330 forms ...`` in prose is no label."""
LEADING_LABEL = re.compile(
    r"^(?:"
    + QUESTION_LABEL
    + r"|(?:[A-M]|[IVX]{1,5})(?:\.[A-Z0-9]{1,3})+\.?|\d{1,3}(?:\.\d{1,3})*\.?)\s+"
)
"""A label opening a paragraph (``Question 3.``, ``C.3.2``, ``IV.B``, ``3.1.4``), stripped
before an earlier paragraph is tested as an ask."""
RESPONSE_COLUMN_LINE = re.compile(
    r"^(?:[A-Z][\w/&-]*\s+){0,3}(?:Vendor|Offeror|Respondent|Bidder|Quoter|Proposer)(?:['’]s)?"
    r"\s+(?:Response|Responses|Answer|Answers|Reply)$"
)
"""The header line of a response table whose cells the PDF text layer lost (``General Vendor
Response`` over ``Company name.`` / ``Address.`` lines): the rows below are what the offeror
fills in. The responder is named (``Vendor``, ``Offeror`` ...), so a Q&A amendment's
``Government Response`` stays what it is."""

_BACK_SUBJECT = re.compile(
    r"^(?:(?:this|these|such)\s+(?P<demo>(?:[\w-]+\s+){0,2}?[\w-]+)"
    r"|(?:the|(?:one|each|both|all|some)\s+of\s+the(?:\s+\w+)?)\s+(?P<noun>(?:[\w-]+\s+){0,2}?"
    r"[\w-]+))"
    r"(?:\s+\(\w+\))?\s+(?:shall|must|should|will|is|are|can|may)\b"
    r"|^(?:when|where|if)\s+(?:the\s+|a\s+|an\s+)?(?P<cond>(?:[\w-]+\s+){0,1}?[\w-]+)\s+"
    r"(?:is|are)\s+\w+ed\s*,"
    r"|^(?:have|has|do|does|did|are|is|were|was|will|can)\s+(?P<pron>they|it|these|those)\b",
    re.I,
)


_DELIVERABLE = re.compile(
    r"(?:resume|résumé|bio|form|submission|submittal|plan|narrative|summary|summarie|"
    r"spreadsheet|worksheet|template|quotation|quote|proposal|response|letter|statement|sample|"
    r"example|attachment|file|volume|list|chart|matrix|matrice|schedule|report|reference|study|"
    r"studie|discount|rate|certification|project|repository|link|diagram|presentation|"
    r"demonstration|copy|copie)",
    re.I,
)
"""What a proposal hands over (a resume, a form, a plan, a sample, a price list ...): the
subject a follow-on sentence's rule is about (``refers_back``). Parties (the contractor, the
Government) and the system are no deliverable: "The Contractor shall ... The Contractor shall
..." are two lines."""


def _stem(word: str) -> str:
    word = word.casefold()
    return word[:-1] if len(word) > 3 and word.endswith("s") else word


def refers_back(sentence: str, previous: str) -> bool:
    """True when ``sentence`` continues the ask ``previous`` by referring back to what it asked
    for: ``This submission must not be submitted in PDF format.`` (a demonstrative subject),
    ``The resumes must include ...`` after ``Include resumes for ...`` and ``One of the two
    examples must ...`` after ``... provide two examples ...`` (the subject's head noun named
    in the ask), ``When discounts are offered, ...`` after ``... offer discounts ...``, and
    ``Have they included plans ...?`` after a question about the contractor. The subject must
    be a deliverable (``_DELIVERABLE``), never a party or the system ("The Contractor shall
    ... The Contractor shall ..." stay two lines), and a lead-in (``...:``) never continues
    an ask. The compliance
    line is the ask with the rules on the same deliverable (proposal practice: one line per
    deliverable, its conditions kept with it)."""
    s = strip_inline_markdown(sentence).strip()
    m = _BACK_SUBJECT.match(s)
    if m is None or s.endswith(":"):
        return False  # a lead-in opens a list of its own
    if m.group("pron"):
        return True
    head = _stem((m.group("demo") or m.group("noun") or m.group("cond") or "").split()[-1])
    if not _DELIVERABLE.fullmatch(head):
        return False
    if m.group("demo"):
        return True
    before = {_stem(w) for w in re.findall(r"[a-zé]+", strip_inline_markdown(previous).casefold())}
    return head.casefold() in before


_SHOUTING = re.compile(r"[^a-z]*")
BULLET = re.compile(r"^[-*+•●○▪◦]$")

# cross-references
XREF = re.compile(
    r"\b(?:Sections?|Sec\.|Paragraphs?|Para\.|Subsections?|§)\s*(?P<n>(?:[A-Z]|[IVX]{1,5})"
    r"(?:\.[A-Z0-9]{1,3})*|\d{1,2}(?:\.\d{1,3})*)(?![\w-])"
    r"|\b(?P<u>[A-M]\.\d{1,3}(?:\.\d{1,3}){0,4})(?![\w-])"
    r"|\b(?P<r>[IVX]{1,5}\.[A-Z](?:\.\d{1,3}){0,3})(?![\w-])"
    r"|\b(?P<a>(?:Appendix|Attachment|Exhibit|Addendum|ADDENDUM|APPENDIX|ATTACHMENT)\s+"
    r"[A-Z0-9]{1,2}(?:-\d{1,2})?)(?![\w-])"
)


def is_ask(sentence: str) -> bool:
    """True when ``sentence`` asks the offeror for content (an imperative ask or a question).

    ``Describe your approach.``, ``Please provide ...``, ``For each reference, describe ...``
    (also without the comma: ``For each reference provide ...``),
    ``The Offeror shall describe ...`` and ``How will the Department participate?`` ask;
    ``The Contractor shall host the system.`` does not (it is a requirement).
    """
    s = strip_inline_markdown(sentence).strip().lstrip("-–—•*").strip()
    if len(s.split()) < 2 or not re.match(r"[A-Z0-9\"“‘'(\[]", s):
        return False  # a fragment of a wrapped sentence, not the start of an ask
    if _SHOUTING.fullmatch(s) or re.match(r"^list of\b", s, re.I) and len(s.split()) <= 6:
        return False  # "LIST OF ATTACHMENTS", "List of Deliverables": titles, not asks
    if s.endswith("?") and len(s.split()) >= 3:
        return True
    if _FIELD_LABEL.match(s):
        return False  # "Title: Document Intake Support": a cover field, its value a name
    if ASK.match(s) and _WHERE_IT_IS.search(s):
        return False  # "Detail functional information ... are provided in the CRD": the verb
        # is "are provided"; "Detail" is an adjective
    return bool(ASK.match(s) or REQUESTED_ASK.search(s))


_FIELD_LABEL = re.compile(
    r"^(?:title|subject|project(?:\s+(?:name|title))?|(?:solicitation|notice|rfp|rfq|rfi)\s+"
    r"(?:title|name|id|number|no\.?)|re)\s*:",
    re.I,
)
"""A cover-page field label (``Title:``, ``Subject:``, ``Notice ID:``, ``RFP Title:``): what
follows is the field's value, a name ("Document Intake Support"), even when its first word is
an ask verb (``is_ask``)."""


_WHERE_IT_IS = re.compile(
    r"^(?:[^\s;,:]+\s+){1,12}?(?<!that\s)(?<!which\s)(?:is|are)\s+(?:provided|described|listed|"
    r"given|found|contained|located|defined)\s+(?:in|at|under|within)\b",
    re.I,
)
"""A sentence whose main verb says where information is (``Detail technical information
regarding the objectives ... are provided in the CRD``): not an imperative, even when its
first word is one (``is_ask``). A relative clause (``that are listed in``) is no main verb."""


_BUYER_ACRONYM = (
    r"(?:the\s+)?(?!(?i:firms?|you|vendors?|quoters?|bidders?)\b)(?-i:[A-Z]{2,5})\s+"
    r"(?:reserves\b|(?:shall|will|may)\s+(?:not\s+|also\s+)?(?:notify|review|evaluate|award|"
    r"reserve|consider|respond|select|conduct|issue|determine|accept|reject|pay|retain|approve|"
    r"inform|schedule|make|furnish|be responsible|provide (?:for|the (?:contractor|offerors?|"
    r"vendors?|quoters?)))\b)"
)
_BUYER = re.compile(
    r"^(?:[A-Z][^.?!:]{0,60}?(?:\s?[-\u2013\u2014]\s|:\s))?"
    r"(?:(?:upon|after|following|during|within|once|at|for|in|as|when|if)\b[^,]{0,90},\s*)?"
    rf"(?:{_BUYER_ACRONYM}|"
    r"(?:the\s+)?(?:government|contracting officer|contracting specialist|CO|COR|COTR|KO|"
    r"contracting officer['’]s (?:technical )?representative|agency|county|state|department|"
    r"university|city|commonwealth|owner|purchaser|buyer|purchasing (?:agent|office|division)|"
    r"procurement officer|evaluation (?:team|panel|committee|board)|evaluators?)"
    r"(?:['’]s\s+\w+)?\s+(?:shall|will|must|may|reserves)\b)",
    re.I,
)
"""A sentence whose subject is the buyer (the Government, the Contracting Officer, the County,
the evaluation panel, an agency or office named by its acronym and doing what a buyer does:
``TTS shall provide for review ...``, ``The VA will notify ...``; ``The IECMS shall support
...`` is a system, not the buyer) states the buyer's own obligation or right: nothing the
proposal answers or the offeror must meet (``The CO shall respond in writing within 30 days``)."""


CONTENT_LEAD_IN = re.compile(
    r"\b(?:should|shall|must|will|is to|are to)\s+(?:also\s+)?(?:be\s+)?(?:include[ds]?|contain|"
    r"address|cover|consist of|provide|describe|identify|list)\b[^:]{0,80}:$",
    re.I,
)
"""A lead-in naming the content that follows as a list (``Each case study should include:``):
the items below it are what the proposal must contain, whoever the sentence's subject is."""


_MODAL = re.compile(r"\b(?:shall|must)\b", re.I)
_RELATIVE_MODAL = re.compile(r"(?<!\bof )\b(?:that|which)\s+(?:\w+ly\s+)?(?:shall|must)\b", re.I)
"""A ``shall``/``must`` inside a relative clause describes a thing ("a legacy system that must
be replaced"): it binds no one unless the sentence's main clause also does. "all of which must
be supported" still binds (the clause is the obligation)."""


MODAL_LEAD_IN = re.compile(
    r"^(?:the\s+|each\s+|all\s+)?[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?\s+(?:shall|must)"
    r"(?:\s+also)?\s*:$",
    re.I,
)
"""A subject and its modal before a colon (``The contractor shall:``, ``Offerors must:``): the
obligations are the lettered items below it; the prompt is a requirement however short."""


def is_requirement(sentence: str) -> bool:
    """True for a ``shall`` / ``must`` sentence that binds the offeror or the contractor: not
    a definition, not the buyer's own obligation (``_BUYER``), and not a description whose only
    ``shall``/``must`` sits in a relative clause (``_RELATIVE_MODAL``). At least 4 words, or a
    modal lead-in of its list (``MODAL_LEAD_IN``: "The contractor shall:")."""
    s = strip_inline_markdown(sentence)
    if MODAL_LEAD_IN.match(s.strip()) and not _BUYER.match(s.strip()):
        return True
    format_or_lead_in = bool(
        FORMAT_RULE.search(s) or CONTENT_LEAD_IN.search(s) or STATED_LIMIT.search(s)
    )
    modals = len(_MODAL.findall(s))
    only_relative = modals > 0 and modals == len(_RELATIVE_MODAL.findall(s))
    return (
        len(s.split()) >= 4
        and (bool(_REQUIREMENT.search(s)) and not only_relative or format_or_lead_in)
        and not _NOT_REQUIREMENT.search(s)
        and not _BUYER.match(s.strip().lstrip("-–—•*").strip())
        and not (modals == 1 and _BY_BUYER.search(s))
    )


_BY_BUYER = re.compile(
    r"\b(?:shall|will|must)\s+be\s+(?:furnished|provided|supplied|issued|paid)\s+by\s+the\s+(?:government|"
    r"contracting officer|CO|COR|COTR|agency|county|state|city|owner)\b"
    r"(?![^.;]*\bby\s+the\s+contractor\b)",
    re.I,
)
"""The buyer named after a passive verb (``Water shall be furnished by the Government at no cost
to the Contractor``): the buyer's own obligation to give something, as with the buyer as the
subject (``_BUYER``); an approval by the buyer ("must be approved by the COR") still binds the
contractor. Only when the sentence has no other ``shall`` / ``must`` (``is_requirement``)."""


_PERFORMER = re.compile(
    r"^(?:[A-Z][^.?!:]{0,60}?(?:\s?[-\u2013\u2014]\s|:\s))?"  # "Transition - The Contractor ..."
    r"(?:(?:upon|after|following|during|within|once|throughout|at|for|in|as|when|if|under|on|"
    r"prior to|before|while|unless)\b[^,]{0,90},\s*)?"
    r"(?:the\s+|each\s+|all\s+)?(?:contractor|contractors|vendor|awardee|awardees|service provider|"
    r"successful (?:offeror|bidder|vendor|quoter|contractor|proposer)|selected (?:offeror|"
    r"vendor|contractor|proposer)|prime contractor|subcontractors?)(?:['’]s(?:\s+[\w-]+){1,3}?)?"
    r"(?:\s+(?:personnel|employees|staff|workers|crews?))?"
    r"(?:\s+(?:and|or)\s+(?:the\s+)?(?:contractor|his/her|his|her|its|their)(?:['’]s)?"
    r"(?:\s+(?:personnel|employees|staff|representatives?|agents?|subcontractors?))?)?\s+"
    r"(?:shall|will|must|should|agrees|is responsible|are responsible|is required|are required|"
    r"may be required)\b",
    re.I,
)
"""The performer as the subject of a work statement: the contractor (awardee, service provider,
successful offeror), its personnel (``Contractor personnel shall not operate ...``) or both
(``The Contractor or his/her representative shall place ...``), after an optional run-in title
and one leading clause (``Under this effort, the successful Contractor shall ...``)."""
_BY_PERFORMER = re.compile(
    r"\b(?:shall|will|must)\s+(?:not\s+)?(?:also\s+)?be\s+(?:\w+ly\s+)?(?:\w+(?:ed|en|wn|ne|lt)|"
    r"borne)\s+(?:\w+\s+){0,2}?(?:by\s+the\s+(?:contractor|vendor|awardee|service provider)\b|"
    r"at\s+(?:the\s+)?(?:contractor|vendor|awardee)['’]s\s+(?:own\s+|sole\s+)?(?:cost|expense)\b)"
    r"|\b(?:shall|will|must)\s+be\s+[^.;]{0,60}?\band\s+\w+(?:ed|en|wn)\s+by\s+the\s+(?:contractor|"
    r"vendor|awardee|service provider)\b"
    r"|\b(?:is|are|shall be|will be)\s+the\s+(?:sole\s+)?responsibility\s+of\s+the\s+"
    r"(?:contractor|vendor|awardee|service provider)\b",
    re.I,
)
"""The performer named after a passive verb (``Appropriate safety equipment shall be furnished
by the Contractor``, ``OSHA standards shall be observed by the Contractor``, ``repair costs
shall be borne by the contractor``, ``Any turf damaged shall be restored at Contractor's cost``,
``Removal of debris shall be the responsibility of the Contractor``): the same post-award work
statement in the passive voice."""
_LETTER_MARKER = re.compile(r"^[A-Z](?:\.\s+|\s\.\s*)(?=[A-Z])")
"""A capital letter marking a paragraph of a specification (``C. The Contractor shall ...``,
``B .It shall ...``): not a word of the sentence (``U.S.`` has no space after its dot)."""
_ABOUT_THE_PROPOSAL = re.compile(
    r"\b(?:proposals?|quotes?|quotations?|offers?|bids?|submissions?|submittals?|submit(?:s|ted)?|"
    r"responses?|respond|RFP|RFQ|RFI|solicitation|volume|page limit|pages)\b",
    re.I,
)
_QUALIFICATION = re.compile(
    r"\b(?:be registered|registered (?:in|with)|possess|hold (?:a|an|the|valid)|certif\w*|"
    r"licen[cs]ed|eligible|qualif\w*|minimum of|at least \w+ \(?\d*\)?\s*years?)\b",
    re.I,
)
"""A condition the offeror must meet and certifies (registration, licence, years): an ask of
kind requirement even when written "The Contractor must ..."."""


def is_work_statement(sentence: str) -> bool:
    """True for a post-award work statement: the contractor (awardee, successful offeror,
    service provider) shall / will / must do the work, and nothing in the sentence is about the
    proposal (proposal, quote, offer, bid, submission, response, solicitation, volume, pages).

    ``The Contractor shall maintain the system 24x7.`` is one; ``The Contractor shall include
    resumes in its proposal.`` and ``The Offeror shall describe ...`` are not. Source: the
    compliance-matrix practice of keeping SOW/PWS obligations apart from Section L asks (the
    proposal answers the asks; the contract binds the work).
    """
    s = strip_inline_markdown(sentence).strip().lstrip("-–—•*").strip()
    s = LEADING_LABEL.sub("", s, count=1)
    s = _LETTER_MARKER.sub("", LIST_MARKER.sub("", s, count=1), count=1)
    return (
        bool(_PERFORMER.match(s) or _BY_PERFORMER.search(s) and is_requirement(s))
        and not _ABOUT_THE_PROPOSAL.search(s)
        and not _QUALIFICATION.search(s)
    )


_PROPOSAL_NOUN = re.compile(
    r"\b(?:proposals?|quotes?|quotations?|offers?|bids?|responses?|volume|page limit|pages)\b",
    re.I,
)
"""The proposal itself named (not "submit", which invoices and substitution requests share,
and not the solicitation or the RFP: a substitution "during the solicitation process" or an
invoice citing "the solicitation number" is still contract administration)."""

_ADMINISTRATION = re.compile(
    r"\b(?:invoic\w*|payments?|paid|reimburs\w*|substitut\w*|travel|modifications?|"
    r"CPARS|performance evaluations?)\b",
    re.I,
)
"""What the contract administers after award: invoices, payment, reimbursed travel, personnel
substitutions, modifications, performance evaluations."""


def is_administration_requirement(sentence: str) -> bool:
    """A ``shall`` / ``must`` sentence about administering the awarded contract (invoices,
    payment, travel, personnel substitutions, modifications; ``_ADMINISTRATION``) with nothing
    about the proposal in it and no content asked for (``The Offeror must describe its
    approach to invoicing`` stays an ask): ``All travel must be approved by the COR prior to
    booking.``, ``No paper invoices shall be accepted.`` Source: compliance-matrix practice
    (contract administration clauses bind the awardee, they are not proposal compliance
    items)."""
    s = strip_inline_markdown(sentence)
    return (
        is_requirement(s)
        and bool(_ADMINISTRATION.search(s))
        and not _PROPOSAL_NOUN.search(s)
        and (not _QUALIFICATION.search(s) or bool(_SUBSTITUTION.search(s)))
        and (not is_ask(s) or bool(_CONTRACTOR_ACTION.match(s.strip())))
    )


_SUBSTITUTION = re.compile(r"\bsubstitut\w*", re.I)
"""A personnel substitution: the substitute's qualifications it speaks of ("must have
qualifications that meet or exceed those of the person replaced") are the awarded contract's
approval rule, not a qualification the offeror certifies in its proposal."""


_CONTRACTOR_ACTION = re.compile(
    rf"^{_CONTRACTOR}\s+(?:shall|must)\s+(?:also\s+)?(?:{PROCEDURAL_VERBS})\b", re.I
)
"""``The contractor must submit a final invoice ...``: the contractor's action on an
administration matter (submit, include, complete ...) is the awarded contract's, even though
the wording is that of an ask (``is_administration_requirement``)."""


_AFTER_SELECTION = re.compile(
    r"^(?:if|when|once|after|upon)\b[^,;]{0,80}?\b(?:is|are|has been|have been)\s+"
    r"(?:selected|chosen|awarded)\b(?!\s+(?:for|to)\s+(?:an?\s+)?(?:oral|interview|presentation|"
    r"demonstration|discussions|competitive range|further|the next|phase|step)\b)"
    r"|^(?:upon|after|following)\s+(?:the\s+)?(?:contract\s+)?award\b"
    r"|\bwithin\s+\S+\s+(?:\(\d+\)\s+)?(?:working\s+|business\s+|calendar\s+)?days\s+"
    r"(?:after|of|from)\s+(?:the\s+)?(?:(?:date\s+of\s+(?:the\s+)?)?(?:contract\s+)?award|"
    r"notice of (?:intent|award)|(?:date\s+of\s+)?(?:the\s+)?[\w'’\\]+\s+request)\b",
    re.I,
)


def is_after_selection(sentence: str) -> bool:
    """A ``shall`` / ``must`` sentence that binds only the firm selected for award: conditioned
    on the selection (``If a proposal with subcontractors is selected, the offeror must provide
    ...``), opening with the award (``Upon award, the contractor shall ...``), or due a number
    of days after the award or the buyer's later request (``... within five working days from
    the date of the buyer's request``). Selection for an oral presentation or the competitive
    range is a stage of the evaluation, not the award (``If selected for an oral presentation,
    ...`` stays an ask), and so does anything also due with the offer (``_WITH_THE_OFFER``).
    Source: compliance-matrix practice (the proposal answers what is due
    with the offer; what the awardee owes after selection is a contract action)."""
    s = strip_inline_markdown(sentence).strip().lstrip("-–—•*").strip()
    s = LIST_MARKER.sub("", LEADING_LABEL.sub("", s, count=1), count=1)
    return is_requirement(s) and bool(_AFTER_SELECTION.search(s)) and not _WITH_THE_OFFER.search(s)


_WITH_THE_OFFER = re.compile(
    r"\b(?:with|in)\s+(?:the|its|their|your|each)\s+(?:proposals?|offers?|quotes?|quotations?|bids?|"
    r"responses?|submissions?)\b",
    re.I,
)
"""Due with the offer (``... must be submitted with the proposal or within five days of the
State's request``): an ask of the proposal, whatever later date it also allows."""


def is_work_requirement(sentence: str) -> bool:
    """A ``shall`` / ``must`` sentence inside the statement of work that is a post-award
    obligation: nothing in it is about the proposal and it is no qualification the offeror
    certifies (``The application must export data.``), and the bidder is told to write
    nothing (``_BIDDER_WRITES``). The caller decides that the sentence
    stands in statement-of-work text (``section_kinds.SectionKinds.is_statement_of_work``)."""
    s = strip_inline_markdown(sentence)
    return (
        is_requirement(s)
        and not _ABOUT_THE_PROPOSAL.search(s)
        and not _QUALIFICATION.search(s)
        and not SECOND_PERSON.search(s)
        and not _BIDDER_WRITES.search(s)
    )


def is_deliverable_delivery(sentence: str) -> bool:
    """A ``shall`` / ``must`` sentence that hands over the work's deliverables or reports
    (``_DELIVERABLE_SUBMITTED``) and names no proposal: a post-award delivery, though
    "submitted" is also the proposal's word. The caller decides where it stands (outside
    Section L/M: ``ask_kinds``). Source: compliance-matrix practice (the deliverables schedule
    is traced to the SOW, not answered in the proposal)."""
    s = strip_inline_markdown(sentence).strip().lstrip("-–—•*").strip()
    s = LIST_MARKER.sub("", LEADING_LABEL.sub("", s, count=1), count=1)
    return (
        is_requirement(s) and bool(_DELIVERABLE_SUBMITTED.match(s)) and not _PROPOSAL_NOUN.search(s)
    )


_DELIVERABLE_SUBMITTED = re.compile(
    r"^(?:(?:a|one)\s+cop(?:y|ies)\s+of\s+)?(?:the\s+|all\s+|any\s+|each\s+)?(?:[\w-]+\s+){0,2}?"
    r"(?:deliverables?|reports?)\s+(?:shall|must|will)\s+be\s+(?:submitted|delivered|uploaded)\b",
    re.I,
)
"""The work's deliverables handed over (``Code deliverables shall be submitted via pull
requests``, ``A copy of any document deliverables shall be submitted to the technical team``,
``Monthly reports shall be submitted to the COR``): in statement-of-work text a post-award
delivery, though "submitted" is also the proposal's word."""


_BIDDER_WRITES = re.compile(
    rf"\b{_ACTORS}\s+(?:shall|must|should)\s+(?:also\s+|briefly\s+|clearly\s+)?"
    rf"(?:{CONTENT_VERBS})\b",
    re.I,
)
"""The bidder told to write something anywhere in the sentence (``While on site work is not
required in some cases, the Offeror shall describe their ability ...``): an ask of the
proposal, even in statement-of-work text and after a leading clause."""


# -- what the proposal does not answer: the procurement's own process ------------------------

_EVALUATION_SUBJECT = (
    r"(?:award|awards|selection|negotiations?|evaluations?|proposals?|quotes?|quotations?|"
    r"offers?|bids?|responses?|submissions?|price|prices|pricing)"
)
_PASSIVE_PROCESS = re.compile(
    rf"^(?:[^,]{{0,80}},\s*)?(?:\S+\s+){{0,4}}?{_EVALUATION_SUBJECT}\b(?:\s+\S+){{0,8}}?\s+"
    r"(?:shall|will|must|may)\s+(?:not\s+|then\s+|only\s+|also\s+)*be\s+(?:evaluated|assessed|"
    r"rated|scored|ranked|reviewed|considered|made|conducted|accomplished|based|determined|"
    r"awarded|adjusted)\b",
    re.I,
)
"""``Proposals shall be evaluated against ...``, ``No award shall be made until ...``,
``Selection shall be made of two or more offerors``, ``The evaluation of Phase 1 shall be
accomplished using the Pass/Fail method``: how the buyer evaluates and awards."""
_COMMUNICATION = re.compile(
    r"^(?:[^,]{0,80},\s*)?(?:all\s+|any\s+)?(?:written\s+|technical\s+|contractual\s+)?"
    r"(?:questions?|inquiries|enquiries|communications?|requests? for (?:information|"
    r"clarifications?))\b(?:\s+(?:or|and)\s+(?:comments|requests\b[^.]{0,40}))?"
    r"(?:\s+\S+){0,10}?\s+(?:shall|must|should|will|are to|is to)\b"
    r"|\b(?:direct|submit|send|address|e-?mail|ask)\s+(?:all\s+|any\s+|your\s+|them\s+)?"
    r"(?:written\s+(?:or\s+verbal\s+|and\s+verbal\s+)?)?(?:questions|inquiries|enquiries|"
    r"communications)\b"
    r"|\b(?:shall|must|will|may)\s+not\s+(?:attempt\s+to\s+)?contact\b"
    r"|\bno attempt shall be made\b[^.]{0,80}\bcontact\b"
    r"|^no\s+(?:offeror|bidder|vendor|quoter|proposer|respondent)\b[^.]{0,160}\b(?:shall|may|"
    r"must)\s+contact\b",
    re.I,
)
"""Questions about the solicitation and contact with the buyer before award (``Questions
shall be submitted to ...``, ``The offeror shall direct all communications to the Contract
Specialist``, ``No attempt shall be made by any offeror to contact ...``)."""
_RECEIPT_DEADLINE = re.compile(
    r"\b(?:must|shall|will|should)\s+be\s+(?:received|submitted|delivered|uploaded)\b"
    r"(?:[^.;]|\.(?=\S)){0,160}?"
    r"(?:\bno later than\b|\bnot later than\b|\bon or before\b|\bby the (?:\S+\s+){0,3}?"
    r"(?:date|deadline|time)\b|\b(?:prior to|before) the (?:\S+\s+){0,3}?(?:date|deadline|"
    r"time)\b)",
    re.I,
)
"""A receipt deadline (``All offers must be received no later than the due date``,
``Proposals must be received ... on or before the Submittal Deadline``); a dot inside a web
address (``... at: https://county.bonfirehub.com, on or before ...``) ends no sentence."""


def is_procurement_process(sentence: str) -> bool:
    """True for a sentence about how the buyer runs the procurement rather than what the
    proposal holds: how offers are evaluated and awarded (``The Government will evaluate
    ...``, ``Proposals shall be evaluated ...``, ``No award shall be made ...``), questions and
    contact before award (``Questions shall be submitted to ...``, ``The offeror shall direct
    all communications to ...``), the factors "used to evaluate offers" (``_USED_TO_EVALUATE``),
    a protest of the award (``_PROTEST``), when offers must arrive (``must be received no later
    than ...``), what a firm that does not bid must do (``_NO_BID``), the invitation to bid
    (``_INVITATION``), the consequence of
    failing an ask (``_CONSEQUENCE``) and the portal registration that reaches the documents
    (``_PORTAL_ACCESS``). A question
    (``... ?``) is never one: an evaluator's question about the offer
    is what the proposal must show.

    Source: proposal practice of shredding an RFP. The compliance matrix lists what the
    proposal must contain and the conditions the offeror must meet; the evaluation method
    tells the writer how each ask is scored, and the question deadline, the point of contact
    and the due date go on the capture schedule, not on a line the proposal answers.
    """
    s = strip_inline_markdown(sentence).strip().lstrip("-–—•*").strip()
    s = LIST_MARKER.sub("", LEADING_LABEL.sub("", s, count=1), count=1)
    if s.endswith("?"):
        return False
    if EVALUATED.search(s) and not ASK.match(s) and not _MODAL.search(s):
        return True
    return bool(
        _PASSIVE_PROCESS.match(s)
        or _USED_TO_EVALUATE.search(s)
        or (_PROTEST.search(s) and not SECOND_PERSON.search(s))
        or _COMMUNICATION.search(s)
        or _RECEIPT_DEADLINE.search(s)
        or _NO_BID.search(s)
        or _INVITATION.search(s)
        or _CONSEQUENCE.search(s)
        or _PORTAL_ACCESS.search(s)
    )


_USED_TO_EVALUATE = re.compile(
    r"\b(?:shall|will)\s+be\s+used\s+(?:by\s+the\s+\w+\s+)?(?:to|in)\s+(?:evaluat|assess|rat|scor)"
    r"\w*\s+(?:the\s+|all\s+)?(?:offers|proposals|quotes|quotations|bids|responses)\b"
    r"|^(?:[A-Z][^.?!:]{0,120}?:\s+)?(?:\w+\s+){0,2}?points?\s+(?:shall|will|may)\s+be\s+"
    r"(?:given|awarded|assigned|deducted|added)\b",
    re.I,
)
"""``The following factors shall be used to evaluate offers:``, ``Points shall be given to
contractors of small disadvantaged business status``: the evaluation method (how the offer is
scored, Section M)."""
_PROTEST = re.compile(r"\b(?:protests?|protester|protestor|protesting)\b", re.I)
"""A protest of the award (``If an offeror wishes to protest the award ...``, ``Include the
name, address ... of the protester``): the remedy after award is the buyer's procedure, no
line of the proposal; "your experience with bid protests" (second person) is an ask."""


_CONSEQUENCE = re.compile(
    r"^(?:[^,;]{0,120}?)\b(?:shall|will|may|can)\s+(?:also\s+)?(?:(?:disqualify|eliminate)\b"
    r"[^.;]{0,60}?\b(?:from (?:further )?(?:consideration|the competition|award))|"
    r"result\s+in\s+(?:the\s+)?(?:rejection|disqualification|elimination|exclusion)|"
    r"render\b[^.]{0,40}\b(?:non-?responsive|ineligible|unacceptable))\b",
    re.I,
)
"""The consequence of failing an ask (``Refusal to provide the requested information ... shall
disqualify the offeror``, ``Failure to comply may result in rejection``): how the buyer
treats the offer; the ask it enforces is its own line."""
_PORTAL_ACCESS = re.compile(
    r"\bregister\b[^.;]{0,80}?\b(?:in order to|to|prior to|before)\s+(?:\w+\s+){0,2}?"
    r"(?:download|upload|uploading|downloading|access|view|obtain)\b",
    re.I,
)
"""Registering on the buyer's portal to reach the documents or the upload (``Offerors must
register in the portal in order to download the RFP documents``, ``Vendors must register a
minimum of one week prior to uploading a proposal``): how to reach the buyer, not a line of
the proposal (a registration the offeror must hold, "be registered in SAM", is a
qualification)."""


_INVITATION = re.compile(
    r"\b(?:is|are)\s+(?:hereby\s+)?(?:encouraged|invited)\s+to\s+(?:submit|provide)\s+"
    r"(?:a|an|their|its|your)\s+(?:\w+\s+){0,2}?(?:proposals?|quotes?|quotations?|responses?|"
    r"offers?|bids?)\b",
    re.I,
)
"""The solicitation's invitation to bid (``Qualified offerors are encouraged to submit a
proposal to provide IT Staff Augmentation services``): it names the procurement, not a line
of the proposal."""


_NO_BID = re.compile(
    r"\b(?:does|do|did)\s+not\s+(?:intend|plan|wish|elect)\s+to\s+(?:submit|bid|quote|respond|"
    r"propose)\b|\bno[- ]bid\b|[“\"]no quote[”\"]|"
    r"\bdeclines?\s+to\s+(?:bid|quote|submit|respond)\b",
    re.I,
)
"""What to do when one does not bid (``if the aBPA holder does not intend to submit a
quotation ..., the aBPA holder shall place a "No Quote" in eBuy``): no line of the proposal
that is submitted."""


_FOLLOW_THE_DOCUMENT = re.compile(
    r"^(?:please\s+)?(?:(?:the|each|all)\s+[\w-]+(?:\s*\(s\))?\s+(?:shall|must|should|will|"
    r"is to|are to)\s+)?(?:submit|furnish|supply|provide|prepare)\s+(?:(?:your|its|their|the|"
    r"all|all the|all of the)\s+)?(?:complete\s+)?(?:quotations?|quotes?|proposals?|responses?|"
    r"offers?|bids?|information|documentation|submissions?)\s+(?:in accordance with|"
    r"as (?:required|specified|described|instructed) (?:by|in)|required (?:by|in)|specified in)"
    r"\s+(?:the|this)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:instructions|RFP|RFQ|RFI|IFB|solicitation|request)\b[^:;]*$",
    re.I,
)


def is_general_compliance(sentence: str) -> bool:
    """A sentence whose only demand is to follow the document itself (``Please submit your
    quotation in accordance with the instructions specified in this RFQ``, ``The Contractor
    shall furnish the information required by this solicitation.``): it names no content of
    its own; the asks it points at are the matrix lines. Source: proposal practice (a
    compliance matrix lists the specific instructions, not the reminder to follow them)."""
    s = strip_inline_markdown(sentence).strip().lstrip("-–—•*").strip()
    s = LIST_MARKER.sub("", LEADING_LABEL.sub("", s, count=1), count=1)
    if s.endswith("?"):
        return False
    return bool(
        _FOLLOW_THE_DOCUMENT.match(s)
        or _MEET_EVERYTHING.search(s)
        or _VEHICLE_TERMS.match(s)
        or _only_quality(s)
    )


_VEHICLE_TERMS = re.compile(
    r"^(?:all\s+)?(?:proposed\s+|quoted\s+)?(?:labor\s+|hourly\s+)?(?:rates|prices|pricing|"
    r"labor categories|skill levels(?:/labor categories)?)\s+(?:shall|must|should)\s+"
    r"(?:[^.;]{0,80}?\b)?(?:be\s+)?(?:consistent with|in compliance with|in accordance with)\b"
    r"[^.;]{0,80}?\b(?:your|the|its|their)\s+(?:\w+\s+){0,3}?(?:a?BPA|contract|schedule|"
    r"vehicle|IDIQ|GWAC)\b",
    re.I,
)
"""Prices or labor categories bound to the terms of the contract vehicle the order is placed
under (``All proposed labor rates must be consistent with the terms, conditions, and rates of
your aBPA``, ``Pricing shall reflect reasonableness ... and be in compliance with rates and
terms and conditions of the aBPA``): the holder's contract already binds them, the price
volume keeps them; no content of its own."""


_MEET_EVERYTHING = re.compile(
    r"\b(?:shall|must|should|will)\s+(?:be\s+)?(?:held\s+)?(?:responsible\s+for\s+and\s+)?"
    r"governed\s+by\s+(?:all\s+)?(?:of\s+)?the\s+(?:\w+\s+){0,2}?(?:requirements|terms|"
    r"provisions)\b(?:\s+(?:there\s?under|herein|of\s+(?:the|this)\s+\w+))?\s*\.?$"
    r"|\b(?:shall|must|should|will)\s+(?:successfully\s+)?(?:meet|exceed|satisfy|comply with|"
    r"pass(?:\s+through)?)\s+(?:or exceed\s+)?(?:each|every|all)(?:\s+of\s+the)?\s+"
    r"(?:(?:solicitation|stated|RFP|RFQ|mandatory|evaluation)\s+)?(?:requirements|phases?|"
    r"factors|terms(?: and conditions)?|conditions)"
    r"(?:\s+(?:of|in|set forth in|stated in)\s+(?:the|this)\s+"
    r"(?:solicitation|RFP|RFQ|RFI))?(?:\s+(?:in order\s+)?to be (?:considered|eligible)\s+for\s+"
    r"(?:award|further consideration))?\s*\.?$",
    re.I,
)
"""``Offerors must meet or exceed all solicitation requirements to be eligible for award.``,
``To be considered for award, offerors must successfully pass through each phase.``: the
demand is the whole document (or all its phases), the lines are the specific asks; so is
``..., and the Contractor shall be responsible for and governed by all the requirements there
under.`` (the general requirements bind every section of the specification)."""

_QUALITY = (
    r"(?:clear(?:ly written)?|concise|specific|complete|accurate|autonomous|thorough|succinct|"
    r"legible|truthful|factual|current|free (?:of|from) (?:\w+\s+){0,2}?(?:ambiguit(?:y|ies)|"
    r"errors?)|closely aligned with [^,;.]*?(?=\s+and\s+(?:shall|must|should)\b|[,;.]|$))"
)
_QUALITY_CLAUSE = re.compile(
    rf"\b(?:shall|must|should)\s+be\s+(?:\w+ly\s+)?{_QUALITY}"
    rf"(?:\s*,\s*(?:and\s+)?{_QUALITY}|\s+and\s+{_QUALITY})*",
    re.I,
)
_PURPOSE = re.compile(
    r"^\s*(?:,?\s*(?:so that|in order to|to (?:allow|enable|permit|facilitate))\b.*)?$", re.I
)


def _only_quality(sentence: str) -> bool:
    """Every ``shall``/``must``/``should`` clause of ``sentence`` asks only for a quality of the
    text (``Information provided in the quotation shall be concise, specific, and complete.``,
    ``Each file must be autonomous and complete.``, ``... shall be closely aligned with the
    procurement and shall be free from ambiguities.``), followed by nothing but a purpose
    (``so that a CO can assess ...``): a writing standard for every line, not a line of the
    matrix. Source: proposal practice (a compliance matrix lists what the proposal must
    contain and the rules it must keep; "be clear and complete" is checked by the review,
    not answered)."""
    clauses = list(_QUALITY_CLAUSE.finditer(sentence))
    if not clauses or len(clauses) != len(_MODAL_OR_SHOULD.findall(sentence)):
        return False
    rest = sentence[clauses[-1].end() :].rstrip(" .")
    between = [sentence[a.end() : b.start()] for a, b in zip(clauses, clauses[1:], strict=False)]
    joins_only = all(re.fullmatch(r"\s*(?:,\s*)?and\s+", gap, re.I) for gap in between)
    return joins_only and bool(_PURPOSE.match(rest))


_MODAL_OR_SHOULD = re.compile(r"\b(?:shall|must|should)\b", re.I)

_BARE_LEAD_IN = re.compile(
    r"^(?:at a minimum,?\s*|in addition,?\s*)?(?:please\s+)?(?:provide|include|address|describe|"
    r"explain|submit)(?:\s+the following)?(?:\s+(?:information|items|elements))?\s*:$"
    r"|^(?:(?:the|this|that|each|your|all)\s+)?(?:[\w/-]+\s+){1,4}?(?:shall|must|should)\s+"
    r"(?:also\s+)?"
    r"(?:explain|include|address|contain|describe|cover|provide|consist of)\s*(?:at a minimum\s+)?"
    r"(?:the following)?(?:\s+(?:for|in)\s+(?:\w+\s+){0,5}?\w+)?\s*:$"
    r"|^the following\s+(?:[\w/-]+\s+){0,4}?(?:is|are)\s+required\b[^:.]{0,60}:$"
    r"|^the following\s+(?:[\w/-]+\s+){0,4}?(?:must|shall|should)\s+be\s+(?:included|provided|"
    r"submitted|addressed)\b[^:.]{0,60}:$"
    r"|^the following\s+(?:[\w/-]+\s+){0,6}?(?:listed below\s+)?(?:shall|will)\s+apply\b"
    r"[^:.]{0,60}[:.]$"
    r"|^[\w\s/-]{0,40}?\b(?:shall|must)\s+meet\s+the following\s+(?:[\w/-]+\s+){0,3}?"
    r"(?:qualifications|requirements|criteria)\s*[:.]$",
    re.I,
)


def is_bare_lead_in(sentence: str) -> bool:
    """True for a lead-in that only announces the list below it and names nothing to answer of
    its own: ``At a minimum, provide:``, ``Each case study should include:``, ``The Staffing
    Plan must explain the following for the base and option periods:``, ``The following
    introductory information is required on the first page of each section:``, ``The following
    information must be included in all proposals:``, ``Offerors submitting a response must
    meet the following minimum qualifications.`` The caller keeps
    it as context when the listed items are rows of their own (``matrix.matrix_rows``). A
    lead-in that names content (``The offeror shall submit a separate price quotation that
    includes the following:``) is no bare lead-in. Source: proposal practice of shredding to
    the lowest level (each item is a compliance line; the stem is its context)."""
    s = strip_inline_markdown(sentence).strip().lstrip("-–—•*").strip()
    s = LIST_MARKER.sub("", LEADING_LABEL.sub("", s, count=1), count=1)
    return bool(_BARE_LEAD_IN.match(s))


_TASK_IMPERATIVE = re.compile(
    r"^(?:please\s+)?(?:provide|furnish|supply|perform|deliver|maintain|support|ensure|include|"
    r"develop|implement|conduct|operate|host|manage|monitor|train)\b",
    re.I,
)


_WRITTEN_OBJECT = re.compile(
    r"^(?:please\s+)?(?:provide|include|furnish|supply)\s+(?:(?:a|an|the|any|all|two|three|"
    r"\d+|\(\d+\))\s+)?(?:[\w-]+\s+){0,2}?(?:examples?|descriptions?|details|explanations?|"
    r"narratives?|summar(?:y|ies)|resumes?|résumés?|references?|samples?|evidence|copies|"
    r"cop(?:y|ies) of|names|biograph(?:y|ies)|case studies|lists? of)\b",
    re.I,
)
"""``Provide examples of ...``, ``Provide a description of ...``, ``Include resumes ...``: the
object is writing the response holds, so the imperative asks for content even in statement-of-
work text (``Provide on-going maintenance`` orders work)."""


def is_task_imperative(sentence: str) -> bool:
    """An imperative that orders work (``Provide on-going maintenance of the service.``,
    ``Include single sign-on for all users.``) and says nothing about the proposal or "you":
    in statement-of-work text it is a task of the contract (the caller decides where the
    sentence stands). Writing verbs (describe, explain, identify ...) are never tasks, nor is
    an imperative whose object is writing (``_WRITTEN_OBJECT``: "Provide examples of ...")."""
    s = strip_inline_markdown(sentence).strip().lstrip("-–—•*").strip()
    s = LIST_MARKER.sub("", LEADING_LABEL.sub("", s, count=1), count=1)
    return (
        bool(_TASK_IMPERATIVE.match(s))
        and not _WRITTEN_OBJECT.match(s)
        and not s.endswith("?")
        and not _ABOUT_THE_PROPOSAL.search(s)
        and not SECOND_PERSON.search(s)
    )


CHOICE_LIST = re.compile(
    r"\b(?:at least|a minimum of|no fewer than|up to|one or more|two or more|three or more)"
    r"\s+(?:\w+\s+)?(?:\(\d+\)\s+)?(?:\w+\s+)?of the following\b"
    r"|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|\d+)\s+(?:\(\d+\)\s+)?of the "
    r"following\b",
    re.I,
)
"""A prompt that asks for some of the listed items (``experience in at least ten of the
following areas:``, ``two of the following``): the items are options to choose from, one
compliance line with the prompt, not lines of their own (proposal practice). ``any of the
following`` is no choice (``omission of any of the following ...`` requires them all)."""


_BIDDER_NAMED = re.compile(
    r"\b(?:offerors?|quoters?|bidders?|proposers?|respondents?|applicants?|firms?|vendors?|"
    r"contractors?|subcontractors?|awardees?|you|your|yours)\b"
    r"|\b(?:page|cover|font|margins?|resumes?|template|format(?:ted)?|answers?)\b",
    re.I,
)
"""Who bids or performs, or a part of the proposal (a page, the cover, the font, a resume, the
answers)."""


def is_impersonal_requirement(sentence: str) -> bool:
    """A ``shall`` / ``must`` sentence that names no one who bids or performs (no offeror,
    contractor, vendor, firm or "you"), nothing about the proposal and no qualification, and
    is no imperative: it states how the system, the data or the contract must be (``All
    County data must remain the sole property of the County.``, ``Remote access shall be used
    for authorized business purposes only.``, ``This application must be centered on the
    needs of its end users``). Outside the instructions and the evaluation text such a
    sentence describes the work or a contract term; the proposal answers none of it. The
    caller decides where the sentence stands (``matrix.matrix_rows``).

    Source: proposal practice (a compliance-matrix line is addressed to the offeror or its
    proposal; specification and terms text is traced to the SOW, not answered line by
    line)."""
    s = strip_inline_markdown(sentence).strip().lstrip("-–—•*").strip()
    s = LIST_MARKER.sub("", LEADING_LABEL.sub("", s, count=1), count=1)
    return (
        is_requirement(s)
        and not _BIDDER_NAMED.search(s)
        and not _ABOUT_THE_PROPOSAL.search(s)
        and not _QUALIFICATION.search(s)
        and not ASK.match(s)
    )


__all__ = [
    "ASK_VERBS",
    "CONTENT_VERBS",
    "PROCEDURAL_VERBS",
    "is_administration_requirement",
    "is_after_selection",
    "is_ask",
    "is_deliverable_delivery",
    "is_bare_lead_in",
    "is_impersonal_requirement",
    "is_procurement_process",
    "is_task_imperative",
    "is_requirement",
    "is_work_requirement",
    "is_work_statement",
    "refers_back",
]
