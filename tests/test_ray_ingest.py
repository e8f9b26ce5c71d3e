"""`pagelens ingest --ray`: parse tasks on a local Ray (one per module, two CPUs), the catalog on a real
PostgreSQL server. A folder parsed, OCR'd and embedded on the Ray workers gives the same search results
as the default local processes + SQLite, with the rows in PostgreSQL; a Ray worker killed in the middle
of a task leaves the file ingested exactly once; the console command starts and stops a Ray of its own.
Real parser, Tesseract, MiniLM and qdrant-edge (the kill tests use the hashing embedder on the driver)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

ray = pytest.importorskip("ray", reason="Ray tests: ray is not installed (pip install 'pagelens[ray]')")

from pagelens.app import Pagelens  # noqa: E402
from pagelens.cli.main import app, optional_ray_value  # noqa: E402
from pagelens.embed.fake import HashingEmbedder  # noqa: E402
from pagelens.ingest.coordinator import IngestCoordinator  # noqa: E402
from pagelens.ingest.executor import LocalProcessExecutor, create_executor  # noqa: E402
from pagelens.ingest.ray_executor import RayExecutor  # noqa: E402
from pagelens.settings import Settings  # noqa: E402
from pdfs import PAPER_QUESTIONS, RASTER_WORDS, hr_form_pdf, paper_pdf, raster_figures_pdf  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_ingest_pool import build_report  # noqa: E402


@pytest.fixture(scope="module")
def local_ray():
    """One local Ray for the module (2 CPUs); every RayExecutor in these tests joins it."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             object_store_memory=128 * 2**20)
    yield ray
    ray.shutdown()


def run(home: Path, *args: str, catalog_url: str | None = None, embed_on_ray: bool = False) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")}
    if embed_on_ray:
        env["PAGELENS_INGEST__RAY_EMBED"] = "true"
    env["PAGELENS_CONFIG"] = str(home / "none.toml")
    env["PAGELENS_INGEST__PAGES_PER_TASK"] = "3"  # the nine-page paper becomes three page ranges
    if catalog_url:
        env["PAGELENS_CATALOG_URL"] = catalog_url
    result = CliRunner().invoke(app, ["--home", str(home), "--quiet", *args], env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def ranking(app: Pagelens, query: str, mode: str = "hybrid") -> list[tuple]:
    return [(h.chunk.doc_name, h.chunk.page, h.chunk.text) for h in app.search(query, k=5, mode=mode)]


def test_the_bare_ray_flag_takes_no_path_as_its_address(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    assert optional_ray_value(["ingest", "a.pdf", "--ray"]) == ["ingest", "a.pdf", "--ray=local"]
    assert optional_ray_value(["ingest", "--ray", str(folder)]) == ["ingest", "--ray=local", str(folder)]
    assert optional_ray_value(["ingest", "--ray", "--json", "x"]) == ["ingest", "--ray=local", "--json", "x"]
    assert optional_ray_value(["ingest", "x", "--ray", "ray://head:10001"]) == ["ingest", "x", "--ray=ray://head:10001"]
    assert optional_ray_value(["ingest", "x", "--ray=auto"]) == ["ingest", "x", "--ray=auto"]


def test_without_ray_installed_the_flag_fails_with_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` raises ImportError, as when it is missing
    pdf = tmp_path / "a.pdf"
    hr_form_pdf(pdf)
    code, out, err = run(tmp_path / "home", "ingest", str(pdf), "--ray=local")
    assert code == 1
    assert err.strip().splitlines()[-1].endswith("Ray unavailable: not installed (pip install 'pagelens[ray]')")
    assert "Traceback" not in err and not (tmp_path / "home" / "catalog.sqlite3").exists()


def test_a_folder_ingested_on_ray_into_postgres_searches_as_the_local_default(
    settings: Settings, tmp_path: Path, local_ray, pg_server, monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    folder = tmp_path / "docs"
    folder.mkdir()
    paper_pdf(folder / "quill.pdf")
    hr_form_pdf(folder / "hr_form.pdf")
    raster_figures_pdf(folder / "maps.pdf")  # words only in images: OCR'd on the Ray workers
    url = pg_server.new_database()
    lite, shared = tmp_path / "lite", tmp_path / "shared"
    made: list = []
    monkeypatch.setattr(IngestCoordinator, "executor_factory", staticmethod(lambda st: made.append(create_executor(st)) or made[-1]))

    code, out, err = run(lite, "ingest", "--json", str(folder))
    assert code == 0, err
    local = {d["name"]: d for d in json.loads(out)["documents"]}
    code, out, err = run(shared, "ingest", "--json", str(folder), "--ray=local", catalog_url=url, embed_on_ray=True)
    assert code == 0, err
    on_ray = {d["name"]: d for d in json.loads(out)["documents"]}
    local_pool, ray_pool = made
    assert isinstance(local_pool, LocalProcessExecutor) and isinstance(ray_pool, RayExecutor)
    # 3 prepare tasks + 3 ranges of the paper, in Ray worker processes
    assert ray_pool.submitted == 6 and ray_pool.pids and os.getpid() not in ray_pool.pids
    assert ray_pool.embedder is not None and ray_pool.embedder.tasks >= 4  # the chunks were embedded there too
    assert sorted(on_ray) == ["hr_form.pdf", "maps.pdf", "quill.pdf"]
    for name, doc in on_ray.items():
        assert doc["status"] == "indexed", doc["error"]
        want = local[name]
        assert (doc["doc_id"], doc["pages"], doc["elements"], doc["ocr_pages"], doc["chunks"]) == (
            want["doc_id"], want["pages"], want["elements"], want["ocr_pages"], want["chunks"])

    # The rows are in PostgreSQL; the Ray run wrote no SQLite catalog.
    assert not (shared / "catalog.sqlite3").exists() and (lite / "catalog.sqlite3").exists()
    with psycopg.connect(url) as conn:
        assert sorted(r[0] for r in conn.execute("SELECT name FROM documents")) == sorted(on_ray)
        assert conn.execute("SELECT count(*) FROM elements").fetchone()[0] == sum(sum(d["elements"].values()) for d in on_ray.values())
        assert conn.execute("SELECT count(*) FROM vector_jobs").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM indexed").fetchone()[0] == 3

    queries = [q for q, _ in PAPER_QUESTIONS[:3]] + ["employee information form education", " ".join(RASTER_WORDS[1])]
    with Pagelens(settings.with_overrides(home=str(lite))) as a, \
            Pagelens(settings.with_overrides(home=str(shared), catalog_url=url), embedder=a.embedder) as b:
        for query in queries:
            # Dense: the same hits in the same order. (Vectors made on the workers, in other batches,
            # differ in the last float bits, which can swap two chunks of one merged page underneath:
            # the fused scores may differ, the results do not.)
            expected = ranking(a, query, mode="dense")
            assert expected and ranking(b, query, mode="dense") == expected, query
            lite_hits, ray_hits = ranking(a, query), ranking(b, query)
            assert ray_hits[0] == lite_hits[0]  # hybrid: the same top hit and the same hits
            assert {h[:2] for h in ray_hits} == {h[:2] for h in lite_hits}
        if shutil.which("tesseract"):  # words only in the image: found because a Ray worker OCR'd it
            assert ranking(b, " ".join(RASTER_WORDS[1]))[0][:2] == ("maps.pdf", 2)


def _kill_settings(settings: Settings, url: str) -> Settings:
    return settings.with_overrides(**{
        "ingest.ocr": "off", "ingest.pages_per_task": 3, "ingest.executor": "ray", "answer.cache": False,
        "catalog_url": url,
    })


def test_a_ray_worker_killed_mid_task_leaves_the_file_ingested_exactly_once(
    settings: Settings, tmp_path: Path, local_ray, pg_server
) -> None:
    pdf = build_report(tmp_path / "northwind.pdf", 13, "Northwind")  # a prepare task and five page ranges

    def ingest(home: Path, fault: str | None) -> tuple:
        s = _kill_settings(settings, pg_server.new_database()).with_overrides(home=str(home), fault_at=fault)
        made: list = []
        with Pagelens(s, embedder=HashingEmbedder(dim=64)) as app:
            app.coordinator.executor_factory = lambda st: made.append(create_executor(st)) or made[-1]
            (result,) = app.ingest([pdf])
            assert result.status == "indexed", result.error
            assert isinstance(made[0], RayExecutor) and os.getpid() not in made[0].pids
            tasks = made[0].submitted
            els = app.catalog.elements(result.doc_id)
            points = app.store.count(app.indexer.collection, result.doc_id)
            jobs = app.catalog.vector_jobs()
            again = app.ingest([pdf])[0].status
        summary = [(e.id, e.page, e.order, e.kind.value, e.text) for e in els]
        return result, summary, points, jobs, again, tasks

    calm, calm_els, calm_points, _, _, calm_tasks = ingest(tmp_path / "calm", None)
    flag = tmp_path / "killed" / ".fault-ray-task"
    hit, els, points, jobs, again, tasks = ingest(tmp_path / "killed", "ray-task")
    assert tasks == calm_tasks == 6  # the driver submitted each task once: Ray reran the lost one itself
    assert flag.exists()  # a worker created the flag and SIGKILLed itself after parsing its range
    # Ray ran that range again on a fresh worker; the document was committed once, as if nothing happened.
    assert (hit.doc_id, hit.pages, hit.elements, hit.chunks) == (calm.doc_id, calm.pages, calm.elements, calm.chunks)
    assert els == calm_els and len({e[0] for e in els}) == len(els)  # no duplicate or missing element
    assert sorted({e[1] for e in els}) == list(range(1, 14))
    assert points == calm_points == hit.chunks
    assert jobs == [] and again == "unchanged"


def test_a_task_whose_workers_keep_dying_fails_only_its_file(settings: Settings, tmp_path: Path, local_ray) -> None:
    doomed = build_report(tmp_path / "doomed.pdf", 4, "Doomed")
    fine = build_report(tmp_path / "fine.pdf", 2, "Fine")
    s = settings.with_overrides(**{"ingest.ocr": "off", "ingest.pages_per_task": 2, "ingest.executor": "ray",
                                   "ingest.ray_max_retries": 0, "answer.cache": False, "fault_at": "ray-task"})
    with Pagelens(s, embedder=HashingEmbedder(dim=64)) as app:
        results = {r.name: r for r in app.ingest([doomed, fine])}
        assert results["fine.pdf"].status == "indexed"  # two pages: parsed by its prepare task, no range
        bad = results["doomed.pdf"]
        assert bad.status == "failed" and bad.error and bad.error.startswith("doomed.pdf: parse: the Ray task failed (")
        assert "\n" not in bad.error
        assert [d.name for d in app.documents()] == ["fine.pdf"] and app.catalog.vector_jobs() == []


def test_embedding_on_workers_carries_the_embed_key_and_parsing_carries_none(settings: Settings, local_ray) -> None:
    s = settings.with_overrides(**{"index.embed_url": "http://127.0.0.1:9/v1", "index.embed_api_key": "sk-embed",
                                   "answer.llm_api_key": "sk-llm"})
    executor = RayExecutor(s)
    try:
        shipped = ray.get(executor._settings)
        assert shipped["index"]["embed_api_key"] != "sk-embed" and shipped["answer"]["llm_api_key"] != "sk-llm"
    finally:
        executor.close()
    executor = RayExecutor(s.with_overrides(**{"ingest.ray_embed": True}))
    try:
        shipped = ray.get(executor._settings)
        assert shipped["index"]["embed_api_key"] == "sk-embed" and shipped["answer"]["llm_api_key"] != "sk-llm"
    finally:
        executor.close()
    assert ray.is_initialized()  # an executor leaves a Ray it did not start running


def test_an_address_where_no_ray_listens_fails_in_seconds_with_one_line(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    pdf = tmp_path / "a.pdf"
    hr_form_pdf(pdf)
    # A process of its own (this one may hold the module's Ray), through the console entry point:
    # `--ray ADDRESS` with a space, as typed.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAGELENS_", "RAY_"))}
    env.update(PAGELENS_CONFIG=str(tmp_path / "none.toml"), PAGELENS_OCR="off", PYTHONPATH=os.pathsep.join(sys.path))
    cmd = [sys.executable, "-m", "pagelens.cli.main", "--home", str(tmp_path / "home"), "ingest", str(pdf),
           "--ray", f"127.0.0.1:{port}"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 1, proc.stderr
    line = proc.stderr.strip().splitlines()[-1]
    assert f"Ray unavailable: nothing answers at 127.0.0.1:{port}" in line and "Traceback" not in proc.stderr


def test_the_console_command_starts_its_own_ray_embeds_there_and_stops_it(settings: Settings, tmp_path: Path) -> None:
    """`pagelens ingest FILE --ray` as typed: a local Ray of its own, parse and embedding tasks on it,
    every chunk indexed before that Ray stops (the embedder works until the last document)."""
    pdf = tmp_path / "hr_form.pdf"
    hr_form_pdf(pdf)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PAGELENS_", "RAY_"))}
    env.update(PAGELENS_CONFIG=str(tmp_path / "none.toml"), PYTHONPATH=os.pathsep.join(sys.path),
               PAGELENS_INGEST__RAY_EMBED="true", PAGELENS_INGEST__RAY_NUM_CPUS="1")
    home = tmp_path / "home"
    cmd = [sys.executable, "-m", "pagelens.cli.main", "--home", str(home), "--quiet", "ingest", "--json", str(pdf), "--ray"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (doc,) = json.loads(proc.stdout)["documents"]
    assert doc["status"] == "indexed" and doc["chunks"] > 0, doc
    with Pagelens(settings.with_overrides(home=str(home))) as app:
        assert app.store.count(app.indexer.collection, doc["doc_id"]) == doc["chunks"]
        assert app.catalog.vector_jobs() == []
