"""Answers while ingesting: query latency and ingest rate of `pagelens serve`, idle vs under load.

    .venv/bin/python bench/serve.py [--pages 120] [--clients 20] [--idle-queries 5] [--think 0]

Starts `pagelens serve` on 127.0.0.1 (a fresh temporary home, OCR off, answer cache off so every
question is answered), and in one run measures:

1. ingest of a generated PDF (text, a ruled table and a vector chart per page) with no queries;
2. ``--clients`` concurrent clients each asking ``--idle-queries`` questions (POST /query) with no ingest;
3. the same clients asking continuously (``--think`` seconds between a client's questions) while a
   second generated PDF of the same size ingests; bounded by ``--max-seconds`` and 200 questions each.

Prints query p50/p95 idle and under ingest, errors, and ingest pages/s idle and under query load.
Loopback only; every number comes from this one run on this machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def questions(pages: int) -> list[str]:
    """Distinct questions (no two clients ask the same one until the list wraps), shuffled."""
    forms = ["What was the measured throughput of unit {i}?", "Which value does table {j} give for r{r}c{c}?",
             "What do the bars of figure {j} show?", "How many items per hour did unit {i} reach?",
             "What is on page {j} of the quarterly report?", "Which section covers unit {i}?"]
    out = [f.format(i=n, j=n + 1, r=n % 5, c=n % 4) for f in forms for n in range(pages)]
    random.Random(7).shuffle(out)
    return out


def ingest(client: httpx.Client, pdf: Path) -> tuple[float, int, str | None]:
    """(seconds from upload to done, pages, error) for one PDF through POST /documents."""
    t0 = time.perf_counter()
    r = client.post("/documents", files=[("files", (pdf.name, pdf.read_bytes(), "application/pdf"))])
    r.raise_for_status()
    job = r.json()["jobs"][0]
    while job["state"] in ("queued", "running"):
        time.sleep(0.1)
        job = client.get(f"/jobs/{job['job_id']}").json()
    return time.perf_counter() - t0, job["pages"], job["error"]


class Clients:
    """``n`` threads asking questions; latencies in ms and errors recorded."""

    def __init__(self, url: str, n: int, qs: list[str]) -> None:
        self.url, self.n, self.qs = url, n, qs
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self._lock = threading.Lock()

    def run(self, per_client: int, until: threading.Event | None = None, think: float = 0.0,
            deadline: float = 600.0) -> None:
        stop_at = time.monotonic() + deadline

        def one(c: int) -> None:
            with httpx.Client(base_url=self.url, timeout=120) as http:
                for i in range(per_client):
                    if (until is not None and until.is_set()) or time.monotonic() > stop_at:
                        return
                    q = self.qs[(c + i * self.n) % len(self.qs)]
                    t0 = time.perf_counter()
                    try:
                        r = http.post("/query", json={"question": q, "history": False})
                        ok = r.status_code == 200 and r.json().get("answer") is not None
                        err = None if ok else f"HTTP {r.status_code}: {r.text[:120]}"
                    except httpx.HTTPError as exc:
                        err = f"{type(exc).__name__}: {exc}"
                    ms = (time.perf_counter() - t0) * 1000
                    with self._lock:
                        (self.errors.append(err) if err else self.latencies.append(ms))
                    if think:
                        time.sleep(think)

        threads = [threading.Thread(target=one, args=(c,)) for c in range(self.n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, default=120)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--idle-queries", type=int, default=5, help="Questions per client in the idle phase.")
    ap.add_argument("--think", type=float, default=0.0, help="Seconds a client waits between its questions.")
    ap.add_argument("--max-seconds", type=float, default=600.0)
    args = ap.parse_args()

    from ingest import generate  # bench/ingest.py

    with tempfile.TemporaryDirectory(prefix="pagelens-bench-serve-") as tmp:
        tmp_path = Path(tmp)
        pdf_a = generate(tmp_path / "report-a.pdf", args.pages)
        pdf_b = generate(tmp_path / "report-b.pdf", args.pages + 1)  # other bytes: a new document
        port = free_port()
        env = {**{k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")},
               "PAGELENS_HOME": str(tmp_path / "home"), "PAGELENS_CONFIG": str(tmp_path / "none.toml"),
               "PAGELENS_OCR": "off", "PAGELENS_ANSWER__CACHE": "false", "HF_HUB_OFFLINE": "1",
               "PYTHONPATH": str(REPO / "src")}
        server = subprocess.Popen([sys.executable, "-m", "pagelens.cli.main", "--quiet", "serve", "--port", str(port)],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        url = f"http://127.0.0.1:{port}"
        try:
            http = httpx.Client(base_url=url, timeout=120)
            for _ in range(600):
                try:
                    if http.get("/health").status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if server.poll() is not None:
                    raise SystemExit(f"serve exited: {server.stderr.read() if server.stderr else ''}")
                time.sleep(0.2)
            qs = questions(args.pages)
            http.post("/query", json={"question": "warm up"})

            idle_s, idle_pages, err = ingest(http, pdf_a)
            assert err is None, err
            Clients(url, 2, qs[-4:]).run(2)  # warm the query path once more after the first ingest
            idle = Clients(url, args.clients, qs)
            t0 = time.perf_counter()
            idle.run(args.idle_queries, think=args.think, deadline=args.max_seconds)
            idle_wall = time.perf_counter() - t0

            used = args.clients * args.idle_queries + 4
            loaded = Clients(url, args.clients, qs[used:] + qs[:used])  # not the idle phase's questions
            done = threading.Event()
            result: dict[str, object] = {}

            def ingest_b() -> None:
                result["r"] = ingest(http, pdf_b)
                done.set()

            feeder = threading.Thread(target=ingest_b)
            t0 = time.perf_counter()
            feeder.start()
            loaded.run(200, until=done, think=args.think, deadline=args.max_seconds)
            load_wall = time.perf_counter() - t0
            feeder.join(args.max_seconds)
            busy_s, busy_pages, err = result.get("r", (float("nan"), 0, "ingest did not finish"))  # type: ignore[misc]
        finally:
            server.terminate()
            server.wait(60)

    rate_idle = idle_pages / idle_s
    rate_busy = busy_pages / busy_s if busy_pages else float("nan")
    p50_idle, p50_busy = pct(idle.latencies, 50), pct(loaded.latencies, 50)
    rows = [
        ("queries answered", f"{len(idle.latencies)}", f"{len(loaded.latencies)}"),
        ("query p50 ms", f"{p50_idle:.0f}", f"{p50_busy:.0f}"),
        ("query p95 ms", f"{pct(idle.latencies, 95):.0f}", f"{pct(loaded.latencies, 95):.0f}"),
        ("queries/s", f"{len(idle.latencies) / idle_wall:.1f}", f"{len(loaded.latencies) / load_wall:.1f}"),
        ("errors", f"{len(idle.errors)}", f"{len(loaded.errors)}"),
        ("ingest pages/s", f"{rate_idle:.2f} (no queries)", f"{rate_busy:.2f} (under queries)"),
    ]
    print(f"pagelens serve, {args.clients} clients (think {args.think:g} s), {args.pages}+{args.pages + 1}-page PDFs, "
          f"{os.cpu_count()} CPUs")
    print(f"{'':18} {'idle':>22} {'during ingest':>22}")
    for name, a, b in rows:
        print(f"{name:18} {a:>22} {b:>22}")
    print(f"p50 under ingest / idle: {p50_busy / p50_idle:.2f}x (target <= 3x); "
          f"ingest rate under load / idle: {rate_busy / rate_idle:.0%} (target >= 70%)")
    if err:
        print(f"second ingest: {err}")
    for e in (idle.errors + loaded.errors)[:5]:
        print("error:", e)
    print(json.dumps({"p50_idle": p50_idle, "p50_busy": p50_busy, "rate_idle": rate_idle, "rate_busy": rate_busy,
                      "errors": len(idle.errors) + len(loaded.errors)}))


if __name__ == "__main__":
    main()
