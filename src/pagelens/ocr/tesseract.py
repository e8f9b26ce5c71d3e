"""Tesseract OCR: runs the ``tesseract`` binary on PNG bytes and groups its words into lines.

The binary is called directly (PNG on stdin, TSV on stdout) rather than through pytesseract so that
each call gets its own ``OMP_THREAD_LIMIT``: Tesseract's OpenMP threads spin-wait, and on a 2-core
machine shared with other work one thread per call was 2-3x faster than the default (measured on the
scanned corpus pages). Setting that variable process-wide would also throttle torch.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from functools import lru_cache

from pagelens.errors import ComponentUnavailable, PagelensError
from pagelens.ocr.protocol import OcrLine, OcrWord

INSTALL_HINT = "apt-get install tesseract-ocr tesseract-ocr-eng, or brew install tesseract"

# Page segmentation modes. 3 = automatic layout (keeps columns and tables: 6 reduced a bordered
# table to its header); 11 = sparse text in no particular order (chart labels, legends, maps); 6 = one
# uniform block, asked for a page whose automatic layout left most of its ink unread (a dense scanned
# statement of small print: ``ingest.ocr_block``).
PSM_PAGE = 3
PSM_SPARSE = 11
PSM_BLOCK = 6


class TesseractOcrEngine:
    """Tesseract 4/5 through its command line; ``languages`` in Tesseract style ('eng+deu')."""

    name = "tesseract"
    supports_sparse = True
    supports_block = True

    def __init__(
        self, languages: str = "eng", *, cmd: str | None = None, threads: int = 1, timeout_s: float = 300.0
    ) -> None:
        found = cmd or shutil.which("tesseract")
        if not found:
            raise ComponentUnavailable("tesseract", "the tesseract binary is not on PATH", INSTALL_HINT)
        self.cmd = found
        self.languages = languages
        self.threads = threads
        self.timeout_s = timeout_s
        self.version = _version(found)
        wanted = [lang for lang in languages.split("+") if lang]
        if not wanted:
            raise ComponentUnavailable("tesseract", f"no OCR language in {languages!r}", "set ingest.ocr_languages, e.g. 'eng'")
        have = _languages(found)
        missing = [lang for lang in wanted if lang not in have]
        if missing:
            pkgs = " ".join(f"tesseract-ocr-{m.replace('_', '-').lower()}" for m in missing)
            raise ComponentUnavailable(
                "tesseract", f"language data missing for {'+'.join(missing)}", f"apt-get install {pkgs}"
            )
        self.cache_id = f"tesseract {self.version} {languages}"

    def recognize(self, png: bytes, *, sparse: bool = False, block: bool = False) -> list[OcrLine]:
        """Lines in Tesseract's reading order; ``block`` numbers paragraphs across the image."""
        psm = PSM_SPARSE if sparse else PSM_BLOCK if block else PSM_PAGE
        args = [self.cmd, "stdin", "stdout", "-l", self.languages, "--psm", str(psm), "tsv"]
        env = dict(os.environ, OMP_THREAD_LIMIT=str(self.threads))
        try:
            proc = subprocess.run(args, input=png, capture_output=True, env=env, timeout=self.timeout_s, check=False)
        except subprocess.TimeoutExpired as exc:
            raise PagelensError(f"tesseract took over {self.timeout_s:.0f} s on one image") from exc
        except OSError as exc:
            raise ComponentUnavailable("tesseract", f"cannot run {self.cmd}: {exc}", INSTALL_HINT) from exc
        if proc.returncode != 0:
            err = proc.stderr.decode(errors="replace").strip().splitlines()
            raise PagelensError(f"tesseract exited {proc.returncode}: {err[-1] if err else 'no message'}")
        return parse_tsv(proc.stdout.decode("utf-8", errors="replace"))


def parse_tsv(tsv: str) -> list[OcrLine]:
    """Group Tesseract's word rows (level 5) into lines; confidence is the mean word confidence (0..1).
    Each line keeps its words with their boxes and confidences (``OcrLine.words``)."""
    lines: list[OcrLine] = []
    paragraphs: dict[tuple[int, int, int], int] = {}
    cur_key: tuple[int, int, int, int] | None = None
    words: list[str] = []
    boxes: list[OcrWord] = []
    confs: list[float] = []
    box = [0.0, 0.0, 0.0, 0.0]

    def flush() -> None:
        if cur_key is not None and words:
            para = paragraphs.setdefault(cur_key[:3], len(paragraphs))
            conf = sum(confs) / len(confs) / 100.0 if confs else 0.0
            lines.append(OcrLine(" ".join(words), (box[0], box[1], box[2], box[3]), round(conf, 3), para, tuple(boxes)))

    for row in tsv.splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or cols[0] != "5":
            continue
        text = cols[11].strip()
        if not text:
            continue
        page, block, par, line = (int(c) for c in cols[1:5])
        left, top, width, height = (float(c) for c in cols[6:10])
        key = (page, block, par, line)
        if key != cur_key:
            flush()
            cur_key, words, boxes, confs = key, [], [], []
            box = [left, top, left + width, top + height]
        words.append(text)
        conf = float(cols[10])
        boxes.append(OcrWord(text, (left, top, left + width, top + height), round(max(conf, 0.0) / 100.0, 3)))
        if conf >= 0:
            confs.append(conf)
        box = [min(box[0], left), min(box[1], top), max(box[2], left + width), max(box[3], top + height)]
    flush()
    return lines


@lru_cache(maxsize=8)
def _version(cmd: str) -> str:
    out = _run_info(cmd, "--version")
    first = out.splitlines()[0] if out else ""
    return first.split()[-1] if first else "unknown"


@lru_cache(maxsize=8)
def _languages(cmd: str) -> frozenset[str]:
    out = _run_info(cmd, "--list-langs")
    return frozenset(line.strip() for line in out.splitlines()[1:] if line.strip())


def _run_info(cmd: str, flag: str) -> str:
    try:
        proc = subprocess.run([cmd, flag], capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ComponentUnavailable("tesseract", f"cannot run {cmd} {flag}: {exc}", INSTALL_HINT) from exc
    if proc.returncode != 0:
        raise ComponentUnavailable("tesseract", f"{cmd} {flag} exited {proc.returncode}", INSTALL_HINT)
    # Older versions print --version to stderr.
    return (proc.stdout or proc.stderr).decode(errors="replace")
