"""In-process Tesseract (libtesseract through ctypes) against the CLI, and which figure passes run."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pymupdf
import pytest

from pagelens.errors import ComponentUnavailable, PagelensError
from pagelens.ingest import figure_passes
from pagelens.ingest.context import PageContext
from pagelens.ingest.ocr_page import figures_to_read, ocr_figures, ocr_page, read_figure
from pagelens.ingest.pipeline import Ingestor
from pagelens.models import Element, ElementKind, FigureData
from pagelens.ocr import build_tesseract, ocr_status
from pagelens.ocr.protocol import OcrLine
from pagelens.ocr.tesseract import TesseractOcrEngine
from pagelens.ocr.tesseract_lib import TesseractLibOcrEngine
from pagelens.settings import IngestSettings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore

from ocr_support import NO_LIBRARY, requires_library
from pdfs import RASTER_WORDS, raster_figures_pdf


requires_cli = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract binary not installed")

LINES = ("Quarterly revenue grew by seventeen percent", "The harbour crane lifted forty containers")


@pytest.fixture(scope="module")
def lib() -> TesseractLibOcrEngine:
    if NO_LIBRARY is not None:
        pytest.skip(f"libtesseract not loadable: {NO_LIBRARY}")
    return TesseractLibOcrEngine("eng")


@pytest.fixture(scope="module")
def cli() -> TesseractOcrEngine:
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract binary not installed (apt-get install tesseract-ocr tesseract-ocr-eng)")
    return TesseractOcrEngine("eng")


class Counting:
    """Counts the passes an engine is asked for."""

    def __init__(self, inner: object) -> None:
        self.inner, self.name, self.supports_sparse, self.calls = inner, "tesseract", True, 0

    def recognize(self, png: bytes, *, sparse: bool = False) -> list[OcrLine]:
        self.calls += 1
        return self.inner.recognize(png, sparse=sparse)  # type: ignore[attr-defined]


def scanned_pdf() -> pymupdf.Document:
    """Two lines of text rendered to a 200-dpi image, placed as the page's only content."""
    src = pymupdf.open()
    page = src.new_page(width=595, height=842)
    for i, text in enumerate(LINES):
        page.insert_text((72, 120 + 180 * i), text, fontsize=14, fontname="helv")
    out = pymupdf.open()
    out.new_page(width=595, height=842).insert_image(pymupdf.Rect(0, 0, 595, 842), stream=page.get_pixmap(dpi=200).tobytes("png"))
    return out


def chart_png(ticks: bool = True) -> bytes:
    """A raster bar chart: season labels, a y-axis title written bottom-to-top, numeric ticks if asked."""
    with pymupdf.open() as tmp:
        page = tmp.new_page(width=320, height=220)
        page.draw_rect(page.rect, color=None, fill=(1, 1, 1))
        page.draw_line((60, 20), (60, 180), color=(0, 0, 0))
        page.draw_line((60, 180), (310, 180), color=(0, 0, 0))
        if ticks:
            for i, v in enumerate((0, 20, 40, 60)):
                page.insert_text((30, 184 - i * 50), str(v), fontname="helv", fontsize=11)
        for i, (h, word) in enumerate(((90, "Spring"), (140, "Summer"), (60, "Autumn"))):
            page.draw_rect(pymupdf.Rect(75 + i * 78, 180 - h, 125 + i * 78, 180), color=(0, 0, 0), fill=(0.3, 0.5, 0.8))
            page.insert_text((75 + i * 78, 198), word, fontname="helv", fontsize=11)
        page.insert_text((18, 140), "Rainfall", fontname="helv", fontsize=12, rotate=90)
        return page.get_pixmap(dpi=150).tobytes("png")


def slanted_chart_png() -> bytes:
    """A raster bar chart whose only words are category labels slanted 45° under the x axis."""
    with pymupdf.open() as tmp:
        page = tmp.new_page(width=320, height=240)
        page.draw_rect(page.rect, color=None, fill=(1, 1, 1))
        page.draw_line((60, 20), (60, 160), color=(0, 0, 0))
        page.draw_line((60, 160), (310, 160), color=(0, 0, 0))
        for i, v in enumerate((0, 20, 40, 60)):
            page.insert_text((30, 164 - i * 45), str(v), fontname="helv", fontsize=11)
        for i, (h, word) in enumerate(((90, "Woodlot"), (120, "Roadside"), (60, "Riverside"))):
            page.draw_rect(pymupdf.Rect(75 + i * 78, 160 - h, 125 + i * 78, 160), color=(0, 0, 0), fill=(0.3, 0.5, 0.8))
            at = pymupdf.Point(85 + i * 78, 215)
            page.insert_text(at, word, fontname="helv", fontsize=11, morph=(at, pymupdf.Matrix(45)))
        return page.get_pixmap(dpi=150).tobytes("png")


def ctx_for(page: pymupdf.Page, tmp_path: Path, ocr: object) -> PageContext:
    return PageContext.build(page, doc_id="d" * 64, file_name="test.pdf", settings=IngestSettings(),
                             images=ImageStore(tmp_path / "images"), ocr=ocr)  # type: ignore[arg-type]


def figure(images: ImageStore, png: bytes, inner_text: str = "") -> Element:
    import io

    from PIL import Image

    with Image.open(io.BytesIO(png)) as img:
        w, h = img.size
    fig = FigureData(image=images.put(png), width=w, height=h, source="raster", inner_text=inner_text or None)
    return Element(doc_id="d" * 64, page=1, order=0, kind=ElementKind.FIGURE, text="Figure", bbox=(72, 72, 372, 292), figure=fig)


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


# -- the in-process engine ----------------------------------------------------------------------------
@requires_library
def test_reads_a_scanned_page_with_boxes_in_points(lib: TesseractLibOcrEngine, tmp_path: Path) -> None:
    els = ocr_page(ctx_for(scanned_pdf()[0], tmp_path, lib))
    for i, line in enumerate(LINES):
        match = [e for e in els if line.lower() in e.text.lower()]
        assert match, f"{line!r} not in {[e.text for e in els]}"
        x0, y0, x1, y1 = match[0].bbox  # type: ignore[misc]
        baseline = 120 + 180 * i
        assert abs(x0 - 72) < 6 and y0 < baseline < y1 + 4 and y1 - y0 < 30
        assert match[0].parser == "tesseract" and match[0].attrs["ocr_confidence"] > 0.8


@requires_library
@requires_cli
def test_same_lines_boxes_and_confidences_as_the_cli(lib: TesseractLibOcrEngine, cli: TesseractOcrEngine) -> None:
    page_png = scanned_pdf()[0].get_pixmap(dpi=150, colorspace=pymupdf.csGRAY).tobytes("png")
    doc = pymupdf.open(stream=raster_figures_pdf(), filetype="pdf")
    figure_pngs = [doc[n].get_pixmap(dpi=144, clip=pymupdf.Rect(156, 200, 456, 400)).tobytes("png") for n in (0, 1)]
    for png, sparse in [(page_png, False), *((p, True) for p in figure_pngs), (chart_png(), True)]:
        mine = lib.recognize(png, sparse=sparse)
        assert mine, "nothing read"
        assert mine == cli.recognize(png, sparse=sparse)
    for png, words in zip(figure_pngs, RASTER_WORDS):
        text = read_figure(lib, png)
        assert text == read_figure(cli, png)
        assert all(w.lower() in text.lower() for w in words)
    assert lib.cache_id == cli.cache_id  # same output, so results cached by either stay valid


@requires_library
def test_many_calls_reuse_one_api_and_memory_stays_bounded(tmp_path: Path) -> None:
    engine = TesseractLibOcrEngine("eng")
    png = scanned_pdf()[0].get_pixmap(dpi=120, colorspace=pymupdf.csGRAY).tobytes("png")  # ~1 MB of pixels
    first = engine.recognize(png)
    for _ in range(10):
        engine.recognize(png)
    before = rss_mb()
    for _ in range(80):
        assert engine.recognize(png) == first
    grown = rss_mb() - before
    assert engine.created == 1
    assert grown < 25, f"RSS grew {grown:.0f} MB over 80 calls"  # a leaked image alone would be ~80 MB


@requires_library
def test_threads_get_their_own_api_and_start_no_openmp_threads(lib: TesseractLibOcrEngine) -> None:
    pngs = [chart_png(), chart_png(ticks=False)]
    expected = [lib.recognize(p, sparse=True) for p in pngs]
    tasks = len(os.listdir("/proc/self/task"))
    results: dict[int, list[list[OcrLine]]] = {}

    def run(i: int) -> None:
        results[i] = [lib.recognize(pngs[i], sparse=True) for _ in range(3)]

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == [expected[i]] * 3 for i, r in results.items()) and len(results) == 2
    assert lib.created <= 2
    # Tesseract's LSTM asks OpenMP for 4+ threads, whose pool would stay; the engine holds each call to
    # its one thread. (A joined thread can linger in /proc for a moment while it exits: wait for that.)
    deadline = time.monotonic() + 2.0
    while len(os.listdir("/proc/self/task")) > tasks and time.monotonic() < deadline:
        time.sleep(0.02)
    assert len(os.listdir("/proc/self/task")) == tasks


@requires_library
def test_a_bad_image_is_one_line_naming_file_page_and_stage(lib: TesseractLibOcrEngine, tmp_path: Path) -> None:
    with pytest.raises(PagelensError) as err:
        lib.recognize(b"\x89PNG\r\n\x1a\n truncated")
    assert "\n" not in str(err.value) and "cannot decode" in str(err.value)
    # Through the figure path: a damaged stored image → one warning line, the page keeps its elements.
    ctx = ctx_for(scanned_pdf()[0], tmp_path, lib)
    el = figure(ctx.images, chart_png())
    ctx.images.path(el.figure.image).write_bytes(b"not a png at all")  # type: ignore[union-attr]
    ocr_figures(ctx, [el])
    assert len(ctx.warnings) == 1 and "\n" not in ctx.warnings[0]
    assert ctx.warnings[0].startswith("test.pdf: page 1: ocr: figure") and not el.figure.ocr_text  # type: ignore[union-attr]


def test_auto_falls_back_to_the_cli_when_the_library_does_not_load(monkeypatch: pytest.MonkeyPatch) -> None:
    from pagelens.ocr import tesseract_lib

    monkeypatch.setattr(tesseract_lib, "_LIB", None)
    monkeypatch.setattr(tesseract_lib, "LIBRARY_NAMES", ("libtesseract-not-here.so.99",))
    with pytest.raises(ComponentUnavailable, match="libtesseract"):
        build_tesseract(IngestSettings(ocr_tesseract="library"))
    if shutil.which("tesseract") is None:
        return
    assert isinstance(build_tesseract(IngestSettings()), TesseractOcrEngine)
    row = dict((name, why) for name, _, why in ocr_status(IngestSettings()))["tesseract"]
    assert "CLI at" in row and "libtesseract not used" in row


@requires_library
def test_doctor_says_the_engine_runs_in_process() -> None:
    row = dict((name, why) for name, _, why in ocr_status(IngestSettings()))["tesseract"]
    assert "in-process via" in row and "libtesseract" in row
    assert isinstance(build_tesseract(IngestSettings()), TesseractLibOcrEngine)
    assert "CLI at" in dict((n, w) for n, _, w in ocr_status(IngestSettings(ocr_tesseract="cli")))["tesseract"] or \
        shutil.which("tesseract") is None


# -- which figure passes run --------------------------------------------------------------------------
@requires_library
def test_rotated_passes_run_on_charts_only(lib: TesseractLibOcrEngine) -> None:
    counted = Counting(lib)
    text = read_figure(counted, chart_png())
    # The y-axis title needs the -90° pass; the season labels were read upright, so no slanted pass.
    assert counted.calls == 2 and "Rainfall" in text and "Summer" in text
    counted = Counting(lib)
    text = read_figure(counted, slanted_chart_png())  # upright: only ticks; the categories need the -45° pass
    assert counted.calls == 3 and all(w in text for w in ("Woodlot", "Roadside", "Riverside"))
    counted = Counting(lib)
    text = read_figure(counted, chart_png(ticks=False))  # a few words, no axis ticks: a labelled picture
    assert counted.calls == 1 and "Summer" in text and "Rainfall" not in text


@requires_library
def test_blank_images_and_text_layer_backgrounds_are_not_read(lib: TesseractLibOcrEngine, tmp_path: Path) -> None:
    counted = Counting(lib)
    blank = pymupdf.Pixmap(pymupdf.csGRAY, pymupdf.IRect(0, 0, 400, 300), False)
    blank.set_rect(blank.irect, (250,))
    assert read_figure(counted, blank.tobytes("png")) == "" and counted.calls == 0
    images = ImageStore(tmp_path / "img")
    plain, cover = figure(images, chart_png()), figure(images, chart_png(), inner_text="Implement roles " * 15)
    assert figure_passes.background_text(cover) and not figure_passes.background_text(plain)
    assert figures_to_read([plain, cover]) == [plain]


@requires_library
def test_ingest_reads_the_raster_figures_in_process(lib: TesseractLibOcrEngine, tmp_path: Path) -> None:
    (tmp_path / "raster.pdf").write_bytes(raster_figures_pdf())
    catalog = Catalog(tmp_path / "c.db")
    engine = build_tesseract(IngestSettings())
    assert isinstance(engine, TesseractLibOcrEngine)
    result = Ingestor(IngestSettings(), catalog, ImageStore(tmp_path / "img"), engine).ingest_file(tmp_path / "raster.pdf")
    assert result.status == "indexed", result.error
    figures = catalog.elements(result.doc_id or "", kinds=["figure"])
    read = " ".join(f.figure.ocr_text or "" for f in figures if f.figure).lower()
    assert all(w.lower() in read for words in RASTER_WORDS for w in words)


@requires_library
def test_missing_language_data_names_the_package() -> None:
    # libtesseract's Init succeeds with 'eng' alone when 'zzz' is missing; the engine checks each one.
    with pytest.raises(ComponentUnavailable, match="apt-get install tesseract-ocr-zzz"):
        TesseractLibOcrEngine("eng+zzz")
    with pytest.raises(ComponentUnavailable, match="tesseract-ocr-zzz"):
        build_tesseract(IngestSettings(ocr_languages="zzz"))
