"""``PreparedLibrary.lexical_scores`` builds its BM25 index only for a text with a content word
(issue 17: tokenising a million entries for a scope without text took minutes)."""

import numpy as np

from rfp_retrieval.retrieval.prepared import PreparedLibrary
from tests.test_ranking import _entries


def test_a_text_without_a_content_word_scores_zero_without_building_the_index():
    library = PreparedLibrary(_entries())
    for text in ("", "   ", "the and of"):
        scores = library.lexical_scores(text)
        assert scores.dtype == np.float64
        np.testing.assert_array_equal(scores, np.zeros(len(library)))
    assert library._lexical is None
    title = _entries()["title"][0]
    scores = library.lexical_scores(title)
    assert library._lexical is not None
    assert scores.max() == 1.0
    np.testing.assert_array_equal(library.lexical_scores(""), np.zeros(len(library)))
