"""Tables and form fields on scanned pages, read from the OCR words' boxes (``ingest.ocr_tables``), and
the word boxes kept by the Tesseract engines and the OCR cache (``OcrLine.words``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pymupdf
import pytest

from pagelens.ingest.context import PageContext
from pagelens.ingest.ocr_page import ocr_page
from pagelens.ingest.ocr_forms import form_fields
from pagelens.ingest.ocr_rows import clean_words, ocr_rows
from pagelens.ingest.ocr_tables import text_tables
from pagelens.models import ElementKind, Provenance
from pagelens.ocr.cache import CachedOcrEngine
from pagelens.ocr.protocol import OcrLine, OcrWord
from pagelens.ocr.tesseract import parse_tsv
from pagelens.settings import IngestSettings
from pagelens.store.images import ImageStore

from pdf_support import scanned

requires_tesseract = pytest.mark.skipif(
    shutil.which("tesseract") is None, reason="tesseract binary not installed (apt-get install tesseract-ocr)"
)

DONORS = [
    ("Donor", "Address", "Amount"),
    ("Mrs. Edith Throssell", "Upper Weald Farm", "25.00"),
    ("Mr. Kenneth Barraclough", "The Old Forge", "40.00"),
    ("Capt. Henry Rudge", "Haswell Grange", "150.00"),
    ("Miss Patience Oddie", "Church Cottages", "5.50"),
    ("The Women's Institute", "Haswell Branch", "62.75"),
    ("Dr. Alan Fairbairn", "The Surgery, Main Street", "75.00"),
]

PROSE = (
    "The committee met on the first Tuesday of the month in the reading room. The treasurer reported that "
    "the roof repairs had been quoted at twelve hundred pounds and that the fund stood at a little over half "
    "of that sum. It was agreed that a further appeal be made at the harvest supper and that the vicar be "
    "asked to mention the matter from the pulpit. The secretary read letters of apology from two members "
    "and a note of thanks from the Women's Institute for the use of the hall during the winter months."
)


# -- building scans ---------------------------------------------------------------------------------
def donations_page(specks: bool = True) -> pymupdf.Document:
    """A title, a table of names, addresses and amounts set without rules (one column of values only), a
    paragraph under it; with ``specks``, dirt between the columns."""
    doc = pymupdf.open()
    p = doc.new_page(width=595, height=842)
    p.insert_text((150, 70), "VILLAGE HALL RESTORATION APPEAL", fontsize=13, fontname="tibo")
    y = 130.0
    for i, (name, addr, amt) in enumerate(DONORS):
        font = "tibo" if i == 0 else "tiro"
        p.insert_text((70, y), name, fontsize=10.5, fontname=font)
        p.insert_text((290, y), addr, fontsize=10.5, fontname=font)
        w = pymupdf.get_text_length(amt, fontname=font, fontsize=10.5)
        p.insert_text((520 - w, y), amt, fontsize=10.5, fontname=font)
        if specks and i % 2:
            p.draw_circle((245, y - 3), 0.9, color=None, fill=(0, 0, 0))
            p.draw_circle((430, y - 6), 0.7, color=None, fill=(0, 0, 0))
        y += 20 if i == 0 else 17
    y += 30
    line = ""
    for word in PROSE.split():
        if pymupdf.get_text_length(f"{line} {word}", fontname="tiro", fontsize=10) > 450:
            p.insert_text((70, y), line, fontsize=10, fontname="tiro")
            y, line = y + 13, word
        else:
            line = f"{line} {word}".strip()
    p.insert_text((70, y), line, fontsize=10, fontname="tiro")
    return doc


def form_page() -> pymupdf.Document:
    """A paper form: small printed labels over boxes, the values written in them in a larger hand."""
    doc = pymupdf.open()
    p = doc.new_page(width=595, height=842)
    p.insert_text((150, 60), "APPLICATION FOR A FISHING PERMIT", fontsize=13, fontname="hebo")

    def box(label: str, y: float, value: str, x: float = 60, w: float = 220) -> None:
        p.insert_text((x, y), label, fontsize=8, fontname="helv")
        p.draw_rect(pymupdf.Rect(x, y + 4, x + w, y + 26), color=(0, 0, 0), width=0.7)
        if value:
            p.insert_text((x + 8, y + 20), value, fontsize=13, fontname="tiit", color=(0.1, 0.15, 0.55))

    box("1. Surname", 130, "DEVLIN")
    box("2. Forenames", 130, "Patrick Joseph", x=300, w=235)
    box("3. Date of birth", 175, "03/07/1961")
    box("4. Telephone", 175, "", x=300, w=235)
    box("5. Address", 220, "7 Rockview Terrace, Boyle", w=475)
    p.insert_text((60, 300), "Permit issued no.", fontsize=8, fontname="helv")
    p.insert_text((140, 302), "3068", fontsize=13, fontname="tiit", color=(0.1, 0.15, 0.55))
    p.insert_text((300, 300), "Checked by", fontsize=8, fontname="helv")
    return doc


def columns_page() -> pymupdf.Document:
    """Running text in two columns, with short lines (a paragraph's last line) side by side."""
    doc = pymupdf.open()
    p = doc.new_page(width=595, height=842)
    for x in (60, 320):
        y = 90.0
        for _ in range(2):
            line = ""
            for word in PROSE.split():
                if pymupdf.get_text_length(f"{line} {word}", fontname="tiro", fontsize=9.5) > 215:
                    p.insert_text((x, y), line, fontsize=9.5, fontname="tiro")
                    y, line = y + 12, word
                else:
                    line = f"{line} {word}".strip()
            p.insert_text((x, y), line, fontsize=9.5, fontname="tiro")
            y += 24
    return doc


def read(doc: pymupdf.Document, tmp_path: Path, text_tables: bool = True):
    from pagelens.ocr.tesseract import TesseractOcrEngine

    ctx = PageContext.build(
        doc[0], doc_id="d" * 64, file_name="scan.pdf",
        settings=IngestSettings(ocr="tesseract", ocr_text_tables=text_tables),
        images=ImageStore(tmp_path / "images"), ocr=TesseractOcrEngine(),
    )
    return ocr_page(ctx)


# -- the engine and the cache keep word boxes --------------------------------------------------------
TSV = "\n".join([
    "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
    "5\t1\t1\t1\t1\t1\t100\t50\t80\t30\t96.5\tDonor",
    "5\t1\t1\t1\t1\t2\t600\t52\t120\t30\t95.0\tAddress",
    "5\t1\t1\t1\t1\t3\t700\t52\t3\t3\t12.0\t:",
    "5\t1\t1\t1\t2\t1\t100\t100\t60\t30\t-1\tMrs.",
])


def test_parse_tsv_keeps_each_words_box_and_confidence() -> None:
    lines = parse_tsv(TSV)
    assert [ln.text for ln in lines] == ["Donor Address :", "Mrs."]
    assert lines[0].words[1] == OcrWord("Address", (600.0, 52.0, 720.0, 82.0), 0.95)
    assert [w.text for w in lines[0].words] == ["Donor", "Address", ":"]
    assert lines[1].words[0].confidence == 0.0  # Tesseract's -1: no confidence


class _Catalog:
    def __init__(self) -> None:
        self.store: dict[tuple[str, str], object] = {}

    def cache_get(self, ns: str, key: str) -> object:
        return self.store.get((ns, key))

    def cache_put(self, ns: str, key: str, value: object) -> None:
        self.store[(ns, key)] = value


class _Engine:
    name = "fake"
    cache_id = "fake 1"

    def __init__(self) -> None:
        self.calls = 0

    def recognize(self, png: bytes) -> list[OcrLine]:
        self.calls += 1
        return parse_tsv(TSV)


def test_the_ocr_cache_keeps_words_and_reads_again_an_entry_stored_without_them() -> None:
    catalog, engine = _Catalog(), _Engine()
    cached = CachedOcrEngine(engine, catalog)
    first = cached.recognize(b"png")
    again = cached.recognize(b"png")
    assert engine.calls == 1 and again == first and again[0].words[1].bbox == (600.0, 52.0, 720.0, 82.0)
    # An entry written before words were kept (four fields a line) is read again, then stored with them.
    key = cached.key(b"old")
    catalog.cache_put("ocr", key, [["Donor Address", [100, 50, 720, 82], 0.95, 0]])
    lines = cached.recognize(b"old")
    assert engine.calls == 2 and lines[0].words
    assert all(len(row) == 5 for row in catalog.cache_get("ocr", key))


# -- speckle -------------------------------------------------------------------------------------------
def test_speckle_between_columns_is_no_word() -> None:
    def w(x0: float, x1: float, text: str, h: float = 10.0) -> tuple:
        return (x0, 100.0, x1, 100.0 + h, text, 0, 0, 0)

    words = [w(70, 90, "Mrs."), w(94, 150, "Throssell"), w(200, 212, "Saat"), w(240, 241, ":", 1),
             w(290, 320, "Upper"), w(324, 360, "Weald"), w(400, 402, "3", 4), w(480, 510, "25.00"),
             w(60, 62, "E", 30)]
    confs = [0.93, 0.9, 0.28, 0.16, 0.96, 0.96, 0.36, 0.96, 0.84]
    kept, _ = clean_words(words, confs)
    assert [k[4] for k in kept] == ["Mrs.", "Throssell", "Upper", "Weald", "25.00"]
    # A short word read surely, or one set close to its neighbour, stays ("2 Church Cottages").
    kept, _ = clean_words([w(280, 286, "2"), w(289, 330, "Church"), w(400, 440, "Yes")], [0.43, 0.94, 0.95])
    assert [k[4] for k in kept] == ["2", "Church", "Yes"]


def _line(words: list[tuple[float, float, str]], y: float, h: float = 30.0) -> OcrLine:
    boxes = tuple(OcrWord(t, (x0, y, x1, y + h), 0.95) for x0, x1, t in words)
    return OcrLine(" ".join(t for _, _, t in words), (words[0][0], y, words[-1][1], y + h), 0.95, 0, boxes)


def test_running_text_and_a_short_list_are_no_text_table() -> None:
    prose = [_line([(100, 1900, "the treasurer reported that the roof repairs had been quoted at a sum")], 100 + 45 * i)
             for i in range(6)]
    rows = ocr_rows(prose, pymupdf.Matrix(1, 1))
    assert text_tables(rows) == []
    # Two lines in columns are too few rows for a table.
    pair = [_line([(100, 300, "Donor"), (900, 1100, "Address")], 100), _line([(100, 300, "Smith"), (900, 1100, "Farm")], 145)]
    assert text_tables(ocr_rows(pair, pymupdf.Matrix(1, 1))) == []
    assert form_fields(ocr_rows(pair, pymupdf.Matrix(1, 1))) == []


# -- scanned pages ---------------------------------------------------------------------------------------
@requires_tesseract
def test_a_scanned_table_without_rules_is_a_table_with_its_header_and_rows(tmp_path: Path) -> None:
    els = read(scanned(donations_page()), tmp_path)
    tables = [e for e in els if e.kind == ElementKind.TABLE]
    assert len(tables) == 1
    t = tables[0]
    assert t.provenance == Provenance.OCR and t.table is not None
    assert t.table.header == ["Donor", "Address", "Amount"]
    rows = {r[0]: r[1:] for r in t.table.rows}
    assert rows["Capt. Henry Rudge"] == ["Haswell Grange", "150.00"]
    assert rows["Miss Patience Oddie"] == ["Church Cottages", "5.50"]
    assert any("Capt. Henry Rudge" in r and "150.00" in r for r in t.table.records)
    assert "| Capt. Henry Rudge | Haswell Grange | 150.00 |" in t.table.markdown
    # The title and the paragraph stay text, each once, in reading order around the table.
    texts = [e for e in els if e.kind != ElementKind.TABLE]
    assert not any("Rudge" in e.text for e in texts)
    assert any("twelve hundred pounds" in e.text for e in texts)
    kinds = [e.kind for e in els]
    assert kinds.index(ElementKind.TABLE) == 1 and [e.order for e in els] == list(range(len(els)))


@requires_tesseract
def test_text_tables_are_read_only_when_asked(tmp_path: Path) -> None:
    els = read(scanned(donations_page()), tmp_path, text_tables=False)
    assert not [e for e in els if e.kind == ElementKind.TABLE]
    assert any("Rudge" in e.text for e in els) and any("150.00" in e.text for e in els)  # the rows stay text


@requires_tesseract
def test_a_scanned_form_reads_labels_with_the_values_written_under_or_after_them(tmp_path: Path) -> None:
    els = read(scanned(form_page()), tmp_path)
    fields = {e.field.label: e.field.value for e in els if e.kind == ElementKind.FORM and e.field is not None}
    assert fields["1. Surname"] == "DEVLIN"
    assert fields["2. Forenames"] == "Patrick Joseph"
    assert fields["3. Date of birth"] == "03/07/1961"
    assert fields["4. Telephone"] == ""  # a blank box: an empty field
    assert "Rockview Terrace" in fields["5. Address"]
    assert fields["Permit issued no."] == "3068"
    assert fields["Checked by"] == ""
    assert any(e.text == "1. Surname: DEVLIN" for e in els)
    assert not any(e.kind == ElementKind.TABLE for e in els)


@requires_tesseract
def test_scanned_running_text_in_columns_is_no_table_and_no_form(tmp_path: Path) -> None:
    els = read(scanned(columns_page()), tmp_path)
    assert els and all(e.kind not in (ElementKind.TABLE, ElementKind.FORM) for e in els)
    assert any("harvest supper" in e.text for e in els)


def test_a_born_digital_table_page_does_not_go_through_ocr(tmp_path: Path) -> None:
    """The same table with a text layer is read by the text-layer parsers, as before (no OCR words)."""
    from pagelens.ingest.ocr_page import needs_ocr

    doc = donations_page(specks=False)
    ctx = PageContext.build(doc[0], doc_id="d" * 64, file_name="t.pdf", settings=IngestSettings(ocr="tesseract"),
                            images=ImageStore(tmp_path / "images"), ocr=None)
    assert not needs_ocr(ctx)


def test_a_forms_label_line_with_room_under_it_is_read_again_there() -> None:
    """On a page that is a form, a line of labels with nothing read under it (the box's writing lost by the
    whole-page read) has each label's column read again on its own."""
    lines = [
        _line([(100, 300, "1. Surname"), (900, 1150, "2. Forenames")], 100, 25),
        _line([(110, 330, "DEVLIN"), (910, 1200, "Patrick Joseph")], 130, 40),
        _line([(100, 330, "3. Date of birth"), (900, 1150, "4. Telephone")], 200, 25),
        _line([(110, 330, "03/07/1961")], 230, 40),
        _line([(100, 330, "7. Boat number"), (900, 1150, "8. Fee paid")], 300, 25),
        _line([(100, 330, "9. Previous permit")], 420, 25),
        _line([(110, 330, "LA-2291")], 450, 40),
    ]
    asked: list[pymupdf.Rect] = []

    def reread(box: pymupdf.Rect) -> str:
        asked.append(box)
        return "| B-17" if box.x0 < 500 else "45"

    rows = ocr_rows(lines, pymupdf.Matrix(1, 1))
    fields = {f.label: f.value for f in form_fields(rows, reread, 1400)}
    assert fields["7. Boat number"] == "B-17" and fields["8. Fee paid"] == "45"
    assert fields["1. Surname"] == "DEVLIN" and fields["9. Previous permit"] == "LA-2291"
    # Only the line with room under it was read again: the region between it and the next line, one per label.
    assert len(asked) == 2 and all(325 <= b.y0 and b.y1 <= 420 for b in asked)
    assert asked[0].x1 < 900 <= asked[1].x0 + 20 and asked[1].x1 == 1400
    # Without enough fields the page is no form, and nothing is read again.
    asked.clear()
    assert form_fields(rows[4:], reread, 1400) == [] and asked == []


def test_rules_are_whitened_and_letters_kept() -> None:
    import numpy as np

    from pagelens.ingest.ocr_page import _strip_rules

    arr = np.full((120, 600), 235, dtype=np.uint8)
    arr[100:103, 10:590] = 40  # a box's bottom rule
    arr[5:115, 4:7] = 60  # its left side
    arr[30:70, 50:56] = 30  # a letter's stem
    arr[30:34, 50:80] = 30  # and its bar
    _strip_rules(arr, arr.shape[0])
    _strip_rules(arr.T, int(0.6 * arr.shape[0]))
    assert (arr[99:104, 10:590] == 255).all() and (arr[5:115, 4:7] == 255).all()
    assert (arr[30:70, 50:56] == 30).all() and (arr[30:34, 50:80] == 30).all()


@requires_tesseract
def test_a_scanned_statement_of_values_in_columns_is_a_table(tmp_path: Path) -> None:
    """Rows of amounts under a band of years (what the whitespace finder reads on born-digital pages)."""
    doc = pymupdf.open()
    p = doc.new_page(width=595, height=842)
    p.insert_text((70, 80), "Statement of income for the year", fontsize=12, fontname="tibo")
    rows = [("", "1991", "1992"), ("Subscriptions", "1,204", "1,388"), ("Rents received", "640", "655"),
            ("Grants", "2,500", "1,750"), ("Interest", "88", "102"), ("Total income", "4,432", "3,895")]
    y = 130.0
    for label, a, b in rows:
        p.insert_text((70, y), label, fontsize=10.5, fontname="tiro")
        for x, v in ((400, a), (500, b)):
            p.insert_text((x - pymupdf.get_text_length(v, fontname="tiro", fontsize=10.5), y), v, fontsize=10.5, fontname="tiro")
        y += 17
    tables = [e for e in read(scanned(doc), tmp_path) if e.kind == ElementKind.TABLE]
    assert len(tables) == 1 and tables[0].table is not None
    assert tables[0].table.header[1:] == ["1991", "1992"]
    assert ["Grants", "2,500", "1,750"] in tables[0].table.rows
    assert "Subscriptions — 1991: 1,204; 1992: 1,388" in tables[0].table.records


def test_a_text_tables_wrapped_cells_join_their_row_and_a_stray_column_is_no_table() -> None:
    def rows_of(spec: list[tuple[float, list[tuple[float, float, str]]]]):
        return ocr_rows([_line(cells, y) for y, cells in spec], pymupdf.Matrix(1, 1))

    name, addr, amt = (100, 500), (900, 1300), (1800, 1950)
    table = rows_of([
        (100, [(*name, "Donor"), (*addr, "Address"), (*amt, "Amount")]),
        (170, [(*name, "Mrs. Throssell"), (*addr, "Upper Weald"), (*amt, "25.00")]),
        (205, [(*addr, "Farm")]),  # the address wrapped onto a second line, set closer than rows are
        (270, [(*name, "Capt. Rudge"), (*addr, "Haswell Grange"), (*amt, "150.00")]),
        (340, [(*name, "Miss Oddie"), (*addr, "Church Cottages"), (*amt, "5.50")]),
        (410, [(*name, "Dr. Fairbairn"), (*addr, "The Surgery"), (*amt, "75.00")]),
    ])
    (found,) = text_tables(table)
    assert found.found.header == ["Donor", "Address", "Amount"]
    assert found.found.rows[0] == ["Mrs. Throssell", "Upper Weald Farm", "25.00"] and len(found.found.rows) == 4
    # A word alone in a column of its own: the lines do not line up as a table's columns.
    stray = rows_of([
        (100, [(*name, "Donor"), (*addr, "Address"), (1500, 1600, "Notes")]),
        (170, [(*name, "Mrs. Throssell"), (*addr, "Upper Weald Farm")]),
        (240, [(*name, "Capt. Rudge"), (*addr, "Haswell Grange")]),
        (310, [(*name, "Miss Oddie"), (*addr, "Church Cottages")]),
    ])
    assert text_tables(stray) == []


def test_a_list_without_a_header_keeps_its_first_row() -> None:
    name, addr, amt = (100, 500), (900, 1300), (1800, 1950)
    rows = ocr_rows([_line([(*name, n), (*addr, a), (*amt, v)], 100 + 70 * i) for i, (n, a, v) in enumerate([
        ("Mrs. Throssell", "Upper Weald Farm", "25.00"), ("Capt. Rudge", "Haswell Grange", "150.00"),
        ("Miss Oddie", "Church Cottages", "5.50"), ("Dr. Fairbairn", "The Surgery", "75.00")])], pymupdf.Matrix(1, 1))
    (found,) = text_tables(rows)
    assert found.found.header == [] and found.found.rows[0] == ["Mrs. Throssell", "Upper Weald Farm", "25.00"]


def test_lines_around_a_placed_table_in_one_block_stay_before_and_after_it(tmp_path: Path) -> None:
    from pagelens.ingest.ocr_page import lines_to_elements
    from pagelens.models import Element

    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    ctx = PageContext.build(page, doc_id="d" * 64, file_name="scan.pdf", settings=IngestSettings(ocr="tesseract"),
                            images=ImageStore(tmp_path / "images"), ocr=None)
    lines = [OcrLine(t, (100, 100 + 50 * i, 1500, 130 + 50 * i), 0.95, 3) for i, t in enumerate(
        ["The following gave to the appeal in the year:", "Donor Address Amount", "Mrs. Throssell Upper Weald Farm 25.00",
         "All gifts are acknowledged in the parish magazine."])]
    table = Element(doc_id="d" * 64, page=1, order=0, kind=ElementKind.TEXT, text="(the table)", bbox=(20, 40, 400, 60))
    els = lines_to_elements(ctx, lines, pymupdf.Matrix(0.24, 0.24), {1: [table], 2: []})
    assert [e.text for e in els] == [
        "The following gave to the appeal in the year:", "(the table)", "All gifts are acknowledged in the parish magazine."]
    assert [e.order for e in els] == [0, 1, 2]
