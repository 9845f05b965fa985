"""The embedding recipe: the part of the vector-storing assets' code version that is ours.

The code versions themselves are computed from the settings when the definitions are built
(``definitions.code_versions``), never at import: the embedding model is part of them, so
changing it marks the vector-storing assets stale in the UI.
"""

# Bump the recipe when the facet texts, chunking or the stored scope_query columns change: it
# re-embeds like a model change. facets-2: scope_query stores the RFP's domain weights.
# facets-3: scope texts and section units read from the statement of work only (offeror
# instructions dropped, short numbered paragraphs merged into their section).
EMBEDDING_RECIPE = "facets-3"


def embedding_code_version(model_id: str) -> str:
    """Code version of every asset that stores vectors: model id + embedding recipe."""
    return f"{model_id}@{EMBEDDING_RECIPE}"
