"""Question rewriting (seed 2): specificity, context, decomposition, paraphrase, query sets.

No Dagster here. ``chain.rewrite_question`` runs the whole chain for one ``Question``;
``offline.OfflineRewriter`` and ``anthropic_rewriter.AnthropicRewriter`` are the two
rewriters behind it.
"""
