"""PDFs the reliability tests build with PyMuPDF."""

from __future__ import annotations

from pathlib import Path

import pymupdf

WORDS = ("river stone lantern copper meadow harbor violet ember canyon willow orbit saffron glacier "
         "thimble quarry falcon marble cedar pebble tundra").split()


def write_pdf(path: Path, phrase: str, pages: int = 6) -> None:
    """A text PDF whose every paragraph carries ``phrase`` (so every chunk of it is found by it)."""
    doc = pymupdf.open()
    for p in range(pages):
        page = doc.new_page()
        for para in range(3):
            body = " ".join(WORDS[(p * 7 + para * 3 + i) % len(WORDS)] for i in range(70))
            text = f"Section {p + 1}.{para + 1}. {phrase} {body}."
            page.insert_textbox(pymupdf.Rect(50, 60 + para * 230, 545, 280 + para * 230), text, fontsize=9)
    doc.save(path)
    doc.close()


def draw_ruled_table(page: pymupdf.Page, x: list[float], y0: float, h: float, cells: list[tuple[str, ...]] | list[list[str]],
                     size: float = 11, pad: tuple[float, float] = (6, 15), width: float = 1.0) -> None:
    """A ruled grid: column edges ``x``, rows of height ``h`` from ``y0``, one text per cell (``size``
    points, ``pad`` from the cell's top-left corner), rules ``width`` points wide."""
    for r, row in enumerate(cells):
        for c, value in enumerate(row):
            page.insert_text((x[c] + pad[0], y0 + r * h + pad[1]), value, fontsize=size)
    for r in range(len(cells) + 1):
        page.draw_line((x[0], y0 + r * h), (x[-1], y0 + r * h), width=width)
    for xi in x:
        page.draw_line((xi, y0), (xi, y0 + len(cells) * h), width=width)


def bystander_pdfs(root: Path, names: tuple[str, ...] = ("river-survey", "harbor-log")) -> list[Path]:
    """Two short unrelated documents that a question names nothing of: the index holds more than the
    documents under test, so routing and fusion have something to rank them against."""
    paths = [root / f"{n}.pdf" for n in names]
    for path in paths:
        write_pdf(path, f"The {path.stem.replace('-', ' ')} records what was seen.", pages=2)
    return paths


def line_form(path: Path, title: str, lines: list[str], metadata_title: bool = False, title_size: float = 14) -> Path:
    """A one-page form: ``title`` at the top, then one ``label: value`` line per entry of ``lines`` (the
    title also as the file's title property when ``metadata_title``)."""
    doc = pymupdf.open()
    if metadata_title:
        doc.set_metadata({"title": title})
    page = doc.new_page()
    page.insert_text((72, 60), title, fontsize=title_size)
    for i, line in enumerate(lines):
        page.insert_text((72, 100 + 22 * i), line, fontsize=11)
    doc.save(path)
    doc.close()
    return path


def headed_pages(path: Path, pages: list[str], width: float = 612, height: float = 792, margin: float = 72,
                 title_size: float = 16) -> Path:
    """One page per entry of ``pages``: its first line as the page's heading, the rest as body text
    (``width`` x ``height`` points: a letter page by default, a slide with 360 x 270)."""
    doc = pymupdf.open()
    for text in pages:
        page = doc.new_page(width=width, height=height)
        title, _, body = text.partition("\n")
        page.insert_text((margin, margin + title_size), title, fontsize=title_size)
        page.insert_textbox(pymupdf.Rect(margin, margin + title_size + 20, width - margin, height - margin), body,
                            fontsize=11)
    doc.save(path)
    doc.close()
    return path


def printout_page(doc: pymupdf.Document, lines: list[str], heading: str = "", intro: str = "", outro: str = "",
                  mono: float = 8.5) -> pymupdf.Page:
    """A page of a statistics paper or manual: an optional heading, a paragraph, ``lines`` typed in Courier
    as a program prints them (one line each), and a paragraph after them."""
    page = doc.new_page(width=612, height=792)
    y = 50.0
    if heading:
        page.insert_text((54, y + 10), heading, fontsize=13)
        y += 22
    if intro:
        page.insert_textbox(pymupdf.Rect(54, y, 560, y + 68), intro, fontsize=10)
        y += 78
    for line in lines:
        page.insert_text((54, y), line, fontname="cour", fontsize=mono)
        y += mono + 2.5
    if outro:
        page.insert_textbox(pymupdf.Rect(54, y + 12, 560, y + 80), outro, fontsize=10)
    return page


def printout_pdf(path: Path, *pages: dict) -> Path:
    """A PDF of ``printout_page`` pages, one per dict of its arguments (``lines``, ``heading``, ``intro``, ``outro``)."""
    doc = pymupdf.open()
    for page in pages:
        printout_page(doc, **page)
    doc.save(path)
    doc.close()
    return path


def titled_pdf(path: Path, title: str, pages: list[str], table: tuple[int, str, list[tuple[str, ...]]] | None = None) -> None:
    """A document titled ``title`` (metadata and a heading on page 1): one page of prose per entry of
    ``pages``; ``table`` = (page index, caption, rows) draws a ruled table with its caption below it."""
    doc = pymupdf.open()
    doc.set_metadata({"title": title})
    for i, prose in enumerate(pages):
        p = doc.new_page()
        if i == 0:
            p.insert_text((72, 72), title, fontsize=15)
        p.insert_textbox(pymupdf.Rect(72, 90, 520, 300), prose, fontsize=10)
        if table is not None and i == table[0]:
            draw_ruled_table(p, [72, 230, 380, 500], 320, 22, table[2])
            bottom = 320 + 22 * len(table[2])
            p.insert_textbox(pymupdf.Rect(72, bottom + 8, 520, bottom + 40), table[1], fontsize=9)
    doc.save(path)
    doc.close()


def add_text_field(page: pymupdf.Page, name: str, rect: tuple[float, float, float, float], value: str = "") -> None:
    """A text widget named ``name`` (left unset when ``value`` is empty)."""
    w = pymupdf.Widget()
    w.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
    w.field_name = name
    w.rect = pymupdf.Rect(rect)
    if value:
        w.field_value = value
    page.add_widget(w)


def add_checkbox(page: pymupdf.Page, name: str, x: float, y: float, on: bool) -> None:
    """A 10 pt checkbox whose top-left is (x, y - 9): level with a caption whose baseline is y."""
    w = pymupdf.Widget()
    w.field_type = pymupdf.PDF_WIDGET_TYPE_CHECKBOX
    w.field_name = name
    w.rect = pymupdf.Rect(x, y - 9, x + 10, y + 1)
    w.field_value = on
    page.add_widget(w)


def scanned(src: pymupdf.Document, dpi: int = 200) -> pymupdf.Document:
    """Each page of ``src`` as an image-only page (no text layer), as a scanner leaves it."""
    out = pymupdf.open()
    for page in src:
        png = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY).tobytes("png")
        new = out.new_page(width=page.rect.width, height=page.rect.height)
        new.insert_image(new.rect, stream=png)
    return out
