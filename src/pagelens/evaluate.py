"""The evaluation harness: retrieval hit@k / MRR per modality, answer and abstention correctness,
query latency and ingest speed, over a questions JSONL file and its PDFs.

Question format and scoring follow the corpus README (``shared/corpus/README.md``):

* ``pdf`` is a file name, or a list of them for cross-document questions; ``pages`` are 1-based
  physical page indices (a list, or a list of lists aligned with ``pdf``).
* Single-evidence modalities (text, table, figure, ...): a hit when **any** gold page is among the
  pages of the top-k sources. ``multi-hop`` and ``cross-doc``: a hit only when **every** gold page is
  (all-pages recall); any-page recall is reported beside it.
* ``unanswerable`` questions are not scored for retrieval; their answer is correct when the system
  abstains. Answers are correct when the normalised answer contains a normalised gold string.

A source covers every page its chunk spans (a paragraph continued on the next page cites both), and
the pages of the chunks it carries (``SearchHit.merged``: other chunks of its page).

Retrieval is scored twice: over the whole collection (no document filter, as a user asks), and with
each question's own documents as the filter (``doc@1``, ``doc@k``, ``docMRR``): the gap between the
two is what finding the right document costs. A per-document table (pages, table elements) shows an
extraction that found few tables.
"""

from __future__ import annotations

import json
import re
import statistics
import time
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pagelens.errors import ConfigError, NotFoundError
from pagelens.models import Answer, IngestResult, SearchHit

ALL_PAGES_MODALITIES = frozenset({"multi-hop", "cross-doc"})
UNANSWERABLE = "unanswerable"


class App(Protocol):
    """The part of the ``pagelens.app.Pagelens`` facade the harness uses."""

    def ingest(self, paths: Iterable[Path | str]) -> list[IngestResult]: ...

    def search(self, query: str, *, k: int | None = None, mode: str = "hybrid", docs: Iterable[str] | None = None) -> list[SearchHit]: ...

    def ask(self, question: str, *, docs: Iterable[str] | None = None) -> Answer: ...


# -- reference scoring (verbatim from the corpus README) ----------------------------------------------
def norm(s: str) -> str:
    s = unicodedata.normalize("NFKC", s).replace("\u2212", "-").replace("\u2013", "-")
    return re.sub(r"\s+", " ", s.lower()).strip()


def answer_correct(generated: str, answers: Sequence[str]) -> bool:
    return any(norm(a) in norm(generated) for a in answers)


# -- questions --------------------------------------------------------------------------------------
@dataclass
class Question:
    id: str
    question: str
    modality: str
    answers: list[str]
    gold: list[tuple[str, int]]  # (pdf file name, 1-based page)
    pdfs: list[str]

    @property
    def all_pages(self) -> bool:
        return self.modality in ALL_PAGES_MODALITIES


def load_questions(paths: Iterable[Path]) -> list[Question]:
    out: list[Question] = []
    for path in paths:
        for lineno, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                out.append(_question(json.loads(line)))
            except (ValueError, KeyError, TypeError) as exc:
                raise ConfigError(f"{Path(path).name}: line {lineno}: bad question record ({exc})") from exc
    return out


def _question(rec: dict[str, Any]) -> Question:
    pdfs = rec["pdf"] if isinstance(rec["pdf"], list) else [rec["pdf"]]
    pages = rec.get("pages") or []
    if pages and isinstance(pages[0], list):
        if len(pages) != len(pdfs):
            raise ValueError(f"{len(pdfs)} pdfs but {len(pages)} page lists")
        gold = [(pdf, int(p)) for pdf, ps in zip(pdfs, pages) for p in ps]
    else:
        gold = [(pdfs[0], int(p)) for p in pages]
    return Question(
        id=str(rec["id"]), question=rec["question"], modality=rec["modality"],
        answers=list(rec.get("answers") or []), gold=gold, pdfs=pdfs,
    )


# -- scoring ----------------------------------------------------------------------------------------
def hit_rank(gold: Sequence[tuple[str, int]], hits: Sequence[SearchHit], all_pages: bool) -> int | None:
    """1-based rank at which the question counts as answered by retrieval (any gold page, or the last
    of all gold pages when ``all_pages``); None when the sources never get there."""
    needed = set(gold)
    if not needed:
        return None
    found: set[tuple[str, int]] = set()
    for i, hit in enumerate(hits, 1):
        found |= {(c.doc_name, p) for c in hit.all_chunks() for p in c.pages} & needed
        if (found == needed) if all_pages else found:
            return i
    return None


def any_page_rank(gold: Sequence[tuple[str, int]], hits: Sequence[SearchHit]) -> int | None:
    return hit_rank(gold, hits, all_pages=False)


@dataclass
class QuestionResult:
    id: str
    modality: str
    rank: int | None = None  # retrieval rank (None: missed or not scored)
    doc_rank: int | None = None  # the same, searching only the question's own documents
    doc_scored: bool = False
    any_rank: int | None = None
    scored: bool = True  # False for unanswerable questions
    latency_ms: float = 0.0
    top: list[str] = field(default_factory=list)  # "pdf:page" of the sources, best first
    answer: str | None = None
    answer_ok: bool | None = None
    abstained: bool | None = None
    not_ingested: list[str] = field(default_factory=list)  # its documents that failed to ingest (scored as misses)


@dataclass
class Row:
    """Metrics of one group of questions."""

    name: str
    n: int = 0  # questions scored for retrieval
    hit1: float = 0.0
    hitk: float = 0.0
    mrr: float = 0.0
    doc_hit1: float | None = None  # the same three with each question's documents as the filter
    doc_hitk: float | None = None
    doc_mrr: float | None = None
    any_hitk: float | None = None  # any-page recall, for all-pages modalities
    answered: int = 0  # questions whose answer was checked
    answer_acc: float | None = None


@dataclass
class DocStats:
    """One ingested document: pages and table elements (a table-poor extraction shows here)."""

    name: str
    pages: int
    tables: int
    status: str


@dataclass
class EvalReport:
    k: int
    results: list[QuestionResult]
    rows: list[Row]  # per modality, then "overall"
    pages: int = 0
    ingest_seconds: float = 0.0
    latency_p50_ms: float = 0.0
    latency_p95_ms: float = 0.0
    answer_p50_ms: float = 0.0  # ask: retrieval + answer, warm
    answer_p95_ms: float = 0.0
    failed_files: list[str] = field(default_factory=list)
    documents: list[DocStats] = field(default_factory=list)

    @property
    def ingest_pages_per_s(self) -> float:
        return self.pages / self.ingest_seconds if self.ingest_seconds > 0 else 0.0

    @property
    def overall(self) -> Row:
        return self.rows[-1]

    def row(self, name: str) -> Row | None:
        return next((r for r in self.rows if r.name == name), None)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["ingest_pages_per_s"] = round(self.ingest_pages_per_s, 2)
        return d

    def table(self) -> str:
        return render_table(self)


def summarize(results: list[QuestionResult], k: int) -> list[Row]:
    groups: dict[str, list[QuestionResult]] = {}
    for r in results:
        groups.setdefault(r.modality, []).append(r)
    rows = [_row(name, rs, k) for name, rs in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))]
    rows.append(_row("overall", results, k))
    return rows


def _row(name: str, results: list[QuestionResult], k: int) -> Row:
    scored = [r for r in results if r.scored]
    row = Row(name, n=len(scored))
    if scored:
        row.hit1 = sum(r.rank == 1 for r in scored) / len(scored)
        row.hitk = sum(r.rank is not None and r.rank <= k for r in scored) / len(scored)
        row.mrr = sum(1.0 / r.rank for r in scored if r.rank) / len(scored)
        if any(r.doc_scored for r in scored):
            row.doc_hit1 = sum(r.doc_rank == 1 for r in scored) / len(scored)
            row.doc_hitk = sum(r.doc_rank is not None and r.doc_rank <= k for r in scored) / len(scored)
            row.doc_mrr = sum(1.0 / r.doc_rank for r in scored if r.doc_rank) / len(scored)
        multi = [r for r in scored if r.modality in ALL_PAGES_MODALITIES]
        if multi and len(multi) == len(scored):
            row.any_hitk = sum(r.any_rank is not None and r.any_rank <= k for r in multi) / len(multi)
    checked = [r for r in results if r.answer_ok is not None]
    row.answered = len(checked)
    if checked:
        row.answer_acc = sum(bool(r.answer_ok) for r in checked) / len(checked)
    return row


def render_table(report: EvalReport) -> str:
    k = report.k
    head = (f"{'modality':<14}{'n':>4}{'hit@1':>8}{f'hit@{k}':>8}{'MRR':>7}{'doc@1':>8}{f'doc@{k}':>8}"
            f"{'docMRR':>8}{'any@' + str(k):>8}{'answers':>11}")
    lines = [head, "-" * len(head)]
    for r in report.rows:
        if r.name == "overall":
            lines.append("-" * len(head))
        any_k = f"{r.any_hitk:.2f}" if r.any_hitk is not None else ""
        ans = f"{r.answer_acc:.2f} ({r.answered})" if r.answer_acc is not None else ""
        scores = f"{r.hit1:>8.2f}{r.hitk:>8.2f}{r.mrr:>7.2f}" if r.n else f"{'':>8}{'':>8}{'':>7}"
        doc = (f"{r.doc_hit1:>8.2f}{r.doc_hitk:>8.2f}{r.doc_mrr:>8.2f}" if r.n and r.doc_hit1 is not None
               else f"{'':>8}{'':>8}{'':>8}")
        lines.append(f"{r.name:<14}{r.n:>4}{scores}{doc}{any_k:>8}{ans:>11}")
    lines.append("")
    if report.documents:
        width = max(len(d.name) for d in report.documents) + 2
        lines.append(f"{'document':<{width}}{'pages':>6}{'tables':>8}")
        for d in report.documents:
            lines.append(f"{d.name:<{width}}{d.pages:>6}{d.tables:>8}" + ("" if d.status != "failed" else "  failed"))
        lines.append("")
    lines.append(
        f"query latency p50 {report.latency_p50_ms:.1f} ms, p95 {report.latency_p95_ms:.1f} ms; "
        f"ingest {report.pages} pages in {report.ingest_seconds:.1f} s ({report.ingest_pages_per_s:.1f} pages/s)"
    )
    if report.answer_p50_ms:
        lines.append(f"ask latency (retrieval + answer) p50 {report.answer_p50_ms:.1f} ms, p95 {report.answer_p95_ms:.1f} ms")
    if report.failed_files:
        lines.append("failed: " + "; ".join(report.failed_files))
    for r in report.results:
        if r.not_ingested:
            lines.append(f"not ingested: {r.id} asks about {', '.join(r.not_ingested)} (scored as a miss)")
    return "\n".join(lines)


def percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    if len(values) == 1:
        return float(values[0])
    return float(statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1])


# -- the run ----------------------------------------------------------------------------------------
def run_eval(
    app: App,
    questions_paths: list[Path],
    pdf_dir: Path,
    k: int = 5,
    answers: bool = True,
    ingest: bool = True,
    doc_filter: bool = True,
) -> EvalReport:
    """Ingest every PDF in ``pdf_dir`` into ``app`` (its home should be a fresh one), then search
    (whole collection, no document filter) and optionally ask every question."""
    questions = load_questions(questions_paths)
    pdfs = sorted(p for p in Path(pdf_dir).iterdir() if p.suffix.lower() == ".pdf")
    missing = sorted({pdf for q in questions for pdf in q.pdfs} - {p.name for p in pdfs})
    if missing:
        raise ConfigError(f"eval: questions name PDFs not in {pdf_dir}: {', '.join(missing)}")
    pages, seconds, failed, documents = 0, 0.0, [], []
    absent: set[str] = set()  # file names that did not ingest: a filter naming them finds nothing to search
    if ingest:
        started = time.perf_counter()
        ingested = app.ingest(pdfs)
        seconds = time.perf_counter() - started
        pages = sum(r.pages for r in ingested if r.status in ("indexed", "reparsed"))  # "unchanged": nothing done
        failed = [r.error or r.name for r in ingested if r.status == "failed"]
        absent = {r.name for r in ingested if r.status == "failed"}
        documents = [DocStats(r.name, r.pages, r.elements.get("table", 0), r.status) for r in ingested]
    elif callable(getattr(app, "documents", None)):  # a reused home: what it holds
        documents = [DocStats(d.name, d.pages, d.element_counts.get("table", 0), "indexed") for d in app.documents()]

    if questions:
        app.search(questions[0].question, k=k)  # warm-up: model loading is not query latency
    results: list[QuestionResult] = []
    latencies: list[float] = []
    ask_ms: list[float] = []
    for q in questions:
        r = QuestionResult(q.id, q.modality, scored=q.modality != UNANSWERABLE and bool(q.gold))
        r.not_ingested = [pdf for pdf in q.pdfs if pdf in absent]
        if r.scored:
            t0 = time.perf_counter()
            hits = app.search(q.question, k=k)
            r.latency_ms = (time.perf_counter() - t0) * 1000
            latencies.append(r.latency_ms)
            r.rank = hit_rank(q.gold, hits, q.all_pages)
            r.any_rank = any_page_rank(q.gold, hits)
            r.top = [f"{h.chunk.doc_name}:{','.join(map(str, h.chunk.pages))}" for h in hits]
            if doc_filter:
                r.doc_rank = _filtered_rank(app, q, k, r)
                r.doc_scored = True
        if answers:
            t0 = time.perf_counter()
            ans = app.ask(q.question)
            ask_ms.append((time.perf_counter() - t0) * 1000)
            r.answer, r.abstained = ans.answer, ans.abstained
            if q.modality == UNANSWERABLE:
                r.answer_ok = ans.abstained
            else:
                r.answer_ok = not ans.abstained and answer_correct(ans.answer, q.answers)
        results.append(r)
    return EvalReport(
        k=k, results=results, rows=summarize(results, k), pages=pages, ingest_seconds=seconds,
        latency_p50_ms=percentile(latencies, 50), latency_p95_ms=percentile(latencies, 95),
        answer_p50_ms=percentile(ask_ms, 50), answer_p95_ms=percentile(ask_ms, 95), failed_files=failed,
        documents=documents,
    )


def _filtered_rank(app: App, q: Question, k: int, r: QuestionResult) -> int | None:
    """The question's rank searched within its own documents that are there; a document that failed to
    ingest (or, with a reused home, is not in it) is recorded in ``r.not_ingested`` and the question
    counts as a miss where its gold pages are in it, never as an error."""
    docs = [pdf for pdf in q.pdfs if pdf not in r.not_ingested]
    while docs:
        try:
            return hit_rank(q.gold, app.search(q.question, k=k, docs=docs), q.all_pages)
        except NotFoundError:
            # Which name is unknown: the facade says it in words, so find it by asking one at a time.
            gone = next((d for d in docs if not _known(app, q.question, d)), None)
            if gone is None:
                raise
            r.not_ingested.append(gone)
            docs.remove(gone)
    return None


def _known(app: App, question: str, doc: str) -> bool:
    try:
        app.search(question, k=1, docs=[doc])
    except NotFoundError:
        return False
    return True
