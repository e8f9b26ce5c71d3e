"""OCR in the ingest pipeline: decide which pages need it, read them, and read text inside raster figures.

    needs_ocr(ctx)          the page has no usable text layer (none, too little, or garbage)
    ocr_page(ctx)           render the page, OCR it, one TEXT/HEADING/CAPTION element per OCR paragraph
    ocr_figures(ctx, els)   set ``figure.ocr_text`` on raster figures (charts, maps, screenshots)

The text-quality check (``text_quality``) is cheap: a few regular expressions over the text
the pipeline already extracted, well under 2 ms per page.
"""

from __future__ import annotations

import io
import math
import re
import statistics
from difflib import SequenceMatcher

import pymupdf

from pagelens.errors import PageError, PagelensError
from pagelens.ingest import figure_passes, ocr_block, ocr_numbers, ocr_tables
from pagelens.ingest.context import PageContext
from pagelens.ingest.furniture import BAND, normalize
from pagelens.ingest.text_quality import SPACED_FRACTION, TextQuality, text_quality
from pagelens.models import Element, ElementKind, Provenance
from pagelens.ocr.cache import recognize
from pagelens.ocr.protocol import OcrLine

__all__ = ["TextQuality", "needs_ocr", "ocr_figures", "ocr_page", "text_quality"]

# A page whose readable text is short is a scan when raster images cover this much of it.
SCAN_COVERAGE = 0.3
# A page (almost) entirely covered by one image is a scan even with a stamp or Bates number on it,
# while its text stays under FULL_PAGE_TEXT_FACTOR × min_text_chars.
FULL_PAGE_COVERAGE = 0.85
FULL_PAGE_TEXT_FACTOR = 4
# A page with no text at all but this many vector paths probably has its text drawn as outlines.
OUTLINED_TEXT_PATHS = 200

# OCR lines kept: confident enough, or long enough to be real text next to an illustration.
MIN_LINE_CONFIDENCE = 0.4
SHORT_LINE_CONFIDENCE = 0.75  # lines with ≤ 3 letters/digits need this much (engraving noise: "Y", "ff")

# Pages whose running text reads under SMALL_TEXT_PX high (median line box, at ocr_dpi) are read again,
# scaled so that it is about TARGET_TEXT_PX (at most MAX_TEXT_ZOOM times, within max_render_pixels). Scans
# of ordinary pages at 300 dpi read 34-53 px; a book page scanned onto a small page box 19 px.
SMALL_TEXT_PX = 26
TARGET_TEXT_PX = 34
MAX_TEXT_ZOOM = 2.0

# Figures: skip images smaller than this; upscale small ones so text is ~ 20+ px high for Tesseract.
MIN_FIGURE_SIDE = 40
# Vector figures are read too when the text layer gives them (almost) no labels: charts whose legend
# and axes are drawn as outlined glyphs (adam.pdf's plots) carry their words only in the drawing.
VECTOR_TEXT_ENOUGH = 20
MIN_FIGURE_PIXELS = 12_000
FIGURE_TARGET_SIDE = 1000
FIGURE_MAX_UPSCALE = 3.0
FIGURE_MAX_PIXELS = 6_000_000
# When the upright pass finds a few words among them axis ticks (a chart, not a screenshot or a photo),
# also read text rotated bottom-to-top (y-axis titles) and, when no upright word was read, slanted 45°
# (category labels), keeping only confident words (figure_passes.py says which figures get which passes).
FEW_WORDS = 25
ROTATIONS = (-90, -45)
ROTATED_MIN_CONFIDENCE = 0.7

_CAPTION = re.compile(r"^(fig(ure)?|table|plate|chart|exhibit|photo)\.?\s*[\dIVXivx]+[.:\s]", re.I)
_NUMBERED = re.compile(r"^(\d+(\.\d+)*|[IVX]+\.|[A-Z]\.)\s+\S")
_ALNUM = re.compile(r"[^\W_]")
_LETTERS3 = re.compile(r"[^\W\d_]{3,}")


# -- the decision ---------------------------------------------------------------------------------
def needs_ocr(ctx: PageContext) -> bool:
    """True when the page's text layer cannot be used: missing, too short on a scan, or garbage."""
    min_chars = ctx.settings.min_text_chars
    q = text_quality(ctx.text)
    if q.total >= max(min_chars, 1) and q.is_garbage:
        return True
    if (q.spaced_fraction >= SPACED_FRACTION or q.broken_words) and _image_coverage(ctx.page) >= FULL_PAGE_COVERAGE:
        return True  # a scan whose OCR layer spells its words letter by letter, or breaks them apart
    if q.readable >= FULL_PAGE_TEXT_FACTOR * min_chars:
        return False
    page = ctx.page
    coverage = _image_coverage(page)
    if coverage >= FULL_PAGE_COVERAGE:
        return True
    if q.readable >= min_chars:
        return False
    if coverage >= SCAN_COVERAGE:
        return True
    return q.total == 0 and len(ctx.drawings) >= OUTLINED_TEXT_PATHS


def _image_coverage(page: pymupdf.Page) -> float:
    """Fraction of the page covered by raster images (overlaps counted once, approximately)."""
    frame = pymupdf.Rect(0, 0, page.cropbox.width, page.cropbox.height)  # unrotated, like image bboxes
    area = abs(frame)
    if area <= 0:
        return 0.0
    rects = [pymupdf.Rect(info["bbox"]) & frame for info in page.get_image_info()]
    rects = [r for r in rects if not r.is_empty]
    if not rects:
        return 0.0
    biggest = max(abs(r) for r in rects)
    return min(1.0, max(biggest, min(sum(abs(r) for r in rects), abs(_union(rects)))) / area)


def _union(rects: list[pymupdf.Rect]) -> pymupdf.Rect:
    out = pymupdf.Rect(rects[0])
    for r in rects[1:]:
        out |= r
    return out


# -- whole pages ----------------------------------------------------------------------------------
def ocr_page(ctx: PageContext) -> list[Element]:
    """Render the page at ``ocr_dpi`` (within ``max_render_pixels``), OCR it, one element per paragraph."""
    if ctx.ocr is None:
        return []
    page = ctx.page
    s = ctx.settings
    zoom = s.ocr_dpi / 72.0
    pixels = page.rect.width * zoom * page.rect.height * zoom
    if pixels > s.max_render_pixels:
        zoom *= math.sqrt(s.max_render_pixels / pixels)
    pix, lines = _read_page(ctx, zoom)
    # Text set small (a shrunk scan of a book page: lines under SMALL_TEXT_PX at ocr_dpi) loses words to
    # Tesseract ("Read, referred" and "GRANT" of an 1871 page at 19 px): read it again larger.
    height = body_line_height([ln for ln in lines if keep_line(ln)])
    if 0 < height < SMALL_TEXT_PX:
        larger = zoom * min(MAX_TEXT_ZOOM, TARGET_TEXT_PX / height)
        larger = min(larger, math.sqrt(s.max_render_pixels / (page.rect.width * page.rect.height)))
        if larger > zoom * 1.1:
            pix, lines = _read_page(ctx, larger)
    # Most of the print left unread by the automatic layout (a dense statement of small print): one block.
    lines = ocr_block.reread_as_block(ctx.ocr, lambda: page_png(pix), pix, lines, [ln for ln in lines if keep_line(ln)])
    lines = ocr_numbers.mend_amounts(lines)  # "26, 752,000.00" read from small print: one amount
    # Pixels → unrotated PDF points (the coordinates every other parser reports).
    to_pdf = pymupdf.Matrix(page.rect.width / pix.width, page.rect.height / pix.height) * page.derotation_matrix
    kept = [ln for ln in lines if keep_line(ln)]
    # Tables and form fields read from the words' boxes (``ocr_tables``) take the place of their lines.
    return lines_to_elements(ctx, kept, to_pdf, ocr_tables.structured_elements(ctx, kept, to_pdf, _reader(ctx, pix, to_pdf)))


REREAD_CONFIDENCE = 0.6  # a region read again keeps lines read at least this surely


def _reader(ctx: PageContext, pix: pymupdf.Pixmap, to_pdf: pymupdf.Matrix):
    """Reads the text in a region (PDF points) of the page image ``pix`` again on its own, with the
    rules crossing it (a box's sides) whitened first: ``ocr_tables`` asks it for a form's box whose
    writing the whole-page read lost. Returns the confident text ('' when none)."""
    import numpy as np
    from PIL import Image

    def read(rect: pymupdf.Rect) -> str:
        if ctx.ocr is None or pix.n != 1 or pix.alpha:
            return ""
        r = (pymupdf.Rect(rect) * ~to_pdf).irect & pymupdf.IRect(0, 0, pix.width, pix.height)
        if r.is_empty or r.width < 8 or r.height < 8:
            return ""
        arr = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[r.y0 : r.y1, r.x0 : r.x1].copy()
        _strip_rules(arr, arr.shape[0])  # the box's top and bottom: dark runs longer than the region is high
        _strip_rules(arr.T, int(0.6 * arr.shape[0]))  # its sides
        buf = io.BytesIO()
        Image.fromarray(arr, "L").save(buf, format="PNG", compress_level=0)
        try:
            lines = ctx.ocr.recognize(buf.getvalue())
        except PagelensError:
            return ""
        return " ".join(ln.text for ln in lines if ln.confidence >= REREAD_CONFIDENCE and keep_line(ln)).strip()

    return read


def _strip_rules(arr, min_run: int) -> None:
    """Whiten, row by row of ``arr`` (a gray image, or its transpose), runs of dark pixels at least
    ``min_run`` long: rules, not strokes of letters (a slightly turned rule still runs long on each row)."""
    import numpy as np

    dark = arr < 180  # a rule's grey, anti-aliased edge too
    for i in np.flatnonzero(dark.sum(axis=1) >= min_run):
        edges = np.flatnonzero(np.diff(np.concatenate(([0], dark[i].view(np.int8), [0]))))
        for s, e in zip(edges[::2], edges[1::2]):
            if e - s >= min_run:
                arr[max(i - 1, 0) : i + 2, s:e] = 255  # with the rows either side, its blur


def _read_page(ctx: PageContext, zoom: float) -> tuple[pymupdf.Pixmap, list[OcrLine]]:
    pix = ctx.page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY, alpha=False)
    try:
        return pix, ctx.ocr.recognize(page_png(pix))  # type: ignore[union-attr]
    except PagelensError as exc:
        raise PageError(f"OCR failed: {exc}", file=ctx.file_name, page=ctx.page_no, stage="ocr") from exc


def body_line_height(lines: list[OcrLine]) -> float:
    """Median pixel height of the lines of running text (over 20 characters); 0 when there are none."""
    heights = [ln.bbox[3] - ln.bbox[1] for ln in lines if len(ln.text) > 20]
    return statistics.median(heights) if heights else 0.0


def page_png(pix: pymupdf.Pixmap) -> bytes:
    """A gray page render as the PNG the OCR engine reads, stored without compression: the same
    header chunks (size, depth, the 96 dpi ``pHYs``) and pixels as MuPDF's own PNG, which spends
    ~0.24 CPU-s deflating a 300 dpi page the engine unpacks at once. Any other pixmap: MuPDF's PNG."""
    if pix.n != 1 or pix.alpha or pix.stride != pix.width or (pix.xres, pix.yres) != (96, 96):
        return pix.tobytes("png")
    from PIL import Image

    buf = io.BytesIO()
    Image.frombytes("L", (pix.width, pix.height), pix.samples).save(buf, format="PNG", compress_level=0, dpi=(96, 96))
    return buf.getvalue()


def keep_line(line: OcrLine) -> bool:
    """Drop OCR noise: unconfident lines, and very short lines that are not clearly read."""
    alnum = len(_ALNUM.findall(line.text))
    if alnum == 0 or line.confidence < MIN_LINE_CONFIDENCE:
        return False
    return alnum > 3 or line.confidence >= SHORT_LINE_CONFIDENCE


def lines_to_elements(
    ctx: PageContext, lines: list[OcrLine], to_pdf: pymupdf.Matrix, placed: dict[int, list[Element]] | None = None
) -> list[Element]:
    """One element per OCR block, in the engine's reading order; headings and captions when evident.

    ``placed``: elements made of some of the lines (``ocr_tables.structured_elements``: index of a line in
    ``lines`` → the elements to put where it was read); those lines are no block's text, and a block's lines
    before and after them are elements of their own (an introduction over a table, a note under it)."""
    placed = placed or {}
    blocks: dict[int, list[OcrLine | list[Element]]] = {}
    for i, ln in enumerate(lines):
        if i not in placed:
            blocks.setdefault(ln.block, []).append(ln)
        elif placed[i]:
            blocks.setdefault(ln.block, []).append(placed[i])
    heights = [ln.bbox[3] - ln.bbox[1] for ln in lines if len(ln.text) > 20]
    body_h = statistics.median(heights) if heights else 0.0
    out: list[Element] = []
    for items in blocks.values():
        run: list[OcrLine] = []
        for item in [*items, []]:
            if isinstance(item, OcrLine):
                run.append(item)
                continue
            if run:
                el = _block_element(ctx, run, to_pdf, body_h)
                if el is not None:
                    el.order = len(out)
                    out.append(el)
                run = []
            for el in item:
                el.order = len(out)
                out.append(el)
    return out


def _block_element(ctx: PageContext, blk: list[OcrLine], to_pdf: pymupdf.Matrix, body_h: float) -> Element | None:
    """The TEXT / HEADING / CAPTION / running header or footer element of one OCR block's lines."""
    clip = ctx.page.cropbox  # the unrotated page, whose coordinates elements use
    engine = ctx.ocr.name if ctx.ocr is not None else "ocr"
    text = join_lines([ln.text for ln in blk])
    if not text:
        return None
    px = pymupdf.Rect(
        min(ln.bbox[0] for ln in blk), min(ln.bbox[1] for ln in blk),
        max(ln.bbox[2] for ln in blk), max(ln.bbox[3] for ln in blk),
    )
    rect = (px * to_pdf) & pymupdf.Rect(0, 0, clip.width, clip.height)
    if rect.is_empty:
        return None
    kind, level = classify_block(blk, text, body_h)
    band = running_band(ctx, blk, rect)
    if band is not None:
        kind, level = band, None
    conf = sum(ln.confidence for ln in blk) / len(blk)
    attrs: dict[str, object] = {"ocr_confidence": round(conf, 3)}
    if rect.y1 <= BAND * clip.height:  # where a running header/footer would be (furniture.mark_ocr_running)
        attrs["band"] = "top"
    elif rect.y0 >= (1 - BAND) * clip.height:
        attrs["band"] = "bottom"
    return Element(
        doc_id=ctx.doc_id, page=ctx.page_no, order=0, kind=kind, level=level, text=text,
        bbox=(rect.x0, rect.y0, rect.x1, rect.y1), provenance=Provenance.OCR, parser=engine, attrs=attrs,
    )


RUNNING_SIMILARITY = 0.9
"""An OCR line this similar to a running header/footer of the document's text layer is that string read with an
error or two ("Intemational Council" for "International Council")."""


def running_band(ctx: PageContext, blk: list[OcrLine], rect: pymupdf.Rect) -> ElementKind | None:
    """PAGE_HEADER / PAGE_FOOTER for an OCR block in the top / bottom band (``furniture.BAND``) of which a line
    is one of the document's running strings (``ctx.furniture``, read from the pages with a text layer): a
    scan's running header ("International Council of Containership Operators", "Agreement No. ...") is the
    document's name on every page, not an answer of this one. None otherwise."""
    if not ctx.furniture:
        return None
    h = ctx.page.cropbox.height
    if rect.y1 <= BAND * h:
        kind = ElementKind.PAGE_HEADER
    elif rect.y0 >= (1 - BAND) * h:
        kind = ElementKind.PAGE_FOOTER
    else:
        return None
    for ln in blk:
        norm = normalize(ln.text)
        if len(norm) < 3:
            continue
        if norm in ctx.furniture or any(
            abs(len(f) - len(norm)) <= 0.2 * len(f) and SequenceMatcher(None, norm, f).ratio() >= RUNNING_SIMILARITY
            for f in ctx.furniture
        ):
            return kind
    return None


def join_lines(texts: list[str]) -> str:
    """Join OCR lines into a paragraph, undoing end-of-line hyphenation ("min-" + "utes")."""
    out = ""
    for t in (t.strip() for t in texts):
        if not t:
            continue
        if out.endswith("-") and len(out) > 1 and out[-2].isalpha() and t[0].islower():
            out = out[:-1] + t
        else:
            out = f"{out} {t}" if out else t
    return out


def classify_block(blk: list[OcrLine], text: str, body_h: float) -> tuple[ElementKind, int | None]:
    """CAPTION for 'Figure 3: ...' blocks; HEADING for up to 3 short lines set clearly larger than body text.

    Line heights come from word boxes, so a leading '|' or '«' (OCR of a rule or a bullet) inflates
    them: a heading must start with a letter or digit.
    """
    if _CAPTION.match(text):
        return ElementKind.CAPTION, None
    if (
        len(blk) > 3 or body_h <= 0 or len(text.split()) > 15 or text[-1] in ".,;:"
        or not text[0].isalnum() or not _LETTERS3.search(text)
    ):
        return ElementKind.TEXT, None
    ratio = statistics.median(ln.bbox[3] - ln.bbox[1] for ln in blk) / body_h
    if ratio >= 1.8:
        return ElementKind.HEADING, 1
    if ratio >= 1.3 or (len(blk) == 1 and ratio >= 1.1 and _NUMBERED.match(text)):
        return ElementKind.HEADING, 2
    return ElementKind.TEXT, None


# -- raster figures -------------------------------------------------------------------------------
def ocr_figures(ctx: PageContext, els: list[Element]) -> None:
    """Read the text inside raster figures into ``figure.ocr_text`` and the element's searchable text.

    A failure on one figure is recorded in ``ctx.warnings``; the page keeps its other elements.
    (The pipeline runs the same steps on a worker thread: ``figures_to_read`` → ``read_figure`` →
    ``apply_figure_text``.)
    """
    if ctx.ocr is None:
        return
    for e in figures_to_read(els, vector=ctx.settings.ocr_vector_figures):
        try:
            text = read_figure(ctx.ocr, ctx.images.get(e.figure.image))  # type: ignore[union-attr]
        except (PagelensError, OSError, ValueError) as exc:
            ctx.warnings.append(f"{ctx.file_name}: page {ctx.page_no}: ocr: figure {e.figure.image[:12]}: {exc}")  # type: ignore[union-attr]
            continue
        apply_figure_text(e, text)


def figures_to_read(els: list[Element], vector: bool = False) -> list[Element]:
    """Figures large enough to hold readable text and not read yet: rasters, and vector drawings whose
    labels are not in the text layer."""
    out = []
    for e in els:
        fig = e.figure
        if e.kind != ElementKind.FIGURE or fig is None or fig.ocr_text:
            continue
        if fig.source != "raster" and (not vector or len((fig.inner_text or "").strip()) >= VECTOR_TEXT_ENOUGH):
            continue  # a vector figure whose labels are in the text layer needs no OCR
        if min(fig.width, fig.height) < MIN_FIGURE_SIDE or fig.width * fig.height < MIN_FIGURE_PIXELS:
            continue
        if figure_passes.background_text(e):
            continue  # cover art or a background behind the text layer: its words are there already
        out.append(e)
    return out


def apply_figure_text(e: Element, text: str) -> None:
    if not text or e.figure is None:
        return
    e.figure.ocr_text = text
    e.text = f"{e.text}\n{text}".strip() if e.text else text


def read_figure(engine: object, png: bytes) -> str:
    """Text read from a figure image: an upright sparse-text pass, plus rotated passes for charts."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as src:
        img = src.convert("L")
    if figure_passes.is_blank(img):
        return ""
    scale = min(FIGURE_MAX_UPSCALE, FIGURE_TARGET_SIDE / max(img.size))
    scale = min(scale, math.sqrt(FIGURE_MAX_PIXELS / (img.width * img.height)))
    if scale >= 1.25:
        img = img.resize((round(img.width * scale), round(img.height * scale)), Image.Resampling.LANCZOS)
    lines = [ln for ln in recognize(engine, _png(img), sparse=True) if keep_line(ln)]  # type: ignore[arg-type]
    seen = {ln.text.lower() for ln in lines}
    kept = [ln.text for ln in lines]
    words = sum(len(ln.text.split()) for ln in lines)
    # Some text but little, and axis ticks among it: a chart or a map (figure_passes: only charts gained).
    if 0 < words < FEW_WORDS and figure_passes.looks_like_chart(lines):
        for angle in figure_passes.rotations(lines, ROTATIONS):
            turned = img.rotate(angle, expand=True, fillcolor=255, resample=Image.Resampling.BICUBIC)
            for ln in recognize(engine, _png(turned), sparse=True):  # type: ignore[arg-type]
                if ln.confidence >= ROTATED_MIN_CONFIDENCE and _LETTERS3.search(ln.text) and ln.text.lower() not in seen:
                    seen.add(ln.text.lower())
                    kept.append(ln.text)
    return "\n".join(kept).strip()


def _png(img: object) -> bytes:
    """The image as a PNG for the OCR engine, stored without compression: the engine decodes the same
    pixels, and deflating a page-sized image it unpacks at once cost more than the read itself
    (0.42 of 3.2 CPU-s of figure OCR on the dev corpus)."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=0)  # type: ignore[attr-defined]
    return buf.getvalue()
