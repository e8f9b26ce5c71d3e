"""OCR: engine factory, Tesseract on real images, the needs-OCR decision, page and figure OCR, the cache."""

from __future__ import annotations

import importlib.util
import re
import shutil
import statistics
import time
import unicodedata
from pathlib import Path

import pymupdf
import pytest
from pydantic import ValidationError

from pagelens.errors import ComponentUnavailable
from pagelens.ingest.context import PageContext
from pagelens.ingest.ocr_page import needs_ocr, ocr_figures, ocr_page, text_quality
from pagelens.models import Element, ElementKind, FigureData, Provenance
from pagelens.ocr import CachedOcrEngine, create_ocr_engine, ocr_status
from pagelens.ocr.lines import group_runs
from pagelens.ocr.protocol import OcrEngine, OcrLine
from pagelens.settings import IngestSettings, Settings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore

from pdfs import DATA, RASTER_WORDS, SAMPLE, raster_figures_pdf

HAS_TESSERACT = shutil.which("tesseract") is not None
requires_tesseract = pytest.mark.skipif(
    not HAS_TESSERACT, reason="tesseract binary not installed (apt-get install tesseract-ocr tesseract-ocr-eng)"
)


def norm(s: str) -> str:
    """The evaluation's answer normalization (NFKC, dashes, spaces, case)."""
    s = unicodedata.normalize("NFKC", s).replace("\u2212", "-").replace("\u2013", "-")
    return re.sub(r"\s+", " ", s.lower()).strip()


def ctx_for(page: pymupdf.Page, tmp_path: Path, ocr: OcrEngine | None = None, **settings: object) -> PageContext:
    return PageContext.build(
        page, doc_id="d" * 64, file_name="test.pdf", settings=IngestSettings(**settings),
        images=ImageStore(tmp_path / "images"), ocr=ocr,
    )


class CountingEngine:
    """Wraps an engine and counts recognize() calls."""

    def __init__(self, inner: OcrEngine) -> None:
        self.inner = inner
        self.name = inner.name
        self.cache_id = getattr(inner, "cache_id", inner.name)
        self.calls = 0

    def recognize(self, png: bytes) -> list[OcrLine]:
        self.calls += 1
        return self.inner.recognize(png)


@pytest.fixture(scope="module")
def tesseract() -> OcrEngine:
    if not HAS_TESSERACT:
        pytest.skip("tesseract binary not installed (apt-get install tesseract-ocr tesseract-ocr-eng)")
    from pagelens.ocr.tesseract import TesseractOcrEngine

    return TesseractOcrEngine("eng")


LINES = [
    ("Quarterly revenue grew by seventeen percent", (72, 120)),
    ("The harbour crane lifted forty containers", (72, 300)),
]


def image_only_pdf() -> pymupdf.Document:
    """A page with text, rendered to PNG, then placed as the only content of a new page."""
    src = pymupdf.open()
    page = src.new_page(width=595, height=842)
    for text, at in LINES:
        page.insert_text(at, text, fontsize=14, fontname="helv")
    png = page.get_pixmap(dpi=200).tobytes("png")
    out = pymupdf.open()
    out.new_page(width=595, height=842).insert_image(pymupdf.Rect(0, 0, 595, 842), stream=png)
    return out


# -- Tesseract and whole-page OCR ---------------------------------------------------------------------
@requires_tesseract
def test_tesseract_reads_an_image_only_page_with_boxes_in_points(tesseract: OcrEngine, tmp_path: Path) -> None:
    doc = image_only_pdf()
    ctx = ctx_for(doc[0], tmp_path, ocr=tesseract)
    assert ctx.page.get_text().strip() == ""
    assert needs_ocr(ctx)
    els = ocr_page(ctx)
    texts = [norm(e.text) for e in els]
    for line, (x, y) in LINES:
        match = [e for e in els if norm(line) in norm(e.text)]
        assert match, f"{line!r} not in {texts}"
        x0, y0, x1, y1 = match[0].bbox
        # insert_text places the baseline at y; the OCR box must sit around it, in points.
        assert abs(x0 - x) < 6 and y0 < y < y1 + 4 and y1 - y0 < 30
        assert match[0].provenance == Provenance.OCR and match[0].parser == "tesseract"
        assert match[0].attrs["ocr_confidence"] > 0.8


@requires_tesseract
def test_boxes_on_a_rotated_scan_use_unrotated_page_coordinates(tesseract: OcrEngine, tmp_path: Path) -> None:
    """A landscape scan shown upright by /Rotate 90: boxes come back in the frame get_text() uses."""
    src = pymupdf.open()
    upright = src.new_page(width=595, height=842)
    upright.insert_text((72, 120), LINES[0][0], fontsize=14, fontname="helv")
    png = upright.get_pixmap(dpi=150).tobytes("png")
    doc = pymupdf.open()
    page = doc.new_page(width=842, height=595)
    page.insert_image(page.rect, stream=png, rotate=90)
    page.set_rotation(90)
    els = ocr_page(ctx_for(page, tmp_path, ocr=tesseract))
    assert len(els) == 1 and norm(LINES[0][0]) in norm(els[0].text)
    start = pymupdf.Point(72, 120) * page.derotation_matrix  # baseline start, unrotated frame
    x0, y0, x1, y1 = els[0].bbox
    assert x0 - 2 <= start.x <= x1 + 2 and abs(y1 - start.y) < 6 and y1 - y0 > 200  # runs vertically


@requires_tesseract
@pytest.mark.parametrize(
    "pdf, answers",
    [
        ("sp-scan-huckfinn-ch2.pdf", [["they tip-toed along", "they tiptoed along"], ["who dah"], ["ankle"]]),
        ("sp-scan-wikipedia-ocr-printout.pdf", [["fournier d'albe", "fournier d’albe", "fournier d albe"], ["14/09/16"]]),
    ],
)
def test_scanned_pages_yield_the_answers(
    tesseract: OcrEngine, tmp_path: Path, pdf: str, answers: list[list[str]]
) -> None:
    doc = pymupdf.open(DATA / pdf)
    ctx = ctx_for(doc[0], tmp_path, ocr=tesseract)
    assert needs_ocr(ctx)
    els = ocr_page(ctx)
    text = norm(" ".join(e.text for e in els))
    for options in answers:
        assert any(norm(a) in text for a in options), f"none of {options} in OCR text of {pdf}"
    page_rect = doc[0].rect
    assert all(e.bbox is not None and pymupdf.Rect(e.bbox) in page_rect + (-1, -1, 1, 1) for e in els)


# -- the needs-OCR decision ----------------------------------------------------------------------------
@pytest.mark.parametrize("pdf", ["paper", "math", "amt_handbook_sample.pdf", "sample"])
def test_text_layer_pages_do_not_need_ocr(pdf: str, paper: Path, math_paper: Path, tmp_path: Path) -> None:
    doc = pymupdf.open({"paper": paper, "math": math_paper, "sample": SAMPLE}.get(pdf, DATA / pdf))
    timings = []
    for page in doc:
        ctx = ctx_for(page, tmp_path)
        assert not needs_ocr(ctx), f"{pdf} page {page.number + 1}: {text_quality(ctx.text)}"
        runs = []
        for _ in range(3):  # best of three: one-page files would otherwise time one scheduler hiccup
            started = time.perf_counter()
            needs_ocr(ctx)
            runs.append(time.perf_counter() - started)
        timings.append(min(runs))
    assert statistics.median(timings) < 0.002


def test_garbled_redp_page_needs_ocr_and_no_other_page_does(tmp_path: Path) -> None:
    doc = pymupdf.open(DATA / "redp5110_sampled.pdf")
    flagged = [p.number + 1 for p in doc if needs_ocr(ctx_for(p, tmp_path))]
    assert flagged == [3]
    q = text_quality(ctx_for(doc[2], tmp_path).text)
    assert q.is_garbage and q.garbled > 100


def test_unmapped_glyphs_and_blank_pages(tmp_path: Path) -> None:
    doc = pymupdf.open()
    blank = doc.new_page()
    assert not needs_ocr(ctx_for(blank, tmp_path))  # nothing to read: no OCR run
    junk = doc.new_page()
    junk.insert_text((72, 72), "\ufffd" * 30 + " ok", fontsize=11)
    assert needs_ocr(ctx_for(junk, tmp_path))
    fine = doc.new_page()
    fine.insert_text((72, 72), "Größe und Gewicht: 12 kg. Loïc écrit «été». x ∈ X, α ≤ β.", fontsize=11)
    assert not needs_ocr(ctx_for(fine, tmp_path))


# -- figures --------------------------------------------------------------------------------------------
def raster_figures(page: pymupdf.Page, images: ImageStore) -> list[Element]:
    """FIGURE elements for the page's raster images, rendered at 2x like the figure parser does."""
    els = []
    for info in page.get_image_info():
        rect = pymupdf.Rect(info["bbox"])
        pix = page.get_pixmap(matrix=pymupdf.Matrix(2, 2), clip=rect)
        sha = images.put(pix.tobytes("png"))
        els.append(
            Element(
                doc_id="d" * 64, page=page.number + 1, order=len(els), kind=ElementKind.FIGURE, text="Figure",
                bbox=tuple(rect), figure=FigureData(image=sha, width=pix.width, height=pix.height, source="raster"),
            )
        )
    return els


@requires_tesseract
@pytest.mark.parametrize(
    "pdf, pno, expected",
    [
        ("sp-figure-corrosion-inhibitor.pdf", 0, ["control", "current density"]),
        ("built", 0, [w.lower() for w in RASTER_WORDS[0]]),
        ("built", 1, [w.lower() for w in RASTER_WORDS[1]]),
    ],
)
def test_ocr_figures_reads_text_only_in_the_image(
    tesseract: OcrEngine, tmp_path: Path, pdf: str, pno: int, expected: list[str]
) -> None:
    doc = pymupdf.open(stream=raster_figures_pdf(), filetype="pdf") if pdf == "built" else pymupdf.open(DATA / pdf)
    page = doc[pno]
    assert not any(w in norm(page.get_text()) for w in expected)
    ctx = ctx_for(page, tmp_path, ocr=tesseract)
    els = raster_figures(page, ctx.images)
    assert els
    ocr_figures(ctx, els)
    assert not ctx.warnings
    found = norm(" ".join(e.figure.ocr_text or "" for e in els if e.figure))
    searchable = norm(" ".join(e.text for e in els))
    for word in expected:
        assert word in found and word in searchable


# -- cache ----------------------------------------------------------------------------------------------
@requires_tesseract
def test_cache_returns_the_same_lines_without_running_the_engine_again(tesseract: OcrEngine, tmp_path: Path) -> None:
    png = image_only_pdf()[0].get_pixmap(dpi=100).tobytes("png")
    catalog = Catalog(tmp_path / "catalog.db")
    counting = CountingEngine(tesseract)
    cached = CachedOcrEngine(counting, catalog)
    first = cached.recognize(png)
    second = cached.recognize(png)
    assert first and first == second and counting.calls == 1
    # A new wrapper (a later process) reads the catalog, not its memory.
    again = CachedOcrEngine(counting, catalog).recognize(png)
    assert again == first and counting.calls == 1
    # Other languages are a different cache entry.
    other = CountingEngine(tesseract)
    other.cache_id = "tesseract x eng+deu"
    CachedOcrEngine(other, catalog).recognize(png)
    assert other.calls == 1


@requires_tesseract
def test_cache_writes_made_during_the_ingest_transaction_are_kept(tesseract: OcrEngine, tmp_path: Path) -> None:
    png = image_only_pdf()[0].get_pixmap(dpi=100).tobytes("png")
    catalog = Catalog(tmp_path / "catalog.db")
    counting = CountingEngine(tesseract)
    cached = CachedOcrEngine(counting, catalog)
    with catalog.transaction():
        lines = cached.recognize(png)
        assert cached.recognize(png) == lines and counting.calls == 1
    assert catalog.cache_get("ocr", cached.key(png)) is not None  # committed with the transaction
    assert CachedOcrEngine(counting, catalog).recognize(png) == lines and counting.calls == 1


# -- factory and settings -------------------------------------------------------------------------------
@requires_tesseract
def test_factory_picks_tesseract_and_wraps_it_with_a_catalog(tmp_path: Path) -> None:
    warnings: list[str] = []
    engine = create_ocr_engine(IngestSettings(ocr="auto"), warnings.append)
    assert engine is not None and engine.name == "tesseract" and not warnings
    assert isinstance(engine, OcrEngine)
    cached = create_ocr_engine(IngestSettings(ocr="tesseract"), warnings.append, catalog=Catalog(tmp_path / "c.db"))
    assert isinstance(cached, CachedOcrEngine) and cached.name == "tesseract"
    assert create_ocr_engine(IngestSettings(ocr="off"), warnings.append) is None and not warnings


@pytest.mark.skipif(importlib.util.find_spec("easyocr") is not None, reason="easyocr is installed here")
def test_unavailable_named_engine_warns_once_and_returns_none() -> None:
    warnings: list[str] = []
    assert create_ocr_engine(IngestSettings(ocr="easyocr"), warnings.append) is None
    assert len(warnings) == 1 and "pip install 'pagelens[easyocr]'" in warnings[0]
    assert "\n" not in warnings[0]
    with pytest.raises(ComponentUnavailable, match=r"pagelens\[easyocr\]"):
        from pagelens.ocr.easyocr import EasyOcrEngine

        EasyOcrEngine()


@pytest.mark.skipif(
    any(importlib.util.find_spec(m) for m in ("easyocr", "rapidocr_onnxruntime")), reason="an OCR extra is installed"
)
def test_auto_without_any_engine_warns_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no tesseract binary on PATH (and the CLI path asked for)
    warnings: list[str] = []
    assert create_ocr_engine(IngestSettings(ocr="auto", ocr_tesseract="cli"), warnings.append) is None
    assert len(warnings) == 1
    assert "apt-get install tesseract-ocr" in warnings[0] and "pagelens[rapidocr]" in warnings[0]
    rows = {name: (ok, why) for name, ok, why in ocr_status(IngestSettings(ocr_tesseract="cli"))}
    assert set(rows) == {"tesseract", "easyocr", "rapidocr"} and not rows["tesseract"][0]


@requires_tesseract
def test_missing_language_data_names_the_package() -> None:
    from pagelens.ocr.tesseract import TesseractOcrEngine

    with pytest.raises(ComponentUnavailable, match="apt-get install tesseract-ocr-zzz"):
        TesseractOcrEngine("eng+zzz")


def test_settings_reject_an_unknown_engine() -> None:
    with pytest.raises(ValidationError):
        IngestSettings(ocr="abbyy")
    with pytest.raises(ValidationError):
        Settings(ingest={"ocr": "paddle"})


# -- detector-style engines ------------------------------------------------------------------------------
def test_group_runs_builds_lines_and_column_blocks() -> None:
    def quad(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
        return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]

    runs = [  # two columns, given out of order as detectors do
        (quad(520, 100, 700, 120), "right one", 0.9),
        (quad(40, 130, 200, 150), "left two", 0.8),
        (quad(40, 100, 150, 120), "left", 0.9),
        (quad(160, 101, 260, 121), "one", 0.7),
        (quad(520, 130, 690, 150), "right two", 0.9),
    ]
    lines = group_runs(runs)
    assert [ln.text for ln in lines] == ["left one", "left two", "right one", "right two"]
    assert lines[0].block == lines[1].block != lines[2].block == lines[3].block
    assert lines[0].bbox == (40.0, 100.0, 260.0, 121.0) and lines[0].confidence == pytest.approx(0.8)


@pytest.mark.parametrize("vector", [False, True])
def test_vector_chart_labels_drawn_as_glyphs_are_read_only_when_asked(
    vector: bool, tesseract: OcrEngine, math_paper: Path, tmp_path: Path
) -> None:
    """The math paper's p.4 draws its chart legends as paths: no text layer, only OCR can read 'AdaDelta'."""
    from pagelens.ingest.pipeline import Ingestor
    from pagelens.store.images import ImageStore

    page4 = pymupdf.open()
    page4.insert_pdf(pymupdf.open(math_paper), from_page=3, to_page=3)
    assert "AdaDelta" not in page4[0].get_text()
    page4.save(tmp_path / "charts.pdf")
    settings = IngestSettings(ocr="tesseract", ocr_vector_figures=vector)
    catalog = Catalog(tmp_path / "c.db")
    ing = Ingestor(settings, catalog, ImageStore(tmp_path / "img"), tesseract)
    result = ing.ingest_file(tmp_path / "charts.pdf")
    figures = catalog.elements(result.doc_id, kinds=["figure"])
    assert figures and all(f.figure.source == "vector" for f in figures)
    read = " ".join(f.figure.ocr_text or "" for f in figures)
    assert ("AdaDelta" in read) is vector


# -- scans whose own OCR layer is letter-spaced, and scans of small text -------------------------------
SPACED_LINES = ["Crowley Maritime Corp.", "155 Grand Avenue", "Oakland, CA 94612", "Evergreen Marine Corporation",
                "Taipei, Taiwan", "Hamburg Germany"]


def scan_with_layer(layer: list[str], scan: bool = True) -> pymupdf.Document:
    """A page that is one rendered image of ``SPACED_LINES`` (``scan``), with ``layer`` as an invisible text
    layer over it, as a scanner's OCR writes it; without ``scan`` the layer is visible text on a blank page."""
    src = pymupdf.open()
    page = src.new_page(width=612, height=792)
    for i, text in enumerate(SPACED_LINES):
        page.insert_text((72, 100 + 30 * i), text, fontsize=14, fontname="tiro")
    png = page.get_pixmap(dpi=200).tobytes("png")
    out = pymupdf.open()
    new = out.new_page(width=612, height=792)
    if scan:
        new.insert_image(new.rect, stream=png)
    for i, text in enumerate(layer):
        new.insert_text((72, 100 + 30 * i), text, fontsize=14, fontname="cour", render_mode=3 if scan else 0)
    return out


def letter_spaced(text: str) -> str:
    """ "Crowley Maritime" -> "C r o w l e y M a r i t i m e": every letter a word of its own."""
    return " ".join(ch for ch in text if not ch.isspace())


def test_letter_spaced_ocr_layer_of_a_scan_is_read_again(tmp_path: Path) -> None:
    spaced = [letter_spaced(t) for t in SPACED_LINES]
    doc = scan_with_layer(spaced)
    ctx = ctx_for(doc[0], tmp_path)
    assert text_quality(ctx.text).spaced_fraction > 0.8  # the digits are not counted
    assert needs_ocr(ctx)
    # The same scan with a layer of whole words keeps it; so does a born-digital page set letter-spaced.
    assert not needs_ocr(ctx_for(scan_with_layer(SPACED_LINES)[0], tmp_path))
    assert not needs_ocr(ctx_for(scan_with_layer(spaced, scan=False)[0], tmp_path))
    # A few spaced letters ("A B C", initials) in a layer of words are no letter-spaced layer.
    mixed = [*SPACED_LINES, "rows A B C of the list", "J. R. R. Tolkien"]
    assert text_quality(ctx_for(scan_with_layer(mixed)[0], tmp_path).text).spaced_fraction < 0.1


@requires_tesseract
def test_letter_spaced_layer_is_replaced_by_whole_words(tesseract: OcrEngine, tmp_path: Path) -> None:
    doc = scan_with_layer([letter_spaced(t) for t in SPACED_LINES])
    els = ocr_page(ctx_for(doc[0], tmp_path, ocr=tesseract))
    text = norm(" ".join(e.text for e in els))
    for line in ("crowley maritime corp.", "oakland, ca 94612", "evergreen marine corporation"):
        assert line in text, text


SMALL_LINES = [
    "January 27, 1871. Read, referred to the Committee on Commerce, and ordered to be printed.",
    "I transmit herewith, for the consideration of Congress, a report from the Secretary of State.",
    "The Secretary of State has the honor to submit herewith, for revision by Congress, the papers.",
    "A copy of the regulations is also submitted, and the Secretary respectfully suggests a limit.",
]


def small_text_scan(page_width: float) -> pymupdf.Document:
    """A scan of a book page set on a page box ``page_width`` wide: the same image, its text the smaller
    in points the smaller the box."""
    src = pymupdf.open()
    page = src.new_page(width=612, height=400)
    for i, text in enumerate(SMALL_LINES):
        page.insert_text((40, 60 + 24 * i), text, fontsize=10.5, fontname="tiro")
    png = page.get_pixmap(dpi=150).tobytes("png")
    out = pymupdf.open()
    new = out.new_page(width=page_width, height=page_width * 400 / 612)
    new.insert_image(new.rect, stream=png)
    return out


@requires_tesseract
def test_small_text_is_read_again_larger(tesseract: OcrEngine, tmp_path: Path) -> None:
    """Text that renders under SMALL_TEXT_PX at ocr_dpi is read a second time, scaled up; text of an
    ordinary size is read once."""
    from pagelens.ingest import ocr_page as op

    small = CountingEngine(tesseract)
    els = ocr_page(ctx_for(small_text_scan(250)[0], tmp_path, ocr=small))
    assert small.calls == 2
    text = norm(" ".join(e.text for e in els))
    assert "read, referred to the committee on commerce" in text and "consideration of congress" in text
    ordinary = CountingEngine(tesseract)
    ocr_page(ctx_for(small_text_scan(612)[0], tmp_path, ocr=ordinary))
    assert ordinary.calls == 1
    lines = [OcrLine("a line of running text at some height", (0, 0, 500, h), 0.9, 0) for h in (18, 20, 22)]
    assert op.body_line_height(lines) == 20 < op.SMALL_TEXT_PX


@requires_tesseract
def test_a_scans_running_header_is_furniture_like_on_its_text_pages(tesseract: OcrEngine, tmp_path: Path) -> None:
    """Two pages with a text layer and one scan, all headed "Council of Harbour Operators": the header the
    text pages repeat (``furniture.detect_furniture``) is a PAGE_HEADER on the scan too, read with OCR
    errors or not; the body under it stays text."""
    from pagelens.ingest.furniture import detect_furniture

    header, body = "Council of Harbour Operators", "Crowley Maritime Corp. 155 Grand Avenue Oakland"
    doc = pymupdf.open()
    for _ in range(2):
        doc.new_page(width=612, height=792).insert_text((330, 45), header, fontsize=10, fontname="tiro")
    src = pymupdf.open()
    scan = src.new_page(width=612, height=792)
    scan.insert_text((330, 45), header, fontsize=10, fontname="tiro")
    scan.insert_text((72, 300), body, fontsize=14, fontname="tiro")
    png = scan.get_pixmap(dpi=200).tobytes("png")
    page = doc.new_page(width=612, height=792)
    page.insert_image(page.rect, stream=png)
    running = detect_furniture(doc)
    assert "council of harbour operators" in running
    ctx = ctx_for(page, tmp_path, ocr=tesseract)
    ctx.furniture = running
    els = ocr_page(ctx)
    heads = [e for e in els if e.kind == ElementKind.PAGE_HEADER]
    assert len(heads) == 1 and "harbour operators" in norm(heads[0].text)
    assert any("crowley maritime" in norm(e.text) and e.kind == ElementKind.TEXT for e in els)
    ctx.furniture = set()  # a document without running strings: nothing is furniture
    assert all(e.kind != ElementKind.PAGE_HEADER for e in ocr_page(ctx))
