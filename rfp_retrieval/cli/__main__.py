"""``python -m rfp_retrieval.cli``: the same as the ``rfp-retrieval`` console script."""

from rfp_retrieval.cli import main

main()
