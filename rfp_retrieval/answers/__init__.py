"""The answer library: reusable content blocks and past questionnaire answers (no Dagster)."""
