"""Dagster resources: the embedding model, project paths, the store's IO manager and the
partition store (``resources/partition_store.py``) that every other reader of a table uses.
The store is DuckDB (``resources/duckdb_io.py``) or Postgres (``resources/postgres_io.py``),
as ``settings.store`` says; the resource keys are the same either way.

Resources own their clients and import heavy libraries lazily (sentence-transformers costs
about 9 s to import), so loading the code location stays fast.
"""

from pathlib import Path

import dagster as dg
from pydantic import PrivateAttr

from resources.duckdb_io import EvolvingDuckDBPolarsIOManager
from resources.partition_store import SCHEMA, partition_store_for
from resources.postgres_io import PostgresPolarsIOManager
from resources.rewriter import QuestionRewriter
from rfp_retrieval.retrieval.embedding import (
    DEFAULT_MODEL,
    Embedder,
    embedder_for_model,
    resolve_model_path,
)
from rfp_retrieval.settings import Settings


class EmbeddingModel(dg.ConfigurableResource):
    """Sentence-transformers model loaded from a local path (no hub download).

    ``model`` is ``all-MiniLM-L6-v2`` (bundled) or a model folder. The same value is part of
    the embedding assets' code version, so changing it marks them stale.
    """

    model: str = DEFAULT_MODEL
    batch_size: int = 32
    _embedder: Embedder | None = PrivateAttr(default=None)

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = Embedder(model=self.model, batch_size=self.batch_size)
        return self._embedder

    @property
    def model_id(self) -> str:
        return self.embedder.model_id

    @property
    def model_source(self) -> str:
        """The folder the configured model loads from (absolute path), recorded as
        ``model_source`` metadata beside the library's vectors. Raises what
        ``resolve_model_path`` raises."""
        return str(resolve_model_path(self.model))

    def embedder_for_vectors(
        self, model_id: str, instance: dg.DagsterInstance, asset: str
    ) -> Embedder | None:
        """The embedder to encode queries compared with ``asset``'s vectors of model
        ``model_id``: this resource's own when the ids agree; else the model the latest
        materialization of ``asset`` recorded as ``model_source`` (the library was re-embedded
        with another model while this run was in flight; ``embedder_for_model``); None when
        that model cannot be found here (the step then refuses to compare two models)."""
        if model_id == self.model_id:
            return self.embedder
        event = instance.get_latest_materialization_event(dg.AssetKey(asset))
        materialization = event.asset_materialization if event is not None else None
        recorded = materialization.metadata.get("model_source") if materialization else None
        source = getattr(recorded, "value", recorded)
        return embedder_for_model(model_id, [str(source)] if source else [], self.batch_size)


class ProjectPaths(dg.ConfigurableResource):
    """Folders the pipeline reads and writes (absolute paths)."""

    library_dir: str
    answers_dir: str
    inbox_dir: str
    output_dir: str
    ranking_mode: str = "default"
    overrides_dir: str = "overrides"
    golden_dir: str = "sample/golden"

    def output_for(self, partition_key: str) -> Path:
        folder = Path(self.output_dir) / partition_key
        folder.mkdir(parents=True, exist_ok=True)
        return folder


def build_resources(settings: Settings) -> dict[str, object]:
    """The resource dict for ``settings``: the DuckDB file ``db_path`` (absolute path) or,
    with ``store: postgres``, the database at ``$<postgres_url_env>`` (only the variable's
    name goes into the resources). The rewriter's cache stays in ``db_path``'s folder.

    Raises SettingsError when the store is Postgres and the URL variable is unset.
    """
    settings.db_path.parent.mkdir(parents=True, exist_ok=True)
    if settings.store == "postgres":
        io_manager = PostgresPolarsIOManager(url_env=settings.postgres_url_env, schema=SCHEMA)
    else:
        io_manager = EvolvingDuckDBPolarsIOManager(database=str(settings.db_path), schema=SCHEMA)
    return {
        "io_manager": io_manager,
        # the partition store (key kept from when it was a DuckDBResource: the snapshot)
        "duckdb": partition_store_for(settings),
        "embedding_model": EmbeddingModel(model=settings.model),
        "rewriter": QuestionRewriter(cache_dir=str(settings.db_path.parent)),
        "paths": ProjectPaths(
            library_dir=str(settings.library_dir),
            answers_dir=str(settings.answers_dir),
            inbox_dir=str(settings.inbox_dir),
            output_dir=str(settings.output_dir),
            ranking_mode=settings.ranking_mode,
            overrides_dir=str(settings.overrides_dir),
            golden_dir=str(settings.golden_dir),
        ),
    }
