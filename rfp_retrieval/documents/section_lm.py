"""Moved: the Section L/M requirement reading is ``rfp_retrieval.scope.section_lm``.

Kept only so ``rfp_retrieval.cli`` (another branch of issue 12) imports it until the merge;
remove this module after the merge and import from ``rfp_retrieval.scope.section_lm``.
"""

from rfp_retrieval.scope.section_lm import *  # noqa: F403
from rfp_retrieval.scope.section_lm import __all__  # noqa: F401
