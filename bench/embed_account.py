"""What the ingest's text model embeds, kind by kind: texts, tokens, padding, duplicates, truncation.

    .venv/bin/python bench/embed_account.py [--pdfs ../shared/corpus/pdfs] [--ocr auto|off]

Runs `pagelens ingest PDFS` (the CLI, default settings) in a fresh process and data home, records every
batch the plain-torch encoder runs (its shape and CPU seconds, on the thread that runs it) and every text
it is handed, then names each text's kind from the stored chunks and routing profiles. Printed per kind:
texts, tokens (real, before truncation), tokens past the model's 256 (cut off anyway), the CPU seconds
of the batches, shared in proportion to each text's padded length; then the padding of all batches,
exact duplicates across rounds, and near-duplicates (a row group's records whose words all appear in
its table's chunk; a figure's OCR text that is already on the page).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def worker(home: str, pdfs: list[str], ocr: str, out: str) -> None:
    import threading
    import time

    from pagelens.cli.main import app as cli
    from pagelens.embed import torch_bert

    calls: list[list[str]] = []
    batches: list[tuple[int, int, float]] = []
    lock = threading.Lock()
    embed, forward = torch_bert.LeanBertEncoder.embed, torch_bert.LeanBertEncoder._forward

    def rec_embed(self, texts, *a, **k):  # type: ignore[no-untyped-def]
        with lock:
            calls.append(list(texts))
        return embed(self, texts, *a, **k)

    def rec_forward(self, ids, *rest, **kw):  # type: ignore[no-untyped-def]
        """(texts, rows the model computed, CPU-s): padded (texts, length) ids before packing, packed rows now."""
        t = time.thread_time()
        try:
            return forward(self, ids, *rest, **kw)
        finally:
            texts, rows = (ids.shape[0], ids.shape[0] * ids.shape[1]) if ids.dim() == 2 else (len(rest[0]), ids.shape[0])
            with lock:
                batches.append((int(texts), int(rows), time.thread_time() - t))

    torch_bert.LeanBertEncoder.embed = rec_embed  # type: ignore[method-assign]
    torch_bert.LeanBertEncoder._forward = rec_forward  # type: ignore[method-assign]
    try:
        cli(["--home", home, "-q", "--ocr", ocr, "ingest", "--json", *pdfs], standalone_mode=False)
    except SystemExit:
        pass
    torch_bert.LeanBertEncoder.embed, torch_bert.LeanBertEncoder._forward = embed, forward  # type: ignore[method-assign]

    from pagelens.app import Pagelens
    from pagelens.index.profile import COVER_PAGES, build_profile
    from pagelens.models import ElementKind, Provenance
    from pagelens.settings import Settings

    kinds: dict[str, str] = {}
    near: dict[str, str] = {}
    with Pagelens(Settings(home=Path(home))) as app:
        for doc in app.catalog.documents():
            elements = list(app.catalog.iter_elements(doc.doc_id))
            by_id = {e.id: e for e in elements}
            page_text: dict[int, str] = defaultdict(str)
            for e in elements:
                if e.kind != ElementKind.FIGURE:
                    page_text[e.page] += " " + e.text.lower()
            chunks = app.indexer.chunks(doc.doc_id)
            table_words = {c.element_ids[0]: set(c.embed_text.lower().split()) for c in chunks if c.kind == "table"}
            for c in chunks:
                kind = c.kind
                els = [by_id[i] for i in c.element_ids if i in by_id]
                if kind == "text":
                    if all(e.kind == ElementKind.HEADING for e in els):
                        kind = "text: headings only"
                    elif any(e.provenance == Provenance.OCR for e in els):
                        kind = "text: OCR page"
                if kind == "figure" and els and els[0].figure is not None:
                    f = els[0].figure
                    kind = "figure with OCR text" if (f.ocr_text or "").strip() else "figure"
                    words = set((f.ocr_text or "").lower().split())
                    if words and words <= set(page_text[c.page].split()):
                        near[c.embed_text] = "figure OCR words all in page text"
                if kind == "table_rows":
                    body = set(c.embed_text.lower().replace(";", " ").replace("—", " ").split())
                    table = table_words.get(c.element_ids[0], set())
                    if table and len(body & table) >= 0.9 * len(body):
                        near[c.embed_text] = "row records: >=90% of words in table chunk"
                kinds.setdefault(c.embed_text, kind)
            cover = [e for p in range(1, min(doc.pages, COVER_PAGES) + 1) for e in app.catalog.elements(doc.doc_id, page=p)]
            profile = build_profile(doc, cover, app.catalog.elements(doc.doc_id, kinds=["heading"]))
            kinds.setdefault(profile.dense_text, "routing profile")
    Path(out).write_text(json.dumps({"calls": calls, "batches": batches, "kinds": kinds, "near": near}))


def report(data: dict) -> None:
    from pagelens.embed.sentence import resolve_model_path
    from tokenizers import Tokenizer

    source, _ = resolve_model_path("all-MiniLM-L6-v2")
    tok = Tokenizer.from_file(str(Path(source) / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    kinds, near = data["kinds"], data["near"]
    flat = [t for call in data["calls"] for t in call]
    ntok = {t: len(e.ids) for t, e in zip(set(flat), tok.encode_batch([t.strip() for t in set(flat)]))}
    batches = data["batches"]
    cpu = sum(s for _, _, s in batches)
    real = sum(min(256, ntok[t]) for t in flat)
    padded = sum(rows for _, rows, _ in batches)
    per_tok = cpu / max(padded, 1)  # CPU-s per padded token, shared out in proportion
    rows: dict[str, Counter] = defaultdict(Counter)
    for t in flat:
        k = kinds.get(t, "other (warm-up, profile of old version)")
        n = ntok[t]
        r = rows[k]
        r["texts"] += 1
        r["tokens"] += min(n, 256)
        r["over"] += max(0, n - 256)
        r["cpu"] += per_tok * min(n, 256) * padded / max(real, 1)
    print(f"{'kind':42}{'texts':>7}{'tokens':>9}{'tok/text':>9}{'cut >256':>9}{'CPU-s':>8}")
    for k, r in sorted(rows.items(), key=lambda kv: -kv[1]["tokens"]):
        print(f"{k:42}{r['texts']:7d}{r['tokens']:9d}{r['tokens'] / r['texts']:9.0f}{r['over']:9d}{r['cpu']:8.2f}")
    print(f"{'all':42}{len(flat):7d}{real:9d}{real / max(len(flat), 1):9.0f}"
          f"{sum(r['over'] for r in rows.values()):9d}{cpu:8.2f}")
    shapes = Counter(rows for _, rows, _ in batches)
    print(f"\nbatches {len(batches)}, distinct row counts {len(shapes)}, token rows computed {padded}, real {real} "
          f"(padding {100 * (padded - real) / max(padded, 1):.1f}%); forward CPU {cpu:.2f} s, "
          f"{1000 * cpu / max(real, 1):.3f} ms per real token")
    dup = Counter(flat)
    print(f"calls {len(data['calls'])}; texts {len(flat)}, distinct {len(dup)}; "
          f"embedded more than once: {sum(c - 1 for c in dup.values() if c > 1)} "
          f"({sum(min(256, ntok[t]) * (c - 1) for t, c in dup.items() if c > 1)} tokens)")
    nk = Counter(near[t] for t in flat if t in near)
    for why, n in nk.items():
        toks = sum(min(256, ntok[t]) for t in flat if near.get(t) == why)
        print(f"near-duplicate: {why}: {n} texts, {toks} tokens")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pdfs", type=Path, default=REPO.parent.parent / "shared" / "corpus" / "pdfs")
    ap.add_argument("--ocr", default="auto")
    ap.add_argument("--save-calls", type=Path, help="Write the embed calls' texts (JSON list of lists) here, to replay.")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--home", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    ap.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.home, args.paths, args.ocr, args.out)
        return
    pdfs = sorted(args.pdfs.glob("*.pdf"))
    with tempfile.TemporaryDirectory(prefix="pagelens-account-") as tmp:
        env = {**os.environ, "HF_HUB_OFFLINE": "1"}
        proc = subprocess.run(
            [sys.executable, __file__, "--worker", "--home", f"{tmp}/home", "--ocr", args.ocr, "--out", f"{tmp}/out.json",
             *map(str, pdfs)], capture_output=True, text=True, env=env,
        )
        if proc.returncode != 0:
            raise SystemExit(proc.stderr[-2000:])
        data = json.loads(Path(f"{tmp}/out.json").read_text())
        if args.save_calls:
            args.save_calls.write_text(json.dumps(data["calls"]))
        print(f"{len(pdfs)} PDFs, OCR {args.ocr}\n")
        report(data)


if __name__ == "__main__":
    main()
