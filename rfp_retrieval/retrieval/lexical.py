"""One BM25 index rule for both libraries: the answer index (``answers.AnswerIndex``) and the
past-performance lexical component (``prepared.PreparedLibrary.lexical_scores``).

Texts are tokenised by ``rewrite.terms.index_tokens`` (stemmed content words); the index is
``bm25s``'s BM25 with its Lucene defaults. A text without a content word is indexed as one
placeholder token, so every row keeps its position; query tokens the corpus never holds are
dropped before scoring (bm25s refuses unknown tokens).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

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


TOOL_NAME_RULE = (
    "Tool names weigh less than the work: a product or platform name the RFP shares with an "
    "entry (a stack tag of the library, such as 'AWS GovCloud', 'Terraform', 'PostgreSQL') "
    "shows the same environment, not the same mission, so in the lexical match the RFP's "
    "tool names count ``DefaultWeights.tool_names`` of what its other words count."
)
"""The one rule for tool names in the lexical match (issue 18: a shared tool name outranked
the mission)."""

_MIN_TOOL_CHARS = 3  # "r", "c" and other one- or two-letter tags are never matched as names


def tool_name_pattern(tags: Iterable[str], names: Iterable[str] = ()) -> re.Pattern[str] | None:
    """One case-insensitive pattern matching any of the library's tool names in a text.

    ``tags`` are stack-tag slugs (``aws-govcloud``: matched as "aws govcloud", "aws-govcloud"
    or "AWS GovCloud"), ``names`` display names (``library.vocab.TECHNOLOGY_TAGS`` keys);
    names shorter than ``_MIN_TOOL_CHARS`` letters are left out; longer names are tried
    first, so "AWS GovCloud" is one name, not "AWS" then a word. None when no name is left.
    """
    phrases = {" ".join(str(t).replace("-", " ").split()).lower() for t in [*tags, *names] if t}
    phrases = {p for p in phrases if len(p.replace(" ", "")) >= _MIN_TOOL_CHARS}
    if not phrases:
        return None
    parts = [
        r"[\s-]+".join(re.escape(w) for w in p.split())
        for p in sorted(phrases, key=lambda p: (-len(p), p))
    ]
    return re.compile(r"(?<![\w.])(?:" + "|".join(parts) + r")(?![\w])", re.I)


def split_tool_names(text: str, pattern: re.Pattern[str] | None) -> tuple[str, str]:
    """``(text without its tool names, the tool names it holds joined by spaces)``
    (``TOOL_NAME_RULE``); ``(text, "")`` when ``pattern`` is None."""
    if pattern is None or not text:
        return text or "", ""
    found = [m.group(0) for m in pattern.finditer(text)]
    return pattern.sub(" ", text), " ".join(found)
