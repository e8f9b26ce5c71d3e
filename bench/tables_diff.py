"""Every table of every page, read by two versions of the code, compared as markdown.

    PYTHONPATH=src .venv/bin/python bench/tables_diff.py --before /work/main/src
    PYTHONPATH=src .venv/bin/python bench/tables_diff.py --before /work/main/src --pdfs a.pdf dir/

A change meant for some tables (a header rule, a finder) should leave the others as they were: this
prints each page whose tables differ (header and rows, before and after) and a count. The PDFs: the
dev corpus, the realdocs cache (``bench/realdocs_fetch.py``) where it exists, and the statements
``bench/tables.py`` builds (``PAGELENS_CORPUS`` names the corpus folder where it is not
``../shared/corpus`` beside the checkout, as in a worktree). Tables are read the way
``bench/tables.py`` reads them (``PageContext.build``, ``tables.is_hard_page``,
``tables.extract_tables``); the ``--before`` code runs in a subprocess.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pymupdf

HERE = Path(__file__).resolve().parent
CORPUS = Path(os.environ.get("PAGELENS_CORPUS", HERE.parents[1] / "shared" / "corpus"))
REALDOCS = Path.home() / ".cache" / "pagelens-realdocs" / "pdfs"


def _pdfs(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        out += sorted(p.glob("*.pdf")) if p.is_dir() else [p] if p.suffix == ".pdf" and p.exists() else []
    return out


def read_all(pdfs: list[Path]) -> dict[str, list[str]]:
    """``"file p.N"`` → the markdown of each table on that page (pages without tables left out)."""
    from pagelens.ingest import tables
    from pagelens.ingest.context import PageContext
    from pagelens.settings import IngestSettings
    from pagelens.store.images import ImageStore

    img = ImageStore(Path(tempfile.mkdtemp(prefix="bench-tables-diff-")))
    out: dict[str, list[str]] = {}
    for pdf in pdfs:
        data = pdf.read_bytes()
        doc = pymupdf.open(stream=data, filetype="pdf")
        for page in doc:
            ctx = PageContext.build(page, doc_id="d", file_name=pdf.name, settings=IngestSettings(), images=img,
                                    pdf_bytes=data)
            ctx.use_layout = tables.is_hard_page(ctx)
            found = [el.table.markdown for el in tables.extract_tables(ctx) if el.table is not None]
            if found:
                out[f"{pdf.name} p.{page.number + 1}"] = found
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", type=Path, help="src folder of the code to compare with (e.g. /work/main/src)")
    ap.add_argument("--pdfs", type=Path, nargs="*", help="PDFs or folders (default: corpus, realdocs, built)")
    ap.add_argument("--json", action="store_true", help="print this code's tables as JSON only")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-tables-diff-"))
    paths = args.pdfs
    if paths is None:
        sys.path.insert(0, str(HERE))
        from tables import built  # bench/tables.py: the statements it measures

        built(tmp / "built-statements.pdf")
        paths = [CORPUS / "pdfs", REALDOCS, tmp / "built-statements.pdf"]
    after = read_all(_pdfs(paths))
    if args.json:
        print(json.dumps(after))
        return
    if not args.before:
        print(f"{sum(len(v) for v in after.values())} tables on {len(after)} pages")
        return
    env = dict(os.environ, PYTHONPATH=str(args.before))
    cmd = [sys.executable, __file__, "--json", "--pdfs", *map(str, _pdfs(paths))]
    before = json.loads(subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout.splitlines()[-1])
    changed = 0
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key, []), after.get(key, [])
        if old == new:
            continue
        changed += max(len(old), len(new)) - sum(a == b for a, b in zip(old, new))
        print(f"== {key}: {len(old)} table(s) before, {len(new)} after")
        for line in difflib.unified_diff("\n\n".join(old).splitlines(), "\n\n".join(new).splitlines(), lineterm="", n=1):
            print(line)
    total = sum(len(v) for v in after.values())
    print(f"{changed} of {total} tables changed ({len(after)} pages with tables, {sum(len(v) for v in before.values())} tables before)")


if __name__ == "__main__":
    main()
