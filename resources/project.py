"""The project's settings, resolved once when the code location loads.

The embedding model is read here because it is part of the embedding assets' code version
(changing it marks them stale in the UI). Settings come from ``rfp-retrieval.yaml`` and
``RFP_RETRIEVAL_*`` variables; nothing is fetched over the network.
"""

from pathlib import Path

from rfp_retrieval.settings import load_settings

PROJECT_DIR = Path(__file__).resolve().parents[1]
SETTINGS = load_settings(PROJECT_DIR)

# Bump the recipe when the facet texts, chunking or the stored scope_query columns change: it
# re-embeds like a model change. facets-2: scope_query stores the RFP's domain weights.
# facets-3: scope texts and section units read from the statement of work only (offeror
# instructions dropped, short numbered paragraphs merged into their section).
EMBEDDING_RECIPE = "facets-3"


def embedding_code_version(model_id: str) -> str:
    """Code version of every asset that stores vectors: model id + embedding recipe."""
    return f"{model_id}@{EMBEDDING_RECIPE}"
