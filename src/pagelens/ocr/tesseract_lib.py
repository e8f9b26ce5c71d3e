"""Tesseract in this process: libtesseract's C API through ctypes, no process per image.

Each ``tesseract`` CLI call costs ~0.1 CPU-s before it reads a pixel (process start, loading
eng.traineddata); the dev corpus makes 36 of them. Here one initialised ``TessBaseAPI`` is kept per
concurrent caller (a small pool: the figure-OCR thread and the page parser each take one) and reused.

The same steps as the CLI's ``tesseract stdin stdout --psm N tsv`` are taken, so the words, lines,
boxes and confidences are the CLI's (checked on the dev corpus by bench/ocr.py): the PNG is decoded by
Leptonica's ``pixReadMem`` (resolution from the PNG, estimated when missing, as the CLI does), then
SetImage → SetPageSegMode → Recognize → GetTsvText, parsed by the CLI engine's ``parse_tsv``.

OpenMP: Tesseract's LSTM asks for 4+ threads (``num_threads`` clauses), which spin and were 2-3x slower
on a shared 2-core machine. ``OMP_THREAD_LIMIT`` cannot be set per call in a process (libgomp reads it
once, and torch shares the same libgomp), so each call sets the calling thread's own ICVs —
``omp_set_dynamic(1)`` + ``omp_set_num_threads(threads)`` bound every region it starts, clauses
included — and restores them afterwards. Nothing else in the process is throttled.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
import weakref
from typing import Any

from pagelens.errors import ComponentUnavailable, PagelensError
from pagelens.ocr.protocol import OcrLine
from pagelens.ocr.tesseract import INSTALL_HINT, PSM_BLOCK, PSM_PAGE, PSM_SPARSE, parse_tsv

LIBRARY_NAMES = ("libtesseract.so.5", "libtesseract.5.dylib", "tesseract")
LEPTONICA_NAMES = ("liblept.so.5", "libleptonica.so.6", "libleptonica.6.dylib", "lept", "leptonica")
L_SEVERITY_NONE = 6  # Leptonica: print no messages (a bad image becomes our one-line error)


class _Lib:
    """The loaded libraries and their typed functions (one per process)."""

    def __init__(self) -> None:
        self.tess = _load(LIBRARY_NAMES, "libtesseract")
        self.lept = _load(LEPTONICA_NAMES, "leptonica")
        t, lp = self.tess, self.lept
        vp, cp = ctypes.c_void_p, ctypes.c_char_p
        _sig(t.TessVersion, cp)
        _sig(t.TessBaseAPICreate, vp)
        _sig(t.TessBaseAPIDelete, None, vp)
        _sig(t.TessBaseAPIInit3, ctypes.c_int, vp, cp, cp)
        _sig(t.TessBaseAPISetVariable, ctypes.c_int, vp, cp, cp)
        _sig(t.TessBaseAPISetPageSegMode, None, vp, ctypes.c_int)
        _sig(t.TessBaseAPISetInputName, None, vp, cp)
        _sig(t.TessBaseAPISetImage2, None, vp, vp)
        _sig(t.TessBaseAPIRecognize, ctypes.c_int, vp, vp)
        _sig(t.TessBaseAPIGetTsvText, ctypes.POINTER(ctypes.c_char), vp, ctypes.c_int)
        _sig(t.TessDeleteText, None, ctypes.POINTER(ctypes.c_char))
        _sig(t.TessBaseAPIClear, None, vp)
        _sig(t.TessBaseAPIEnd, None, vp)
        _sig(t.TessBaseAPIGetLoadedLanguagesAsVector, ctypes.POINTER(ctypes.c_char_p), vp)
        _sig(t.TessDeleteTextArray, None, ctypes.POINTER(ctypes.c_char_p))
        _sig(t.TessMonitorCreate, vp)
        _sig(t.TessMonitorDelete, None, vp)
        _sig(t.TessMonitorSetDeadlineMSecs, None, vp, ctypes.c_int)
        _sig(lp.pixReadMem, vp, ctypes.c_char_p, ctypes.c_size_t)
        _sig(lp.pixDestroy, None, ctypes.POINTER(vp))
        _sig(lp.setMsgSeverity, ctypes.c_int, ctypes.c_int)
        lp.setMsgSeverity(L_SEVERITY_NONE)
        self.version = (t.TessVersion() or b"unknown").decode()
        self.path = _loaded_path(t)
        self.omp = _openmp()


def _load(names: tuple[str, ...], what: str) -> ctypes.CDLL:
    problems = []
    for name in names:
        found = name if "." in name else ctypes.util.find_library(name)
        if not found:
            continue
        try:
            return ctypes.CDLL(found)
        except OSError as exc:
            problems.append(str(exc))
    why = problems[-1] if problems else f"{what} not found"
    raise ComponentUnavailable("tesseract", f"cannot load {what}: {why}", INSTALL_HINT)


def _sig(fn: Any, restype: Any, *argtypes: Any) -> None:
    fn.restype = restype
    fn.argtypes = list(argtypes)


def _loaded_path(lib: ctypes.CDLL) -> str:
    """The file the dynamic linker picked for ``lib`` (for `pagelens doctor`)."""
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            for line in maps:
                if "libtesseract" in line:
                    return line.split()[-1]
    except OSError:
        pass
    return str(lib._name)


class _OpenMp:
    def __init__(self, lib: ctypes.CDLL) -> None:
        self.get_dynamic, self.set_dynamic = lib.omp_get_dynamic, lib.omp_set_dynamic
        self.get_max_threads, self.set_num_threads = lib.omp_get_max_threads, lib.omp_set_num_threads
        for fn in (self.get_dynamic, self.get_max_threads):
            _sig(fn, ctypes.c_int)
        for fn in (self.set_dynamic, self.set_num_threads):
            _sig(fn, None, ctypes.c_int)


def _openmp() -> _OpenMp | None:
    """The OpenMP runtime libtesseract was linked with (already loaded with it), if any."""
    for name in ("libgomp.so.1", "libomp.so", "libomp.dylib"):
        try:
            return _OpenMp(ctypes.CDLL(name, mode=os.RTLD_NOLOAD | os.RTLD_LAZY))
        except (OSError, AttributeError):
            continue
    return None


_LIB: _Lib | None = None
_LIB_LOCK = threading.Lock()


def load_library() -> _Lib:
    """Load libtesseract + Leptonica once per process; ComponentUnavailable when they are not there."""
    global _LIB
    with _LIB_LOCK:
        if _LIB is None:
            try:
                _LIB = _Lib()
            except AttributeError as exc:  # a libtesseract without the C API functions used here
                raise ComponentUnavailable("tesseract", f"libtesseract lacks {exc}", INSTALL_HINT) from exc
        return _LIB


class TesseractLibOcrEngine:
    """Tesseract 5 in-process through its C API; the same contract and output as ``TesseractOcrEngine``."""

    name = "tesseract"
    supports_sparse = True
    supports_block = True
    mode = "library"

    def __init__(
        self, languages: str = "eng", *, threads: int = 1, timeout_s: float = 300.0,
        variables: dict[str, str] | None = None,
    ) -> None:
        self.lib = load_library()
        self.languages = languages
        # Tesseract parameters set on every API after Init (e.g. {"tessedit_do_invert": "0"}); the
        # defaults read the most words (bench/ocr_knobs.py measured the candidates on the dev corpus).
        self.variables = dict(sorted((variables or {}).items()))
        self.threads = threads
        self.timeout_s = timeout_s
        self.version = self.lib.version
        wanted = [lang for lang in languages.split("+") if lang]
        if not wanted:
            raise ComponentUnavailable("tesseract", f"no OCR language in {languages!r}", "set ingest.ocr_languages, e.g. 'eng'")
        self._idle: list[int] = []
        self._lock = threading.Lock()
        self.created = 0
        first = self._new_handle(wanted)  # fails here, not at the first page, when data is missing
        self._idle.append(first)
        # Same identity as the CLI engine: the output is the same, so cached results stay valid.
        self.cache_id = f"tesseract {self.version} {languages}"
        if self.variables:  # other parameters, other output: results cached without them do not apply
            self.cache_id += " " + " ".join(f"{k}={v}" for k, v in self.variables.items())
        weakref.finalize(self, _end_all, self.lib, self._idle)

    @property
    def location(self) -> str:
        return self.lib.path

    def recognize(self, png: bytes, *, sparse: bool = False, block: bool = False) -> list[OcrLine]:
        """Lines in Tesseract's reading order; ``block`` numbers paragraphs across the image."""
        t = self.lib.tess
        pix = ctypes.c_void_p(self.lib.lept.pixReadMem(png, len(png)))
        if not pix.value:
            raise PagelensError(f"tesseract: cannot decode the image ({len(png)} bytes, not a PNG/JPEG/TIFF it reads)")
        omp = self.lib.omp
        saved = (omp.get_dynamic(), omp.get_max_threads()) if omp is not None else None
        handle = monitor = None
        try:
            if omp is not None:  # before Init too: a new API for a new thread loads its models here
                omp.set_dynamic(1)
                omp.set_num_threads(self.threads)
            handle = self._acquire()
            monitor = t.TessMonitorCreate()
            t.TessMonitorSetDeadlineMSecs(monitor, int(self.timeout_s * 1000))
            t.TessBaseAPISetInputName(handle, b"stdin")
            t.TessBaseAPISetImage2(handle, pix)
            t.TessBaseAPISetPageSegMode(handle, PSM_SPARSE if sparse else PSM_BLOCK if block else PSM_PAGE)
            if t.TessBaseAPIRecognize(handle, monitor) != 0:
                raise PagelensError(f"tesseract: recognition failed or took over {self.timeout_s:.0f} s on one image")
            raw = t.TessBaseAPIGetTsvText(handle, 0)
            if not raw:
                raise PagelensError("tesseract: no result for one image")
            try:
                tsv = ctypes.string_at(raw).decode("utf-8", errors="replace")
            finally:
                t.TessDeleteText(raw)
        finally:
            if monitor:
                t.TessMonitorDelete(monitor)
            self.lib.lept.pixDestroy(ctypes.byref(pix))
            if handle is not None:
                t.TessBaseAPIClear(handle)
                self._release(handle)
            if saved is not None:
                omp.set_dynamic(saved[0])  # type: ignore[union-attr]
                omp.set_num_threads(saved[1])  # type: ignore[union-attr]
        return parse_tsv("level\n" + tsv)  # GetTsvText has no header row; parse_tsv skips one

    # -- the pool of initialised APIs ----------------------------------------------------------------
    def _new_handle(self, wanted: list[str] | None = None) -> int:
        t = self.lib.tess
        handle = t.TessBaseAPICreate()
        if not handle:
            raise ComponentUnavailable("tesseract", "TessBaseAPICreate failed", INSTALL_HINT)
        t.TessBaseAPISetVariable(handle, b"debug_file", b"/dev/null")  # no "Estimating resolution" chatter
        wanted = wanted or [lang for lang in self.languages.split("+") if lang]
        ok = t.TessBaseAPIInit3(handle, None, self.languages.encode()) == 0
        # Init succeeds with only some of 'eng+deu' loaded (it skips the missing ones): check them all.
        missing = [lang for lang in wanted if lang not in self._loaded(handle)] if ok else wanted
        if missing:
            t.TessBaseAPIEnd(handle)
            t.TessBaseAPIDelete(handle)
            pkgs = " ".join(f"tesseract-ocr-{m.replace('_', '-').lower()}" for m in missing)
            raise ComponentUnavailable("tesseract", f"language data missing for {'+'.join(missing)}", f"apt-get install {pkgs}")
        for key, value in self.variables.items():
            if t.TessBaseAPISetVariable(handle, key.encode(), str(value).encode()) != 1:
                t.TessBaseAPIEnd(handle)
                t.TessBaseAPIDelete(handle)
                raise PagelensError(f"tesseract: unknown parameter or bad value {key}={value!r}")
        self.created += 1
        return int(handle)

    def _loaded(self, handle: int) -> set[str]:
        t = self.lib.tess
        arr = t.TessBaseAPIGetLoadedLanguagesAsVector(handle)
        out: set[str] = set()
        if arr:
            i = 0
            while arr[i] is not None:
                out.add(arr[i].decode())
                i += 1
            t.TessDeleteTextArray(arr)
        return out

    def _acquire(self) -> int:
        with self._lock:
            if self._idle:
                return self._idle.pop()
        return self._new_handle()

    def _release(self, handle: int) -> None:
        with self._lock:
            self._idle.append(handle)


def _end_all(lib: _Lib, handles: list[int]) -> None:
    while handles:
        h = handles.pop()
        lib.tess.TessBaseAPIEnd(h)
        lib.tess.TessBaseAPIDelete(h)
