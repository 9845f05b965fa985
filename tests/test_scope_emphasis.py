"""Scope emphasis: the mission domain outweighs cross-cutting delivery words (issue 18, defect 7).

A hand-written RFP whose mission is federal grants administration, wrapped in cloud, DevSecOps,
analytics and modernization wording (the words a keyword count alone would follow).
"""

from __future__ import annotations

from rfp_retrieval.documents.extract import load_document
from rfp_retrieval.scope import EMPHASIS_WEIGHTS, read_scope
from rfp_retrieval.scope.emphasis import CROSS_CUTTING_DOMAINS, domain_emphasis

RFP = """# Community Investment Awards Platform: Cloud-Native Modernization and Analytics

**Issuing Agency:** U.S. Department of Agriculture (USDA), Rural Development (RD)
**Issue Date:** March 2, 2026

## 1. Background

Rural Development makes about 700 grant awards a year to towns, tribes and cooperatives.
The office wants a cloud-native platform, an automated DevSecOps pipeline and modern
analytics dashboards to replace an on-premises stack.

## 2. Scope of Work

### 2.1 Award Lifecycle
Deliver intake of applications, merit review with reviewer conflict checks, grant award
documents, post-award amendments, subrecipient monitoring and closeout of expired awards.

### 2.2 Recipient Reporting
Collect semiannual performance reports from grantees, flag late reports, and support closeout
reconciliation of final financial reports.

### 2.3 Cloud Platform and DevSecOps Pipeline
Host the platform in a FedRAMP cloud, migrate the legacy data to the cloud, and release
through a DevSecOps pipeline with automated build and CI/CD security testing.

### 2.4 Analytics
Build analytics dashboards, a data platform and self-service analytics for program staff.

## 3. Evaluation (Section M)

References will be judged first on experience administering grants from application through
closeout; cloud, pipeline or analytics work counts only as supporting experience.
"""


def test_mission_domain_outweighs_cross_cutting_wording(tmp_path):
    path = tmp_path / "rfp.md"
    path.write_text(RFP, encoding="utf-8")
    reading = read_scope(load_document(path))
    assert reading.emphasized_domains[0] == "grants-management"
    weights = reading.domain_weights
    assert max(weights, key=weights.get) == "grants-management"
    assert all(
        weights["grants-management"] > weights[d] for d in CROSS_CUTTING_DOMAINS & set(weights)
    )


def test_cross_cutting_domains_keep_their_weight_when_they_are_the_mission():
    # only cross-cutting domains signalled: nothing to discount against. cloud: title 2.0 +
    # 1 scope mention x 0.5 = 2.5; infrastructure: title ("data center") 2.0
    emphasized, weights = domain_emphasis(
        "Data Center Exit to FedRAMP Cloud", "migrate the applications to the cloud", ""
    )
    assert emphasized == ["cloud-migration", "infrastructure-operations"]
    assert weights == {"cloud-migration": 0.556, "infrastructure-operations": 0.444}


def test_cross_cutting_discount_and_lead_sections_are_counted_as_stated():
    # analytics: 3 scope mentions x 0.5 = 1.5, halved beside a mission domain = 0.75;
    # payroll: 1 scope mention x 0.5 + 1 lead mention x 0.5 = 1.0
    emphasized, weights = domain_emphasis(
        "Modernization", "analytics dashboards analytics payroll", "", lead_text="payroll"
    )
    assert (EMPHASIS_WEIGHTS.cross_cutting, EMPHASIS_WEIGHTS.per_lead_mention) == (0.5, 0.5)
    assert emphasized == ["payroll", "data-analytics"]
    assert weights == {"payroll": 0.571, "data-analytics": 0.429}


ELIGIBILITY_RFP = """# Request for Proposals: Integrated Eligibility System Modernization

## 3. Scope of Work

### 3.1 Eligibility Determination
The Contractor shall replace the eligibility rules engine for SNAP, TANF and Medicaid, run
MAGI and non-MAGI determinations and process renewals and ex parte reviews.

### 3.2 Case Management
Caseworkers shall manage case tracking, notices and appeals in one case management tool.

### 3.3 Operations and Maintenance
The Contractor shall provide Tier 2 and Tier 3 user support. The Department's existing IT
service desk will continue to provide Tier 1 support for State staff.
"""


def test_help_desk_support_of_a_mission_system_is_not_its_emphasis(tmp_path):
    # new-user trial (an eligibility-systems RFP put a help-desk entry first): the help desk
    # and tiered user support that come with operating a system are cross-cutting
    path = tmp_path / "rfp.md"
    path.write_text(ELIGIBILITY_RFP, encoding="utf-8")
    reading = read_scope(load_document(path))
    assert "help-desk" in CROSS_CUTTING_DOMAINS
    assert reading.emphasized_domains[:2] == ["benefits-eligibility", "case-management"]
    assert "help-desk" not in reading.emphasized_domains
    weights = reading.domain_weights
    assert 0 < weights["help-desk"] < weights["case-management"] < weights["benefits-eligibility"]


def test_a_service_desk_rfp_keeps_the_help_desk_as_its_mission():
    # only cross-cutting domains signalled: the help desk is the work itself
    emphasized, weights = domain_emphasis(
        "Enterprise IT Service Desk Support",
        "Tier 1 service desk, deskside support and end-user support for 9,000 staff; hosting",
        "",
    )
    assert emphasized[0] == "help-desk"
    assert max(weights, key=weights.get) == "help-desk"


def test_engagement_centers_case_processing_and_online_applications_are_read_as_such():
    # a proposal veteran's synonyms: an engagement center is a contact center, case
    # processing is case management, online applications and a public filing portal are
    # digital services (before: no contact-center signal, the title's case processing read
    # nothing, and the analytics around the engagement center was the RFP's emphasis)
    emphasized, weights = domain_emphasis(
        "Recruiting Prospect Engagement Center and Analytics",
        "Operate an engagement center of 80 agents who call prospects. Provide analytics "
        "dashboards on the prospect funnel.",
        "",
    )
    assert emphasized[0] == "contact-center"
    assert weights == {"contact-center": 0.625, "data-analytics": 0.375}  # 2.5 vs 3 x 0.5
    emphasized, weights = domain_emphasis(
        "Appeals Case Processing Modernization and Public Filing Portal",
        "Modernize case processing. Offer online filing through the public filing portal.",
        "",
    )
    assert emphasized == ["case-management", "digital-services"]
    assert weights == {"case-management": 0.625, "digital-services": 0.375}
