"""Ingest orchestration: file → validated PDF → per-page elements → one catalog transaction.

Per page: OCR decision, tables and figures first (their regions are claimed), form fields, then body
text outside the claimed regions, then reading order and caption links. Document-level passes find
running headers/footers (before the pages) and section paths (across pages).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from pagelens.errors import DocumentError, PageError
from pagelens.ingest import figures, forms, furniture, metadata, order, ocr_page, printed_forms, sections, tables, text
from pagelens.ingest.assemble import finalize_page, page_list, store_document  # noqa: F401  (page_list re-exported)
from pagelens.ingest.context import PageContext
from pagelens.ingest.figure_ocr import FigureOcrQueue
from pagelens.ingest.pdf import open_pdf, read_bytes, sha256
from pagelens.ingest.version import PARSER_VERSION, needs_parse
from pagelens.models import Document, Element, ElementKind, IngestResult
from pagelens.ocr.protocol import OcrEngine
from pagelens.settings import IngestSettings
from pagelens.store.catalog import CatalogStore
from pagelens.store.images import ImageStore

ProgressFn = Callable[[int, int], None]
"""progress(pages_done, pages_total) for the current file."""


@dataclass
class ParsedPage:
    elements: list[Element]
    ocr: bool
    error: str | None = None
    warnings: list[str] = field(default_factory=list)


class Ingestor:
    """Turns PDF files into stored elements. One instance per data home."""

    def __init__(
        self,
        settings: IngestSettings,
        catalog: CatalogStore,
        images: ImageStore,
        ocr: OcrEngine | None = None,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self.settings = settings
        self.catalog = catalog
        self.images = images
        self.ocr = ocr
        self.warn = warn or (lambda message: None)

    # -- public ---------------------------------------------------------------------------------
    def ingest_file(
        self, path: Path, progress: ProgressFn | None = None, index: bool = True, reparse: bool = False
    ) -> IngestResult:
        """Ingest one file. Never raises for bad input: failures come back as status 'failed'.

        ``index`` records, with the document, that its vectors are owed (a pending upsert that the
        coordinator replays until the index confirms it); ``False`` for a parse-only run. Content
        already stored is 'unchanged', unless its parser is older (``reparse_stale``) or ``reparse``
        forces it: then it is parsed again and its elements replaced ('reparsed')."""
        path = Path(path)
        started = time.perf_counter()
        result = IngestResult(doc_id=None, name=path.name, path=str(path.resolve()), status="failed")
        try:
            data = read_bytes(path)
            doc_id = sha256(data)
            result.doc_id = doc_id
            existing = self.catalog.get_document(doc_id)
            if not needs_parse(existing, reparse_stale=self.settings.reparse_stale, force=reparse):
                assert existing is not None
                result.pages = existing.pages
                result.elements = existing.element_counts
                result.ocr_pages = len(existing.ocr_pages)
                result.status = "unchanged"
                return result
            pdf = open_pdf(path, data)
            try:
                doc = self._parse(pdf, path, doc_id, progress, result, index)
            finally:
                pdf.close()
            result.pages = doc.pages
            result.elements = doc.element_counts
            result.ocr_pages = len(doc.ocr_pages)
            result.page_errors = [f"{path.name}: page {p}: {why}" for p, why in sorted(doc.failed_pages.items())]
        except DocumentError as exc:
            result.error = str(exc)
        except Exception as exc:  # a parser bug must not take the whole batch down
            result.error = f"{path.name}: ingest: unexpected {type(exc).__name__}: {exc}"
        finally:
            result.seconds = round(time.perf_counter() - started, 3)
        return result

    # -- internals ------------------------------------------------------------------------------
    def _parse(
        self, pdf: pymupdf.Document, path: Path, doc_id: str, progress: ProgressFn | None, result: IngestResult,
        index: bool = True,
    ) -> Document:
        started = time.perf_counter()
        resolved = str(path.resolve())
        previous = self.catalog.latest_by_path(resolved)
        doc = Document(
            doc_id=doc_id,
            name=path.name,
            path=resolved,
            size=path.stat().st_size,
            pages=pdf.page_count,
            version=(previous.version + 1) if previous else 1,
            parser_version=PARSER_VERSION,
            **metadata.document_metadata(pdf),
        )
        running = furniture.detect_furniture(pdf)
        tracker = sections.SectionTracker(doc.outline)
        counts: dict[str, int] = {}
        prev_tables: list[Element] = []

        # Pages are parsed outside any long catalog transaction: each page's elements are staged in a
        # short one (memory stays flat), OCR results are committed as they are made (a crash late in a
        # long scan keeps the pages already read), and the catalog stays writable for others between
        # pages. The document becomes visible in one short transaction at the end, so a killed parse
        # still leaves nothing half-written (its staged rows are dropped by the next run).
        meta_elements = metadata.metadata_elements(pdf, doc_id, doc)
        self.catalog.discard_staged(doc_id)

        def write(payload: object) -> None:
            els, done = payload  # type: ignore[misc]
            self.catalog.stage_elements(doc_id, els)
            if progress:
                progress(done, pdf.page_count)

        warned: dict[str, list[int]] = {}
        figure_engine = self.ocr if self.settings.ocr_figures else None
        queue = FigureOcrQueue(
            figure_engine, self.catalog, self.images, write, warn=lambda m: self.warn(f"{path.name}: {m}"),
            vector=self.settings.ocr_vector_figures,
        )
        try:
            scanned = self._scanned_run(pdf, doc_id, path.name, running)
            for pno in range(pdf.page_count):
                parsed = scanned.pop(pno, None) or self._parse_page(pdf, pno, doc_id, path.name, running)
                for w in parsed.warnings:
                    warned.setdefault(w, []).append(pno + 1)
                if parsed.error:
                    doc.failed_pages[pno + 1] = parsed.error
                if parsed.ocr:
                    doc.ocr_pages.append(pno + 1)
                els = parsed.elements
                if pno == 0:
                    els = meta_elements + els
                cur_tables = [e for e in els if e.kind == ElementKind.TABLE]
                tables.mark_continuations(prev_tables, cur_tables)
                prev_tables = cur_tables
                tracker.assign(els)
                self._finalize(els, counts)
                queue.add(els, (els, pno + 1))
            queue.finish()
        except BaseException:
            queue.close()
            self.catalog.discard_staged(doc_id)
            raise
        queue.close()
        for message, pages in warned.items():
            self.warn(f"{path.name}: {message} on {page_list(pages)}")
        if doc.failed_pages and len(doc.failed_pages) == pdf.page_count:
            self.catalog.discard_staged(doc_id)
            first = next(iter(doc.failed_pages.values()))
            raise DocumentError(f"every page failed (first: {first})", file=path, stage="parse")
        doc.element_counts = counts
        doc.seconds = round(time.perf_counter() - started, 3)
        with self.catalog.transaction() as conn:
            status = store_document(self.catalog, conn, doc, lambda: self.catalog.commit_staged(conn, doc_id), result, index)
        result.status = status  # once committed
        return doc

    def _scanned_run(self, pdf: pymupdf.Document, doc_id: str, name: str, running: set[str]) -> dict[int, ParsedPage]:
        """A document whose first pages are scans (OCR'd: no usable text layer, so ``detect_furniture`` saw no
        running header) has those pages parsed up front, until the first page with a text layer; band blocks
        that recur on enough of them (``furniture.ocr_running``) become PAGE_HEADER / PAGE_FOOTER there, and
        join ``running`` for the pages parsed later. Each page is still parsed (and OCR'd) once."""
        if self.ocr is None or pdf.page_count < 3:
            return {}
        out: dict[int, ParsedPage] = {}
        for pno in range(pdf.page_count):
            parsed = self._parse_page(pdf, pno, doc_id, name, running)
            out[pno] = parsed
            if not parsed.ocr:
                break
        ocr_pages = [p.elements for p in out.values() if p.ocr]
        if len(ocr_pages) >= 3:
            running |= furniture.mark_ocr_running(ocr_pages)
        return out

    def _parse_page(self, pdf: pymupdf.Document, pno: int, doc_id: str, name: str, running: set[str]) -> ParsedPage:
        try:
            page = pdf.load_page(pno)
            area = abs(page.rect)
            if area <= 0:
                raise PageError("page has an empty media box", file=name, page=pno + 1, stage="parse")
            if area > self.settings.max_page_area:
                raise PageError(
                    f"page is {page.rect.width:.0f}x{page.rect.height:.0f} pt, over the size limit",
                    file=name, page=pno + 1, stage="parse",
                )
            ctx = PageContext.build(
                page, doc_id=doc_id, file_name=name, settings=self.settings, images=self.images,
                ocr=self.ocr, furniture=running, pdf_bytes=getattr(pdf, "stream", None),
            )
            parsed = self._extract(ctx)
            parsed.warnings = ctx.warnings
            return parsed
        except PageError as exc:
            return ParsedPage([], False, exc.reason)
        except Exception as exc:
            return ParsedPage([], False, f"parse failed ({type(exc).__name__}: {str(exc)[:120]})")

    def _extract(self, ctx: PageContext) -> ParsedPage:
        s = self.settings
        if ocr_page.needs_ocr(ctx):
            if ctx.ocr is None:
                ctx.warnings.append("no text layer and no OCR engine to read it (see pagelens doctor)")
                return ParsedPage(figures.extract_figures(ctx), False)
            els = ocr_page.ocr_page(ctx)
            return ParsedPage(els + forms.extract_form_fields(ctx), True)
        ctx.use_layout = s.layout_model == "always" or (s.layout_model == "auto" and tables.is_hard_page(ctx))
        els: list[Element] = []
        if s.tables:
            els += tables.extract_tables(ctx)
        els += printed_forms.extract_printed_fields(ctx)  # before figures: a grid of label boxes is no picture
        els += figures.extract_figures(ctx)
        els += forms.extract_form_fields(ctx)
        els += text.extract_text(ctx)
        els += metadata.page_extras(ctx)
        els = order.reading_order(els, ctx.page.rect)
        order.link_captions(els)
        return ParsedPage(els, False)  # raster figures are OCR'd by the FigureOcrQueue

    _finalize = staticmethod(finalize_page)
