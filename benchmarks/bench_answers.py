"""Questions per second of the offline rewrite chain and answer retrieval.

Run: ``.venv/bin/python benchmarks/bench_answers.py [--repeat N]``

Inputs: the 42-row dev questionnaire and the four dev RFPs in ``../shared/data``, the sample
answer library. Parsing the documents, loading the model and building the index are timed
separately and not counted in questions/second. Retrieval includes embedding each question's
query set (one batch per document) with the bundled model on CPU.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from rfp_retrieval.answers.ingest import load_answer_library  # noqa: E402
from rfp_retrieval.documents.extract import load_document  # noqa: E402
from rfp_retrieval.documents.questions import find_questions  # noqa: E402
from rfp_retrieval.eval.answers import build_index  # noqa: E402
from rfp_retrieval.retrieval.answers import retrieve_answers  # noqa: E402
from rfp_retrieval.retrieval.embedding import Embedder  # noqa: E402
from rfp_retrieval.rewrite.chain import rewrite_questions  # noqa: E402

DATA = REPO.parent / "shared" / "data"
SETS = {
    "questionnaire (42 rows)": [
        DATA / "questionnaires_synthetic" / "vendor-security-questionnaire.csv"
    ],
    "four dev RFPs": sorted((DATA / "rfps_synthetic").glob("*.md")),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="timed repetitions (best kept)")
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"{DATA} is missing: the benchmark reads the shared dev data in place")
    t0 = time.perf_counter()
    embedder = Embedder()
    embedder.load()
    t1 = time.perf_counter()
    index = build_index(load_answer_library(REPO / "sample" / "answers").blocks, embedder)
    t2 = time.perf_counter()
    print(f"model load {t1 - t0:.2f} s; index of {len(index)} blocks {t2 - t1:.2f} s")
    for name, files in SETS.items():
        parsed = []
        start = time.perf_counter()
        for path in files:
            doc = load_document(path)
            parsed.append((doc, find_questions(doc)))
        parse_s = time.perf_counter() - start
        best_chain = best_retrieval = float("inf")
        count = queries = 0
        for _ in range(args.repeat):
            chain_s = retrieval_s = 0.0
            count = queries = 0
            for doc, questions in parsed:
                start = time.perf_counter()
                rewritten = rewrite_questions(questions, doc)
                chain_s += time.perf_counter() - start
                start = time.perf_counter()
                retrieve_answers(index, [r.queries for r in rewritten], embedder)
                retrieval_s += time.perf_counter() - start
                count += len(rewritten)
                queries += sum(len(r.queries) for r in rewritten)
            best_chain = min(best_chain, chain_s)
            best_retrieval = min(best_retrieval, retrieval_s)
        total = best_chain + best_retrieval
        print(
            f"{name}: {count} questions, {queries} queries (parse {parse_s:.2f} s, not counted)\n"
            f"  offline chain  {best_chain:.3f} s  {count / best_chain:8.1f} questions/s\n"
            f"  retrieval      {best_retrieval:.3f} s  {count / best_retrieval:8.1f} questions/s\n"
            f"  chain+retrieval {total:.3f} s  {count / total:8.1f} questions/s"
        )


if __name__ == "__main__":
    main()
