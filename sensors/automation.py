"""Declarative automation for a model change: re-embed, then re-run every RFP partition.

Two conditions, put on the assets by ``code_location.with_model_automation``:

- ``reembed_on_code_version_change`` on every vector-storing asset (``pp_facet_embeddings``,
  ``answer_block_embeddings``, ``scope_query``): requested once when its code version changed,
  which happens when the ``model`` setting (or ``EMBEDDING_RECIPE``) changes.
- ``rerun_after_upstream_update`` on the per-RFP assets downstream of them (references,
  question answers, the review view, the brief): requested once their upstream vectors (or
  the library) were re-materialized by another run.

Neither uses ``AutomationCondition.eager()``: its ``newly_missing`` trigger marks every
partition the inbox sensor adds as wanted. Its missing/in-progress gates usually hold that
back until the sensor's own run fills the partition, but a partition whose sensor run failed
part-way would then be run again by automation (on top of the run retry in dagster.yaml),
and a condition on an asset with no partitioned upstream would run beside the sensor at
once. A new partition is the sensor's job; automation only reacts to updates made by
*other* runs (a dependency updated by a run that also materialized the asset, which is
what the sensor's ``rfp_job`` run does, is ignored).

The sensor that evaluates them starts STOPPED (see ``embedding_automation_sensor``).
"""

import dagster as dg

EMBEDDING_AUTOMATION_SENSOR = "embedding_automation_sensor"


def reembed_on_code_version_change() -> dg.AutomationCondition:
    """Request a vector asset (every partition) after its code version changed.

    ``code_version_changed`` is true on one tick only (the first evaluation after the code
    location reloads with the new model); ``since_last_handled`` keeps the request pending
    until it can run: not while an upstream is missing (a just-added RFP whose sensor run has
    not finished: that run embeds it with the new model anyway) or while it or an upstream is
    in progress. The first evaluation ever requests nothing (no previous code version known).
    """
    return (
        dg.AutomationCondition.code_version_changed().since_last_handled()
        & ~dg.AutomationCondition.any_deps_missing()
        & ~dg.AutomationCondition.any_deps_in_progress()
        & ~dg.AutomationCondition.in_progress()
    ).with_label("re-embed after a model change")


def rerun_after_upstream_update(vector_assets: dg.AssetSelection) -> dg.AutomationCondition:
    """Request a per-RFP asset partition after one of its upstream assets was updated.

    The trigger is ``any_deps_updated`` minus one case: an upstream updated by a run that did
    not also materialize this partition, or an upstream other than ``vector_assets`` requested
    on this tick (so one run can carry ``pp_references`` and ``response_brief`` together). It
    is remembered until the partition is requested or updated, and waits while any upstream
    is missing or in progress, or while one of ``vector_assets`` is requested on this tick.

    Vector assets count only once they are *updated*, never when merely requested:
    automation launches unpartitioned and partitioned assets as separate runs, so an RFP
    partition must not be queued beside the library re-embedding it reads, and if that
    re-embedding fails the partitions must not run against the old vectors.
    """
    updated_by_another_run = dg.AutomationCondition.any_deps_match(
        dg.AutomationCondition.newly_updated() & ~dg.AutomationCondition.executed_with_root_target()
    )
    requested_now = dg.AutomationCondition.any_deps_match(
        dg.AutomationCondition.will_be_requested()
    )
    return (
        (updated_by_another_run | requested_now.ignore(vector_assets))
        .with_label("any upstream updated")
        .since_last_handled()
        & ~dg.AutomationCondition.any_deps_missing()
        & ~dg.AutomationCondition.any_deps_in_progress()
        & ~dg.AutomationCondition.in_progress()
        & ~dg.AutomationCondition.any_deps_match(dg.AutomationCondition.will_be_requested())
        .allow(vector_assets)
        .with_label("vectors requested on this tick")
    ).with_label("re-run after upstream vectors or library update")


def embedding_automation_sensor(
    target: dg.AssetSelection,
) -> dg.AutomationConditionSensorDefinition:
    """The sensor that evaluates the two conditions on ``target``; STOPPED by default.

    Opt-in because a model change costs a full re-embedding of the library and answer
    blocks plus one run per RFP partition (minutes each on a laptop, all queued behind the
    single DuckDB writer): editing ``model:`` and reloading ``dagster dev`` should not start
    that silently. Turn it on in the UI (Automation tab) before changing the model, or run
    the documented backfill instead (README, "Changing the embedding model"). With several
    RFP partitions a tick emits one backfill, so the partitions wait for the re-embedding.
    """
    return dg.AutomationConditionSensorDefinition(
        EMBEDDING_AUTOMATION_SENSOR,
        target=target,
        default_status=dg.DefaultSensorStatus.STOPPED,
        minimum_interval_seconds=60,
        description=(
            "Off by default. When on: after the embedding model (or recipe) changes, "
            "re-embeds the library, the answer blocks and each RFP's ScopeQuery, then re-runs "
            "every RFP's references, question answers and brief. New RFPs stay with "
            "rfp_inbox_sensor."
        ),
    )
