"""The model-change automation conditions on a toy graph of the pipeline's shape (fast).

library -> library_vectors (vector, unpartitioned); rfp_doc -> rfp_vectors (vector, per RFP);
both -> references (per RFP). The real graph is exercised end to end, with a real second
model, in tests/test_model_switch.py.
"""

from __future__ import annotations

import dagster as dg

from sensors.automation import reembed_on_code_version_change, rerun_after_upstream_update

RFPS = dg.DynamicPartitionsDefinition(name="toy_rfps")
VECTORS = dg.AssetSelection.assets("library_vectors", "rfp_vectors")


def _graph(model: str, downstream: dg.AutomationCondition | None = None) -> list:
    @dg.asset
    def library() -> int:
        return 1

    @dg.asset(
        deps=[library],
        code_version=f"{model}@facets-1",
        automation_condition=reembed_on_code_version_change(),
    )
    def library_vectors() -> None:
        return None

    @dg.asset(partitions_def=RFPS)
    def rfp_doc() -> None:
        return None

    @dg.asset(
        deps=[rfp_doc],
        partitions_def=RFPS,
        code_version=f"{model}@facets-1",
        automation_condition=reembed_on_code_version_change(),
    )
    def rfp_vectors() -> None:
        return None

    @dg.asset(
        deps=[library_vectors, rfp_vectors],
        partitions_def=RFPS,
        automation_condition=downstream or rerun_after_upstream_update(VECTORS),
    )
    def references() -> None:
        return None

    return [library, library_vectors, rfp_doc, rfp_vectors, references]


def _requested(result, assets) -> dict[str, list]:
    out = {}
    for asset in assets:
        partitions = result.get_requested_partitions(asset.key)
        if partitions:
            out[asset.key.to_user_string()] = sorted(partitions, key=str)
    return out


def _sensor_run(assets, instance, key: str) -> None:
    """What rfp_inbox_sensor's rfp_job run does for a new file: the whole partition at once."""
    selection = [a for a in assets if a.partitions_def is not None]
    assert dg.materialize(selection, instance=instance, partition_key=key).success


def _tick(assets, instance, cursor):
    result = dg.evaluate_automation_conditions(defs=assets, instance=instance, cursor=cursor)
    return result, _requested(result, assets)


def _built_with(assets, instance):
    """Library and RFP ``rfp-1`` materialized with ``assets``; the first tick (requests nothing)."""
    instance.add_dynamic_partitions("toy_rfps", ["rfp-1"])
    assert dg.materialize(assets[:2], instance=instance).success
    _sensor_run(assets, instance, "rfp-1")
    result, requested = _tick(assets, instance, None)
    assert requested == {}
    return result


def test_model_change_requests_vectors_then_partitions_and_never_a_new_partition():
    model_a, model_b = _graph("model-a"), _graph("model-b")
    with dg.instance_for_test() as instance:
        result = _built_with(model_a, instance)
        result, requested = _tick(model_a, instance, result.cursor)
        assert requested == {}

        instance.add_dynamic_partitions("toy_rfps", ["rfp-2"])
        result, requested = _tick(model_a, instance, result.cursor)
        assert requested == {}, "the inbox sensor owns new partitions"
        _sensor_run(model_a, instance, "rfp-2")
        result, requested = _tick(model_a, instance, result.cursor)
        assert requested == {}, "its run updated vectors and references together"

        result, requested = _tick(model_b, instance, result.cursor)
        assert requested == {"library_vectors": [None], "rfp_vectors": ["rfp-1", "rfp-2"]}
        assert dg.materialize(model_b[:2], instance=instance, selection=["library_vectors"])
        for key in ("rfp-1", "rfp-2"):
            assert dg.materialize(
                model_b, instance=instance, selection=["rfp_vectors"], partition_key=key
            ).success

        result, requested = _tick(model_b, instance, result.cursor)
        assert requested == {"references": ["rfp-1", "rfp-2"]}
        for key in ("rfp-1", "rfp-2"):
            assert dg.materialize(
                model_b, instance=instance, selection=["references"], partition_key=key
            ).success
        result, requested = _tick(model_b, instance, result.cursor)
        assert requested == {}

        # library_job (the inbox sensor runs it when the library folder changes) re-embeds
        # the library: every RFP is re-ranked against it, once.
        assert dg.materialize(model_b[:2], instance=instance).success
        result, requested = _tick(model_b, instance, result.cursor)
        assert requested == {"references": ["rfp-1", "rfp-2"]}


def test_partitions_wait_while_the_library_is_still_being_re_embedded():
    model_a, model_b = _graph("model-a"), _graph("model-b")
    with dg.instance_for_test() as instance:
        result = _built_with(model_a, instance)
        result, requested = _tick(model_b, instance, result.cursor)
        assert requested == {"library_vectors": [None], "rfp_vectors": ["rfp-1"]}

        # The library re-embedding has started (a long run); the RFP's own vectors are done.
        job = dg.Definitions(assets=model_b).resolve_implicit_global_asset_job_def()
        instance.create_run_for_job(
            job_def=job,
            asset_selection=frozenset({dg.AssetKey("library_vectors")}),
            status=dg.DagsterRunStatus.STARTED,
        )
        assert dg.materialize(
            model_b, instance=instance, selection=["rfp_vectors"], partition_key="rfp-1"
        ).success
        result, requested = _tick(model_b, instance, result.cursor)
        assert requested == {}, "references must not rank against the old library vectors"

        assert dg.materialize(model_b[:2], instance=instance, selection=["library_vectors"])
        result, requested = _tick(model_b, instance, result.cursor)
        assert requested == {"references": ["rfp-1"]}


def test_a_failed_re_embedding_does_not_start_the_partitions():
    model_a, model_b = _graph("model-a"), _graph("model-b")
    with dg.instance_for_test() as instance:
        result = _built_with(model_a, instance)
        result, requested = _tick(model_b, instance, result.cursor)
        assert requested == {"library_vectors": [None], "rfp_vectors": ["rfp-1"]}
        # both runs failed (nothing materialized, nothing in progress any more)
        result, requested = _tick(model_b, instance, result.cursor)
        assert requested == {}, "references would rank against the old model's vectors"
