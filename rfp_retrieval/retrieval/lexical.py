"""One BM25 index rule for both libraries: the answer index (``answers.AnswerIndex``) and the
past-performance lexical component (``prepared.PreparedLibrary.lexical_scores``).

Texts are tokenised by ``rewrite.terms.index_tokens`` (stemmed content words); the index is
``bm25s``'s BM25 with its Lucene defaults. A text without a content word is indexed as one
placeholder token, so every row keeps its position; query tokens the corpus never holds are
dropped before scoring (bm25s refuses unknown tokens).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

_EMPTY = "_empty_"


class LexicalIndex:
    """BM25 over ``tokens`` (one token list per row, ``index_tokens`` of the row's text)."""

    def __init__(self, tokens: Sequence[Sequence[str]]):
        import bm25s

        self.size = len(tokens)
        self._bm25 = bm25s.BM25()
        self._vocab: set[str] = set()
        if self.size:
            self._bm25.index([list(t) or [_EMPTY] for t in tokens], show_progress=False)
            self._vocab = set(self._bm25.vocab_dict)

    def scores(self, text: str) -> np.ndarray:
        """BM25 score (>= 0) of every row for ``text``, float32 (size,); all 0 when ``text``
        shares no token with the corpus."""
        from rfp_retrieval.rewrite.terms import index_tokens

        tokens = [t for t in index_tokens(text or "") if t in self._vocab]
        if not tokens or not self.size:
            return np.zeros(self.size, dtype=np.float32)
        return np.asarray(self._bm25.get_scores(tokens), dtype=np.float32)
