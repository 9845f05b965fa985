"""Outlines, questions and past-performance requirements of real solicitations.

Every expectation below was checked by reading the document itself (Markdown source, the
PDF's table of contents and page layout, the Word file): the first 15 outline sections as
(number, heading, level), ten asks as (label, enclosing section as written, kind, first 60
characters), and the past-performance requirements Section L/M states. Public documents are
read in place from ``../shared/data/rfps`` (skipped with a message when missing).
"""

from __future__ import annotations

import pytest
from test_documents_extract import rfp

from rfp_retrieval.documents.questions import find_questions
from rfp_retrieval.scope.section_lm import find_pp_requirements

# The TDRS RFQ in Markdown and in Word: the root is each file's own title, the rest agrees.
_TDRS_SECTIONS_BELOW_ROOT = [
    (None, "Deadlines and response formats", 1),
    ("1.0", "Purpose and Background", 1),
    ("1.1", "Purpose", 2),
    ("1.2", "Background", 2),
    ("1.3", "Problem", 2),
    ("1.4", "Current Prototype", 2),
    ("1.5", "Product Vision", 2),
    (
        "2.0",
        "Scope, Expectations, Anticipated Period of Performance, Estimated Cost, and "
        "Ceiling Amount",
        1,
    ),
    ("2.1", "Scope", 2),
    ("2.2", "Expectations", 2),
    ("2.3", "Anticipated Period of Performance, Estimated Cost, and Ceiling Amount", 2),
    ("3.0", "Objectives", 1),
    ("3.1", "Backlog", 2),
    ("3.1.1", "Preliminary user types", 3),
]
_TDRS_ASKS = [
    (
        "4.0",
        "4.0 Contract Place of Performance and Contract Type",
        "question",
        "The offeror must specify whether the fixed hourly rate for e",
    ),
    (
        "9.2",
        "9.2 Evaluation Factors and Quote Submission Instructions",
        "procurement-process",
        "Quotes will be evaluated on the factors listed below.",
    ),
    (
        "9.2.4",
        "9.2.4 Factor 3 - Similar Experience",
        "question",
        "Please provide only links to source code repositories in the",
    ),
    (
        "9.5",
        "9.5 Basis of Award and Evaluation Factors",
        "procurement-process",
        "The government will evaluate the submitted quotes against th",
    ),
    (
        "9.5",
        "9.5 Basis of Award and Evaluation Factors",
        "procurement-process",
        "The government will evaluate price quotes for award purposes",
    ),
    (
        None,
        "9.6.1 Factor 1 - Technical Approach",
        "evaluation-criterion",
        "Does the proposed approach include programming language(s) a",
    ),
    (
        None,
        "9.6.1 Factor 1 - Technical Approach",
        "evaluation-criterion",
        "Does the contractor describe how they will develop the softw",
    ),
    (
        None,
        "9.6.1 Factor 1 - Technical Approach",
        "evaluation-criterion",
        "Does the contractor demonstrate a clear understanding of the",
    ),
    (
        None,
        "9.6.1 Factor 1 - Technical Approach",
        "evaluation-criterion",
        "Does the contractor identify potential obstacles to efficien",
    ),
    (
        None,
        "9.6.1 Factor 1 - Technical Approach",
        "evaluation-criterion",
        "If the contractor plans to provide services through a joint ",
    ),
]

# file -> (first 15 sections, ten asks)
EXPECTED = {
    "18f-hhs-tdrs-rfq-final.md": (
        [(None, "General Services Administration", 0), *_TDRS_SECTIONS_BELOW_ROOT],
        _TDRS_ASKS,
    ),
    "alaska-dhss-aries-support-rfp-210000029.md": (
        [
            (None, "State of Alaska Request for Proposals", 0),
            (None, "ISSUED BY", 1),
            (None, "PRIMARY CONTACT", 1),
            ("Section 1", "Introduction & Instructions", 1),
            ("Sec. 1.01", "Purpose of the RFP", 2),
            ("Sec. 1.02", "Budget", 2),
            ("Sec. 1.03", "Deadline for Receipt of Proposals", 2),
            ("Sec. 1.04", "Minimum Qualifications", 2),
            ("Sec. 1.05", "Required Review", 2),
            ("Sec. 1.06", "Questions Prior to Deadline for Receipt of Proposals", 2),
            ("Sec. 1.07", "Return Instructions", 2),
            ("Sec. 1.08", "Proposal Contents", 2),
            (None, "Authorized Signature", 2),
            (None, "Offeror's Certification", 2),
            (None, "Vendor Tax ID", 2),
        ],
        [
            (
                None,
                "Sec. 1.07 Return Instructions",
                "question",
                "In the body of the email, please indicate the Procurement Of",
            ),
            (
                None,
                "Federal Requirements",
                "question",
                "The offeror must identify all known federal requirements tha",
            ),
            (
                None,
                "Sec. 4.02 Introduction",
                "question",
                "Proposals must confirm that the offeror will comply with all",
            ),
            # "Succinctly describe your approach to the following areas ...:" asks
            # (ask_patterns: "succinctly" like "briefly"); the five "Topic -- Describe ..."
            # bullets are its parts, each a matrix row (tests/test_ask_precision_s16.py)
            (
                None,
                "Sec. 4.04 Project Management Approach",
                "question",
                "Succinctly describe your approach to the following areas of ",
            ),
            (
                None,
                "Sec. 4.03 Technical Understanding and Approach",
                "question",
                "Succinctly describe level of knowledge, technical expertise ",
            ),
            (
                None,
                "Sec. 4.05 Approach to User Interface and User Experience Design",
                "question",
                "Succinctly describe how you will perform user experience and",
            ),
            (
                None,
                "Sec. 4.06 Staffing Approach",
                "question",
                "Provide a staffing approach that describes your understandin",
            ),
            (
                None,
                "Sec. 4.09 Cost Proposal",
                "requirement",
                "Offerors must complete the cost proposal template provided i",
            ),
            (
                None,
                "Sec. 4.06 Staffing Approach",
                "question",
                "Provide a staffing approach that describes your understandin",
            ),
            (
                None,
                "Sec. 4.07 Experience and Qualifications",
                "question",
                "The offeror must describe how they fully meet the minimum qu",
            ),
        ],
    ),
    "18f-dol-whd-14c-first-order-rfq.md": (
        [
            (None, "Request for Quotation (RFQ)", 0),
            ("1.", "General", 1),
            ("2.", "Administration", 1),
            ("3.", "Period of Performance", 1),
            ("4.", "Type of Contract", 1),
            ("5.", "Content", 1),
            ("6.", "Special Instructions", 1),
            # lettered and roman sub-items with italic run-in titles (issue 13)
            ("a.", "Format", 2),
            ("b.", "Page Limits", 2),
            ("c.", "Quotation Validation Date", 2),
            ("d.", "Communications Prior to Award", 2),
            ("7.", "Quotation Instructions", 1),
            ("a.", "Potential Organizational Conflicts of Interest Statement", 2),
            ("b.", "Technical Quotation", 2),
            ("i.", "Cover Page", 3),
        ],
        [
            (
                "1",
                "1. General",
                "procurement-process",
                "Questions or comments regarding this RFQ shall be submitted ",
            ),
            (
                "1",
                "1. General",
                "procurement-process",
                "All offers must be received electronically through the e-Buy",
            ),
            (
                "1",
                "1. General",
                "procurement-process",
                "REMINDER: In accordance with the terms and conditions of the",
            ),
            (
                "5.",  # the text run in after its numbered title carries the number
                "5. Content",
                "general-compliance",
                "Please submit your quotation in accordance with the instruct",
            ),
            (
                "7",
                "7. Quotation Instructions",
                "requirement",
                "Submittals in response to this solicitation shall only inclu",
            ),
            (None, "ii. Staffing Plan", "question", "At a minimum, provide:"),
            (
                None,
                "i. Similar Experience",
                "question",
                "In the project summary, please identify how the offeror’s te",
            ),
            (
                None,
                "i. Similar Experience",  # "The summary shall include links ..." stays on the
                "question",  # line of the summary it rules (ask_patterns.refers_back)
                "In the project summary, please identify how the offeror’s te",
            ),
            (
                None,
                "a. Technical Evaluation Factors",
                "procurement-process",
                "The Government will evaluate the requirements for an Offeror",
            ),
            (
                None,
                "b. Price Evaluation Factors",
                "procurement-process",
                "Each Offeror’s price quotation will be evaluated separately ",
            ),
        ],
    ),
    "18f-usfs-epermit-api-rfq.md": (
        [
            (None, "REQUEST FOR QUOTATION (RFQ)", 0),
            # the second title line is the title's, not a section; sub-items with italic
            # run-in titles are sections (issue 13)
            ("1.", "General", 1),
            ("2.", "Administration", 1),
            ("3.", "Period of Performance", 1),
            ("4.", "Type of Contract", 1),
            ("5.", "Special Instructions", 1),
            ("1.", "Quotation Validation Date", 2),
            ("2.", "Communications Prior to Award", 2),
            ("3.", "Potential Organizational Conflicts of Interest Statement", 2),
            ("6.", "Quotation Instructions", 1),
            ("a.", "Format", 2),
            ("b.", "Page Limits", 2),
            ("c.", "Cover Page", 2),
            ("d.", "Technical Understanding and Approach", 2),
            ("e.", "Staffing Plan", 2),
        ],
        [
            (
                "1.",
                "1. General",
                "general-compliance",
                "Please submit your quotation in accordance with the instruct",
            ),
            (
                "1",
                "1. General",
                "procurement-process",
                "Questions or comments regarding this RFQ shall be submitted ",
            ),
            (
                "1",
                "1. General",
                "procurement-process",
                "All offers must be received electronically through the eBuy ",
            ),
            (
                "1",
                "1. General",
                "procurement-process",
                "REMINDER: In accordance with the terms and conditions of the",
            ),
            (
                "3",
                "3. Potential Organizational Conflicts of Interest Statement",
                "procurement-process",
                "No call order award shall be made until any potential confli",
            ),
            (
                "3",
                "3. Potential Organizational Conflicts of Interest Statement",
                "procurement-process",
                "Refusal to provide the requested information or the willful ",
            ),
            (
                "6.",
                "6. Quotation Instructions",
                "requirement",
                "Submittals in response to this solicitation shall only inclu",
            ),
            (None, "e. Staffing Plan", "question", "At a minimum, provide:"),
            (
                None,
                "e. Staffing Plan",
                "requirement",
                "Key Personnel shall be qualified personnel commensurate with",
            ),
            (
                None,
                "e. Staffing Plan",
                "requirement",
                "Proposed personnel shall have a strong technical experience ",
            ),
        ],
    ),
    "ustaxcourt-ef-cms-rfq-18-0018.pdf": (
        [
            (None, "STATEMENT OF WORK", 1),
            (None, "Introduction", 2),
            (None, "Description of Work to be Performed", 2),
            (None, "General Requirements", 2),
            (None, "Deliverables and Performance Standards", 2),
            (None, "User Stories", 3),
            (None, "Location of Work to be Performed", 2),
            (None, "Order Type and Ceiling Price", 2),
            (None, "Period of Performance", 2),
            (None, "Delivery Instructions", 2),
            (None, "Special Requirements", 2),
            (None, "EVALUATION CRITERIA", 1),
            (None, "Submissions", 2),
            (None, "Format", 3),
            (None, "Due Date and Time", 3),
        ],
        [
            (
                None,
                "Introduction",
                "requirement",
                "Quotes are due by 5:00 p.m. EDT, Friday, August 24, 2018, an",
            ),
            (
                None,
                "Description of Work to be Performed",
                "work-statement",
                "The Contractor must post all developed code to a GitHub repo",
            ),
            (
                None,
                "General Requirements",
                "work-statement",
                "The System must incorporate an intuitive web-based interface",
            ),
            (
                None,
                "General Requirements",
                "work-statement",
                "The System architecture must incorporate Application Program",
            ),
            (
                None,
                "General Requirements",
                "work-statement",
                "The System must have no single point of failure.",
            ),
            (
                None,
                "General Requirements",
                "work-statement",
                "The System must include user authentication and authorizatio",
            ),
            (
                None,
                "General Requirements",
                "work-statement",
                "The System must be integrated with pay.gov to enable the rec",
            ),
            (
                None,
                "General Requirements",
                "work-statement",
                "Software Requirements – The software architecture must be ex",
            ),
            (
                None,
                "General Requirements",
                "work-statement",
                "The code base must incorporate analytics, monitoring, contin",
            ),
            (
                None,
                "General Requirements",
                "work-statement",
                "Application design and development must use plain language t",
            ),
        ],
    ),
    "doc-rfi-cybersecurity-operations-cloud-migration.pdf": (
        [
            (None, "Description", 1),
            (None, "Objective", 1),
            (None, "Solution Overview", 1),
            (None, "Background", 1),
            (None, "Current DOC Cybersecurity Infrastructure Components", 1),
            ("A.", "DOC Enterprise Security Operations Center (ESOC)", 2),
            (None, "Applications Currently Utilized in DOC ESOC", 1),
            ("B.", "DOC ECMO Program", 2),
            (None, "Applications Currently Utilized in DOC ECMO", 1),
            ("C.", "Continuous Diagnostic and Mitigation (CDM) Program", 2),
            (None, "Information Requested", 1),
            (None, "Government Point of Contact (GPOC)", 1),
            (None, "Disclaimer and Important Notes", 1),
            (None, "Confidentiality", 1),
            ("Appendix A", "General Response Tables", 1),
        ],
        [
            (
                "2.",
                "Solution Overview",
                "question",
                "Recommend a cloud hosting architecture, considering DOC’s cu",
            ),
            (
                "7.",
                "Solution Overview",
                "question",
                "Provide on-going maintenance and administration of the cloud",
            ),
            (
                "2.",
                "Information Requested",
                "question",
                "What is the feasibility of the solution detailed in the Solu",
            ),
            (
                "a.",
                "Information Requested",
                "question",
                "What are the risks and considerations for the overall soluti",
            ),
            (
                "i.",
                "Information Requested",
                "question",
                "If necessary, please detail potential alternatives that can ",
            ),
            (
                "3.",
                "Information Requested",
                "question",
                "What is the feasibility for a single vendor to orchestrate t",
            ),
            (
                "a.",
                "Information Requested",
                "question",
                "What are the opportunities and limitations of that strategy?",
            ),
            (
                "i.",
                "Information Requested",
                "question",
                "Please detail any recommended contract vehicles and acquisit",
            ),
            (
                "4.",
                "Information Requested",
                "question",
                "Please provide a rough order of magnitude (ROM) for the clou",
            ),
            (
                "5.",
                "Information Requested",
                "question",
                "Please provide types and approximate number of personnel req",
            ),
        ],
    ),
    "disa-ebm-draft-rfp-hc1013-05-r-2001.pdf": (
        [
            ("ADDENDUM A", "DRAFT RFP INFORMATION", 1),
            (
                "A.1.1.",
                "This is Draft RFP HC1013-05-R-2001 for the Enterprise Business Modernization "
                "(EBM) Project for the…",
                3,
            ),
            (
                "A.1.2.",
                "FAR 52.215-3 - REQUEST FOR INFORMATION OR SOLICITATION FOR PLANNING PURPOSES "
                "(OCT 1997)",
                3,
            ),
            ("A.1.3.", "Projected Final RFP HC1013-05-R-2001 Milestone Schedule", 3),
            ("ADDENDUM B", "SUPPLIES OR SERVICES AND PRICES/COSTS", 1),
            (
                "B.1.1.",
                "The Government requests the offerors propose a Contract Line Item Number "
                "(CLIN)/Sub-Contract Line…",
                3,
            ),
            ("ADDENDUM F", "DELIVERIES OR PERFORMANCE", 1),
            ("F.1.1.", "Testing", 3),
            (
                "F.1.2.",
                "Possible final delivery locations (Actual location(s) may not be provided to "
                "the offerors until…",
                3,
            ),
            ("F.1.3.", "Period of Contract/Performance", 3),
            ("F.1.4.", "Government Ownership", 3),
            ("ADDENDUM G", "CONTRACT ADMINISTRATION", 1),
            ("G.1.1.", "Payment address", 3),
            ("G.1.2.", "Payment Structure", 3),
            ("G.1.3.", "Contract Type", 3),
        ],
        [
            (
                "B.1.1.",
                "ADDENDUM B - SUPPLIES OR SERVICES AND PRICES/COSTS",
                "work-statement",
                "CLINs/SLINs for the base period shall be for the complete so",
            ),
            (
                "B.1.1.",
                "ADDENDUM B - SUPPLIES OR SERVICES AND PRICES/COSTS",
                "requirement",
                "CLINs/SLINs for the option years shall for offeror’s propose",
            ),
            (
                "F.1.1",
                "F.1.1. Testing",
                "work-statement",
                "The contractor shall ship and install all equipment necessar",
            ),
            (
                "F.1.1",
                "F.1.1. Testing",
                "work-statement",
                "Testing shall be conducted at DISA’s Continuity of Operation",
            ),
            (
                "F.1.1",
                "F.1.1. Testing",
                "work-statement",
                "Upon successful completion of testing, the contractor shall ",
            ),
            (
                "L.1.2 a.",  # a lettered item is cited with its section's number
                "L.1.2. Proposal Format",
                "requirement",
                "The written portion of the proposal shall be submitted in el",
            ),
            (
                None,
                "Volume I, Functional",  # the proposal volumes are sections (issue 13)
                "question",
                "Offerors shall describe how their solution addresses each of",
            ),
            (
                None,
                "Volume I, Functional",
                "requirement",
                "Additionally, offerors shall complete the Fit Gap Matrix att",
            ),
            (
                None,
                "Volume II, Technical",  # ("Detail technical information ... are provided in
                "question",  # the CRD" says where the detail is: no ask, ask_patterns.is_ask)
                "Offerors shall describe how their solution addresses each of",
            ),
            (
                None,
                "Volume I, Functional",
                "requirement",
                "Volume I shall also include any revised process models, oper",
            ),
        ],
    ),
    "tsa-oatss-sources-sought-rfi-70t04020i9nap6403.pdf": (
        [
            ("I.", "INTRODUCTION/PURPOSE", 1),
            ("II.", "BACKGROUND AND OBJECTIVES", 1),
            ("III.", "CONTRACTOR’S CAPABILITIES STATEMENT", 1),
            ("Section 1", "Cover Letter", 2),
            ("Section 2", "Capabilities Statement", 2),
            ("Section 3", "Corporate Experience", 2),
            ("Section 4", "Draft Statement of Work and Technical Prompts", 2),
            ("Section 5", "Technical Exchanges", 2),
            ("IV.", "SUBMISSION OF INFORMATION", 1),
            ("V.", "POINTS OF CONTACT", 1),
            ("VI.", "DISCLAIMER", 1),
        ],
        [
            (
                None,
                "II. BACKGROUND AND OBJECTIVES",
                "work-statement",
                "Provide adequate reporting (managerial and technical) to inc",
            ),
            (
                None,
                "II. BACKGROUND AND OBJECTIVES",
                "work-statement",
                "As part of the Acceptance Testing program, TSA must ensure t",
            ),
            (  # "Interested vendors shall identify ..." asks for content (ask_patterns._ACTORS)
                None,
                "III. CONTRACTOR’S CAPABILITIES STATEMENT",
                "question",
                "Interested vendors shall identify their capabilities to meet",
            ),
            (
                None,
                "Section 1 – Cover Letter",
                "requirement",
                "The cover letter must clearly identify the following informa",
            ),
            (
                None,
                "Section 1 – Cover Letter",
                "question",
                "Note: If partnerships are being suggested to completed the w",
            ),
            (
                None,
                "Section 2 - Capabilities Statement",
                "requirement",
                "Submit a capabilities statement that includes basic informat",
            ),
            (
                None,
                "Section 2 - Capabilities Statement",
                "requirement",
                "The submitted Capabilities Statement shall not exceed twenty",
            ),
            (
                None,
                "Section 3 – Corporate Experience",
                "question",
                "Provide up to three examples of projects of similar in size,",
            ),
            (
                None,
                "Section 3 – Corporate Experience",
                "question",
                "Briefly describe the scope of work, to include the customer ",
            ),
            (
                None,
                "Section 4 – Draft Statement of Work and Technical Prompts",
                "question",
                "Based on the attached draft SOW, please describe your compan",
            ),
        ],
    ),
    "18f-hhs-tdrs-rfq-final.docx": (
        [(None, "Request for Quote", 0), *_TDRS_SECTIONS_BELOW_ROOT],
        _TDRS_ASKS,
    ),
}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_first_fifteen_sections_match_the_document(name: str) -> None:
    doc = rfp(name)
    sections, _ = EXPECTED[name]
    assert [(s.number, s.heading, s.level) for s in doc.sections[:15]] == sections


@pytest.mark.parametrize("name", list(EXPECTED))
def test_ten_asks_with_label_section_and_kind(name: str) -> None:
    doc = rfp(name)
    _, asks = EXPECTED[name]
    found = [
        (q.label, q.section_path[-1] if q.section_path else None, q.kind, q.text[:60])
        for q in find_questions(doc)
    ]
    assert len(asks) >= 10
    for ask in asks:
        assert ask in found, ask


def test_tdrs_markdown_and_word_versions_parse_the_same():
    md, docx = rfp("18f-hhs-tdrs-rfq-final.md"), rfp("18f-hhs-tdrs-rfq-final.docx")
    # the root is each file's own title ("General Services Administration" is the Markdown
    # cover line, "Request for Quote" the Word Title style); everything below it agrees
    assert [(s.number, s.heading, s.level) for s in md.sections[1:]] == [
        (s.number, s.heading, s.level) for s in docx.sections[1:]
    ]
    assert len(md.sections) == 68

    def asks(doc):
        return [(q.label, q.text, q.section_path[1:], q.kind) for q in find_questions(doc)]

    assert asks(md) == asks(docx)
    assert len(asks(md)) == 102  # the 17 areas of a "ten of the following areas?" list are
    # the options of that question (matrix rows of kind option), not questions of their own;
    # 104 (was 108): rules on the asked deliverable stay on its line ("Include resumes ...
    # The resumes must include ...", ask_patterns.refers_back); 101 (was 104): "TTS shall
    # provide for review ..." is the buyer's (an agency by its acronym) and the stage names
    # "Phase 1 – Technical Submission" / "Phase 3 - Price Submission" ask nothing; 100 (was
    # 101): "The System must:" is a requirement whose bulleted items are its parts; 102 (was
    # 100): Section 9's "each contractor will be assigned a confidence rating" and "the
    # non-price evaluation factors ... are significantly more important" are evaluation
    # statements (ask_patterns.EVALUATED), kept as procurement-process rows


def _sizes(name: str) -> list[tuple[str, float | None, float | None, bool]]:
    return [(s.measure, s.min, s.max, s.preferred) for s in find_pp_requirements(rfp(name)).sizes]


def test_dol_first_order_similar_experience_sizes_and_recency():
    req = find_pp_requirements(rfp("18f-dol-whd-14c-first-order-rfq.md"))
    assert (req.recency.months, req.recency.stated.text) == (
        36,
        "built within the past three (3) years",
    )
    assert req.recency.stated.section == (
        "Request for Quotation (RFQ) > 7. Quotation Instructions > b. Technical Quotation > "
        "iii. Recent and Similar Technical Scope"
    )
    assert _sizes("18f-dol-whd-14c-first-order-rfq.md") == [
        ("users", 1_000_000.0, None, False),  # "serving at least a million users"
        ("fte", 3.0, 5.0, False),  # "between three (3) and five (5) Full Time Equivalent"
        ("months", 2.0, 12.0, False),  # "period of performance of two (2) months to twelve"
    ]


def test_epermit_rfq_two_similar_projects_with_fte_and_duration():
    req = find_pp_requirements(rfp("18f-usfs-epermit-api-rfq.md"))
    assert req.references_required == 2  # "on two (2) projects of similar size, scope"
    assert req.recency.months == 36  # "completed within the past three (3) calendar years"
    assert _sizes("18f-usfs-epermit-api-rfq.md") == [
        ("fte", 4.0, 5.0, False),
        ("months", None, 6.0, False),  # "no more than six (6) calendar months"
    ]


def test_tdrs_prefers_teams_of_four_to_seven_fte():
    sizes = find_pp_requirements(rfp("18f-hhs-tdrs-rfq-final.md")).sizes
    first = sizes[0]
    assert (first.measure, first.min, first.max, first.preferred) == ("fte", 4.0, 7.0, True)
    assert first.stated.section.endswith("9.2.4 Factor 3 - Similar Experience")


def test_disa_section_l_reference_count_recency_and_customers():
    req = find_pp_requirements(rfp("disa-ebm-draft-rfp-hc1013-05-r-2001.pdf"))
    assert req.references_required == 5  # "provide no more than 5 past performance references"
    assert (req.recency.months, req.recency.applies_to) == (24, "ended")
    assert req.recency.stated.section == (
        "ADDENDUM L - INSTRUCTIONS FOR PREPARATION OF PROPOSALS > L.1.2. Proposal Format > "
        "Volume III, Management/Past Performance"
    )
    # "either commercial and/or government": every kind allowed, no customer filter
    assert (req.customers.any_customer, req.customers.types) == (True, [])


def test_tsa_oatss_rfi_asks_for_up_to_three_similar_projects():
    req = find_pp_requirements(rfp("tsa-oatss-sources-sought-rfi-70t04020i9nap6403.pdf"))
    assert req.references_required == 3
    assert req.references_stated.text == "Provide up to three examples"


def test_tax_court_pdf_headings_come_from_font_size_and_weight():
    doc = rfp("ustaxcourt-ef-cms-rfq-18-0018.pdf")
    assert len(doc.sections) == 41  # was 4 when headings were read from wording alone
    # the cover page's 18-point title block is not an outline level
    assert doc.sections[0].page == 3
    # 16-point bold under 18-point bold; a body-size Title-Case line alone above a paragraph
    # ("Due Date and Time") is a run-in heading one level further down
    submissions = next(s for s in doc.sections if s.heading == "Submissions")
    children = [s.heading for s in doc.sections if s.parent == submissions.key]
    assert children == [
        "Format",
        "Due Date and Time",
        "Inquiries",
        "Modifications, Revisions, and Withdrawals",
        "Technical Submissions",
        "Price Submissions",
        "Interviews",
    ]
    assert [(s.number, s.heading) for s in doc.sections if s.number] == [
        ("Appendix A", "Tax Court Operations and Organization"),
        ("Appendix B", "Case Processing Workflows"),
    ]


def test_tsa_itms_side_column_labels_no_longer_break_body_lines():
    doc = rfp("tsa-itms-task-order-proposal-instructions.pdf")
    # "Type of" / "Contract" sit in a bold left column beside B.1; they become one label line
    # before the paragraph instead of splicing "Type of" into its second line
    assert (
        "Type of Contract\nB.1 – The Government desires that the Contractor recommend and "
        "propose the contract type for each\ncontractor identified line item." in doc.text
    )
    assert "CLIN Structure\nB.2 – Section B provides" in doc.text


def test_gmu_roman_sections_are_all_read_with_numerals_in_their_own_column():
    # George Mason RFP GMU-RB0607-25: "III." / "VII." / "XII." / "XIII." are set apart from
    # their "COMMUNICATION: ..." text, and VI's title opens with "eVA"; the outline used to
    # stop at V. because a missed numeral broke the count
    doc = rfp("george-mason-univ-it-consulting-staff-aug-rfp-gmu-rb0607-25.pdf")
    top = [(s.number, s.heading) for s in doc.sections if s.level == 1 and s.number]
    romans = [n for n, _ in top if n and n.rstrip(".").isalpha() and "ATTACHMENT" not in n]
    assert romans[:18] == [
        f"{r}." for r in "I II III IV V VI VII VIII IX X XI XII XIII XIV XV XVI XVII XVIII".split()
    ]
    assert ("III.", "COMMUNICATION") in top
    assert ("VI.", "eVA BUSINESS-TO-GOVERNMENT VENDOR REGISTRATION") in top
    assert ("XIII.", "PROPOSAL PREPARATION AND SUBMISSION REQUIREMENTS") in top
    assert [n for n, _ in top if n.startswith("ATTACHMENT")] == [
        "ATTACHMENT A",
        "ATTACHMENT B",
        "ATTACHMENT C",
    ]
