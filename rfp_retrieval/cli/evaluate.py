"""``rfp-retrieval eval past-performance`` and ``eval answers``: retrieval measured against
golden sets (``--json``: ``shapes.EvalPastPerformancePayload`` / ``EvalAnswersPayload``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from rfp_retrieval.cli.app import (
    ConfigOption,
    ProjectOption,
    check_environment,
    config_file,
    console,
    eval_app,
    load_cli_settings,
    project_dir,
)
from rfp_retrieval.cli.render import print_answer_runs, print_eval_modes
from rfp_retrieval.cli.shapes import print_json


@eval_app.command("past-performance")
def eval_past_performance(
    golden: Path = typer.Option(
        ...,
        help="Golden-set JSONL: one scope per line (scope_id, rfp_file, as_of, ideal, ideal_alt).",
    ),
    library: Path | None = typer.Option(None, help="Past-performance library folder."),
    mode: str = typer.Option("all", help="naive | facet | facet+bumps | default | all"),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    project: Path | None = ProjectOption,
    config: Path | None = ConfigOption,
) -> None:
    """Top-3 recall per ranking mode on a golden set (constraints read from each RFP).

    Each golden line names an RFP file (a relative path is read from the golden file's \
folder), the as-of date its recency window counts back from, and the ideal references. The \
library's vectors are kept beside the store (eval_pp_facet_embeddings.parquet) and reused \
while the library and the model are unchanged: the first call embeds the library (minutes on \
a laptop), later ones only new or edited entries.
    """
    config = config_file(config)
    from rfp_retrieval.eval.past_performance import (
        EVAL_CACHE_FILE,
        GoldenSetError,
        embed_library_counts,
        evaluate_modes,
        load_golden,
        mode_configs,
        prepare_scopes,
    )
    from rfp_retrieval.library.frames import entries_frame
    from rfp_retrieval.library.ingest import load_library
    from rfp_retrieval.retrieval.embedding import Embedder

    settings = load_cli_settings(project_dir(project), config)
    try:
        configs = mode_configs(mode)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--mode") from exc
    if not golden.is_file():
        raise typer.BadParameter(f"{golden}: no such golden-set file", param_hint="--golden")
    try:
        scopes = load_golden(golden)
        entries = entries_frame(load_library(library or settings.library_dir).entries)
    except (GoldenSetError, FileNotFoundError) as exc:
        from rich.text import Text

        console.print(Text(str(exc), "red"))
        raise typer.Exit(1) from exc
    unknown = golden_ids_not_in_library(scopes, set(entries["id"].to_list()))
    if unknown:
        from rich.text import Text

        console.print(
            Text(
                f"{golden}: the golden set names entry ids the library "
                f"({library or settings.library_dir}) does not hold, so they could never be "
                f"found: {'; '.join(unknown)}. Fix the ids, or pass the library the golden set "
                "was labelled on (--library)",
                "red",
            )
        )
        raise typer.Exit(1)
    embedder = Embedder(settings.model_location())
    cache = settings.db_path.parent / EVAL_CACHE_FILE
    vectors, counts = embed_library_counts(entries, embedder, cache)
    console.print(
        f"{entries.height} entries: {counts['reused']} facet vectors reused from {cache}, "
        f"{counts['embedded']} embedded; embedding {len(scopes)} scopes..."
    )
    try:
        prepared = prepare_scopes(scopes, embedder)
    except GoldenSetError as exc:
        from rich.text import Text

        console.print(Text(str(exc), "red"))
        raise typer.Exit(1) from exc
    results = evaluate_modes(entries, vectors, prepared, configs)
    if as_json:
        print_json({"modes": results})
        return
    print_eval_modes(results)


def golden_ids_not_in_library(scopes: list[Any], known_ids: set[str]) -> list[str]:
    """``"<scope_id>: <id> (did you mean <ID>?)"`` for each ideal / ideal_alt / near-miss id
    of the golden ``scopes`` that ``known_ids`` (the library's entry ids) does not hold, in
    file order; [] when every id is known. Measured as it is, such an id is a miss no ranking
    can avoid (recall drops silently); a near spelling (``pp-078`` for ``PP-078``; rule:
    ``library.cells.entry_id_key``) is offered.
    """
    from rfp_retrieval.library.cells import entry_id_key

    by_key: dict[str, list[str]] = {}
    for known in known_ids:
        by_key.setdefault(entry_id_key(known), []).append(known)
    out = []
    for scope in scopes:
        for entry_id in dict.fromkeys([*scope.ideal, *scope.ideal_alt, *scope.near_miss]):
            if entry_id in known_ids:
                continue
            near = by_key.get(entry_id_key(entry_id), [])
            hint = f" (did you mean {near[0]}?)" if len(near) == 1 else ""
            out.append(f"{scope.scope_id}: {entry_id}{hint}")
    return out


@eval_app.command("answers")
def eval_answers(
    qrels: Path = typer.Option(
        ...,
        help="Answer qrels JSONL: one question per line (qid, doc, label, question) "
        "with its relevant answer blocks.",
    ),
    answers: Path | None = typer.Option(None, help="Answer library folder."),
    rewrite: str = typer.Option("both", help="on | off | both"),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
    project: Path | None = ProjectOption,
    config: Path | None = ConfigOption,
) -> None:
    """recall@5, MRR@10 and nDCG@10 of answer retrieval, with and without rewriting.

    The documents are read and parsed by the product; a question the parser cannot find \
counts as a miss. Rewriting uses the offline rewriter, so the figures are reproducible.
    """
    config = config_file(config)
    from rfp_retrieval.answers.ingest import load_answer_library
    from rfp_retrieval.eval.answers import (
        QrelsError,
        build_index,
        evaluate_answers,
        load_qrels,
        prepare_questions,
    )
    from rfp_retrieval.retrieval.embedding import Embedder

    modes = {"on": ("on",), "off": ("off",), "both": ("on", "off")}.get(rewrite)
    if modes is None:
        raise typer.BadParameter("use on, off or both", param_hint="--rewrite")
    settings = load_cli_settings(project_dir(project), config)
    try:
        labelled = load_qrels(qrels)
        library = load_answer_library(answers or settings.answers_dir)
    except (QrelsError, FileNotFoundError) as exc:
        console.print(f"[red]{escape(str(exc))}[/red]")
        raise typer.Exit(1) from exc
    prepared = prepare_questions(labelled)
    for doc, reason in prepared.errors.items():
        console.print(
            f"[yellow]{escape(str(doc))}: {escape(str(reason))} (its questions count as misses)"
            "[/yellow]"
        )
    embedder = Embedder(settings.model_location())
    console.print(
        f"{len(labelled)} questions, {sum(q is not None for q in prepared.matched.values())} "
        f"found by the parser; embedding {len(library.usable())} blocks..."
    )
    runs = evaluate_answers(prepared, build_index(library.blocks, embedder), embedder, modes)
    if as_json:
        print_json({"runs": runs})
        return
    print_answer_runs(runs)


@eval_app.command("parse")
def eval_parse(
    truth: Path = typer.Option(
        ...,
        help="Parse-truth JSONL: one labelled document per line (doc, sections, questions, "
        "past_performance).",
    ),
    as_json: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Section F1, ask recall/precision by kind and PP fields, per document and overall.

    Each truth line names a document and the sections, questions and past-performance fields \
a reader would list for it; the figures compare them with what `rfp-retrieval parse` reads.
    \f
    The matching rules are in ``rfp_retrieval.eval.parse`` (issue 13's definitions).
    """
    from rich.table import Table

    from rfp_retrieval.eval.parse import ParseTruthError, evaluate_parse, load_truth

    if not truth.is_file():
        raise typer.BadParameter(f"{truth}: no such truth file", param_hint="--truth")
    check_environment()
    try:
        docs = load_truth(truth)
    except ParseTruthError as exc:
        from rich.text import Text

        console.print(Text(str(exc), "red"))
        raise typer.Exit(1) from exc
    result = evaluate_parse(docs)
    if as_json:
        print_json(result)
        return
    table = Table("document", "section F1 (P / R)", "ask recall", "ask precision", "PP fields")

    def cells(name: str, s: dict) -> list[str]:
        f = lambda v: "-" if v is None else f"{v:.2f}"  # noqa: E731
        sec, asks = s["section"], s["asks"]
        return [
            name,
            f"{f(sec['f1'])} ({f(sec['precision'])} / {f(sec['recall'])})",
            f"{f(asks['recall'])} ({asks['found']}/{asks['truth']})",
            f"{f(asks['precision'])} ({asks['correct']}/{asks['parsed']})",
            f(s["pp_fields"]),
        ]

    for row in result["documents"]:
        table.add_row(*cells(escape(row["doc"]) + (" (error)" if row["error"] else ""), row))
    table.add_row(*cells("overall", result["overall"]))
    from rich.console import Console

    out = Console()  # the figures go to stdout, as eval past-performance's (errors: stderr)
    out.print(table)
    for row in result["documents"]:
        if row["error"]:  # the table only marks it; the reason is what the team can fix
            console.print(f"[red]{escape(row['doc'])} (error): {escape(row['error'])}[/red]")
    recall = result["overall"]["asks"]["recall_by_kind"]
    precision = result["overall"]["asks"]["precision_by_kind"]
    out.print(
        "ask recall by labelled kind: " + ", ".join(f"{k} {v}" for k, v in recall.items())
    )
    out.print(
        "ask precision by parsed kind: " + ", ".join(f"{k} {v}" for k, v in precision.items())
    )
