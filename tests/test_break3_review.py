"""Break-it pass 3, the review page: an entry id typed as a writer types it (lower case, a
space for the dash) is the library's entry, not "not an entry id"."""

from __future__ import annotations

import pytest

from rfp_retrieval.library.cells import library_id
from rfp_retrieval.report.review import ReviewSite
from rfp_retrieval.retrieval.overrides import load_overrides
from tests.test_overrides import KNOWN
from tests.test_review_site import KEY, ToyStore, _form


@pytest.fixture
def site(tmp_path):
    store = ToyStore(tmp_path)
    return ReviewSite(store, tmp_path / "overrides", "facet", store.rerun, user="dana")


@pytest.mark.parametrize("typed", ["pp-5", "PP 5", "pp5", " Pp-5 "])
def test_a_typed_id_in_another_case_or_spelling_is_the_library_entry(site, tmp_path, typed):
    ok, text = site.submit(KEY, _form(site, with_id=typed, reason="The claims work."))
    assert ok, text
    assert text.startswith("PP-5 now replaces PP-2")
    (only,) = load_overrides(tmp_path / "overrides" / "rfp-a.yaml", KNOWN)
    assert (only.replace_id, only.with_id) == ("PP-2", "PP-5")
    assert site.store.runs == 2


def test_an_id_two_entries_could_be_is_left_as_typed():
    known = {"PP-12", "PP-1-2", "AW-9"}
    assert library_id("pp12", known) == "pp12"  # PP-12 or PP-1-2: the check names it
    assert library_id("aw 9", known) == "AW-9"
    assert library_id("PP-1-2", known) == "PP-1-2"
    assert library_id("PP-7", known) == "PP-7"
    assert library_id("", known) == ""


def test_an_unknown_lowercase_id_is_still_refused(site, tmp_path):
    ok, text = site.submit(KEY, _form(site, with_id="pp-99"))
    assert not ok and "pp-99 is not an entry id of the library" in text
    assert not (tmp_path / "overrides").exists()
