"""Forms whose meaning is only printed: generic widget names ("Text1", "Check Box3") named by the
printed label beside or above them, opaque radio on-states ("Choice2") named by the caption beside
each button, blank fields kept as ``label: (empty)``, flat printed forms (no widgets) read as fields,
and the answerer quoting the field whose label the question names, abstaining when that field is blank.
All PDFs are built here with PyMuPDF."""

from __future__ import annotations

import re

import pymupdf
import pytest

from pagelens.answer.extractive import ExtractiveAnswerer
from pagelens.answer.prompts import ABSTAIN_TEXT
from pagelens.index.chunking import chunk_document
from pagelens.ingest import forms, printed_forms, text
from pagelens.ingest.context import PageContext
from pagelens.models import Chunk, Document, ElementKind
from pagelens.settings import AnswerSettings, IndexSettings, IngestSettings

from answer_support import hit, minilm  # noqa: F401 (minilm: session fixture)
from pdf_support import add_checkbox, add_text_field


def _ctx(page: pymupdf.Page) -> PageContext:
    return PageContext.build(page, doc_id="d", file_name="f.pdf", settings=IngestSettings(), images=None)  # type: ignore[arg-type]


def _reopen(doc: pymupdf.Document) -> pymupdf.Document:
    return pymupdf.open(stream=doc.tobytes(), filetype="pdf")


def _radio(doc: pymupdf.Document, page: pymupdf.Page, name: str, spots: list[tuple[float, float]], selected: int | None) -> None:
    """A radio group with Acrobat's opaque on-states "Choice1", "Choice2"..."""
    before = {w.xref for w in page.widgets()}
    for x, y in spots:
        w = pymupdf.Widget()
        w.field_type = pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON
        w.field_name = name
        w.rect = pymupdf.Rect(x, y - 9, x + 10, y + 1)
        page.add_widget(w)
    kids = [w.xref for w in page.widgets() if w.xref not in before]
    owner = kids[0]
    for i, xref in enumerate(kids):
        refs = re.findall(r"\d+ 0 R", doc.xref_get_key(xref, "AP/N")[1])
        doc.xref_set_key(xref, "AP/N", f"<</Off {refs[0]} /Choice{i + 1} {refs[-1]}>>")
        doc.xref_set_key(xref, "AS", f"/Choice{i + 1}" if i == selected else "/Off")
        kind, value = doc.xref_get_key(xref, "Parent")
        owner = int(value.split()[0]) if kind == "xref" else owner
    doc.xref_set_key(owner, "V", f"/Choice{selected + 1}" if selected is not None else "/Off")


def _acroform() -> pymupdf.Document:
    """Generic names only: labels in a column far left of the fields, a heading over captioned
    checkboxes, two radio groups (one answered) with a question printed left of their buttons."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Harlow County Vendor Registration", fontsize=14)
    for i, (label, value) in enumerate([("Contact person", "Renata Oyelaran"), ("Email address", ""),
                                        ("Years in business", "14")]):
        y = 110 + 26 * i
        page.insert_text((72, y), label, fontsize=10)
        add_text_field(page, f"Text{i + 1}", (230, y - 11, 480, y + 4), value)  # 130pt right of the label's end
    page.insert_text((72, 200), "Business certifications (check all that apply)", fontsize=10)
    for i, (caption, on) in enumerate([("Minority-owned business", True), ("Women-owned business", False)]):
        add_checkbox(page, f"Check Box{i + 9}", 80, 222 + 20 * i, on)
        page.insert_text((96, 222 + 20 * i), caption, fontsize=10)
    page.insert_text((72, 290), "Was a personal vehicle used?", fontsize=10)
    for x, caption in ((300, "Yes"), (360, "No")):
        page.insert_text((x + 16, 290), caption, fontsize=10)
    _radio(doc, page, "Group2", [(300, 290), (360, 290)], 1)
    page.insert_text((72, 320), "Were meals provided?", fontsize=10)
    for x, caption in ((300, "Yes"), (360, "No")):
        page.insert_text((x + 16, 320), caption, fontsize=10)
    _radio(doc, page, "Group4", [(300, 320), (360, 320)], None)
    return _reopen(doc)


@pytest.fixture(scope="module")
def acro():
    page = _acroform().load_page(0)
    ctx = _ctx(page)
    fields = forms.extract_form_fields(ctx)
    return {e.field.name: e for e in fields}, text.extract_text(ctx)


def test_generic_text_fields_take_the_label_left_on_their_row(acro) -> None:
    by_name, _ = acro
    assert by_name["Text1"].field.label == "Contact person" and by_name["Text1"].text == "Contact person: Renata Oyelaran"
    assert by_name["Text3"].field.label == "Years in business"


def test_checkboxes_take_their_caption_not_the_heading_above(acro) -> None:
    by_name, _ = acro
    assert by_name["Check Box9"].text == "Minority-owned business: checked"
    assert by_name["Check Box10"].text == "Women-owned business: unchecked"


def test_opaque_radio_states_read_as_their_captions(acro) -> None:
    by_name, _ = acro
    vehicle = by_name["Group2"]
    assert vehicle.field.label == "Was a personal vehicle used?"  # the text left of the first button, no caption
    assert vehicle.field.value == "No" and vehicle.field.options == ["Yes", "No"]
    assert vehicle.attrs["raw_value"] == "Choice2"
    meals = by_name["Group4"]
    assert meals.field.value == "" and meals.text.startswith("Were meals provided?: (empty)")


def test_printed_labels_that_name_fields_leave_body_text(acro) -> None:
    _, body = acro
    joined = " ".join(e.text for e in body)
    assert "Contact person" not in joined and "Women-owned business" not in joined
    assert "Harlow County Vendor Registration" in joined and "Business certifications" in joined


def test_a_descriptive_field_name_still_wins_over_printed_text(tmp_path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Field 7", fontsize=10)
    add_text_field(page, "Employer_Name", (160, 88, 300, 104), "Initech")
    by_name = {e.field.name: e for e in forms.extract_form_fields(_ctx(_reopen(doc).load_page(0)))}
    assert by_name["Employer_Name"].text == "Employer Name: Initech"


def _chunk_lines(elements, name: str = "f.pdf") -> list[str]:
    doc = Document(doc_id="d", name=name, path=name, size=1, pages=1)
    return [ln for c in chunk_document(doc, elements, IndexSettings(), lambda t: len(t.split()))
            if c.kind == "form" for ln in c.text.splitlines()]


def test_blank_fields_are_kept_in_the_form_chunk(acro) -> None:
    by_name, _ = acro
    lines = _chunk_lines(list(by_name.values()))
    assert "Email address: (empty)" in lines and "Were meals provided?: (empty)" in lines
    assert "Was a personal vehicle used?: No" in lines


# -- flat printed forms --------------------------------------------------------------------------
def _flat_pairs() -> pymupdf.Document:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Field Equipment Loan Record", fontsize=14)
    rows = [("Borrower", "Kwame Asante"), ("Item", "Trimble R10 GNSS receiver"), ("Asset tag", "GEO-00482"),
            ("Due back", "2024-10-15"), ("Condition on return", "")]
    for i, (label, value) in enumerate(rows):  # label and value printed apart: a column of each
        page.insert_text((72, 100 + 22 * i), f"{label}:", fontsize=10)
        if value:
            page.insert_text((190, 100 + 22 * i), value, fontsize=10)
    y = 100 + 22 * len(rows)
    page.insert_text((72, y), "Shift: Night", fontsize=10)
    page.insert_text((320, y), "Witness:", fontsize=10)  # two pairs on one line, the second blank
    page.insert_text((72, y + 30), "Description of what happened:", fontsize=10)
    page.insert_text((72, y + 44), "The operator's foot was caught between the jack and a pallet.", fontsize=9)
    return _reopen(doc)


def test_label_value_lines_become_fields() -> None:
    ctx = _ctx(_flat_pairs().load_page(0))
    els = printed_forms.extract_printed_fields(ctx)
    got = [e.text for e in els]
    assert "Borrower: Kwame Asante" in got and "Asset tag: GEO-00482" in got and "Shift: Night" in got
    assert "Condition on return: (empty)" in got and "Witness: (empty)" in got
    assert not any(t.startswith("Description") for t in got)  # a heading over running text, no blank field
    assert all(e.kind == ElementKind.FORM and e.field.field_type == "printed" for e in els)
    body = " ".join(e.text for e in text.extract_text(ctx))
    assert "GEO-00482" not in body and "The operator's foot was caught" in body


def test_boxes_with_a_label_line_over_the_value_become_fields() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    cells = [("APPLICANT NAME", "Marisol Etxeberria"), ("PARCEL NUMBER", "117-204-09"), ("ZONING DISTRICT", "R-2"),
             ("ESTIMATED COST", "$48,500"), ("CONTRACTOR LICENSE NO.", "")]
    for i, (label, value) in enumerate(cells):
        x, y = 60 + (i % 2) * 250, 110 + (i // 2) * 52
        page.draw_rect(pymupdf.Rect(x, y, x + 245, y + 46), color=(0, 0, 0), width=0.6)
        page.insert_text((x + 5, y + 11), label, fontsize=7)
        if value:
            page.insert_text((x + 8, y + 32), value, fontsize=11)
    got = {e.text for e in printed_forms.extract_printed_fields(_ctx(_reopen(doc).load_page(0)))}
    assert {"APPLICANT NAME: Marisol Etxeberria", "PARCEL NUMBER: 117-204-09", "ESTIMATED COST: $48,500",
            "CONTRACTOR LICENSE NO.: (empty)"} <= got


def test_a_report_page_with_a_few_label_lines_is_no_form() -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Shoreline erosion along Lake Erie", fontsize=14)
    page.insert_text((72, 90), "Keywords: erosion, bluffs, lake levels", fontsize=9)
    page.insert_text((72, 104), "Received: 3 March 2021", fontsize=9)
    y = 130
    for _ in range(12):
        page.insert_text((72, y), "Bluff recession rates were measured at forty stations over three decades of imagery.", fontsize=10)
        y += 14
    page.insert_text((72, y + 10), "Note: rates are in metres per year.", fontsize=9)
    assert printed_forms.extract_printed_fields(_ctx(_reopen(doc).load_page(0))) == []


# -- answers ------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def answerer(minilm):
    return ExtractiveAnswerer(AnswerSettings(), minilm)


@pytest.fixture(scope="module")
def clinic() -> list[Chunk]:
    """An intake form's chunks (title text + form fields), labels printed above "untitledN" fields."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Riverside Family Clinic - New Patient Intake", fontsize=14)
    cells = [("Patient full name", "Tomasz Wierzbicki"), ("Member ID", "HLH-77204519"),
             ("Known allergies", ""), ("Emergency contact name", "Agnieszka Wierzbicka"),
             ("Emergency contact phone", ""), ("Primary care physician", "Dr. Helen Okafor")]
    for i, (label, value) in enumerate(cells):
        x, y = 72 + (i % 2) * 240, 110 + (i // 2) * 46
        page.insert_text((x, y), label, fontsize=8)
        add_text_field(page, f"untitled{i + 1}", (x, y + 4, x + 220, y + 20), value)
    ctx = _ctx(_reopen(doc).load_page(0))
    els = forms.extract_form_fields(ctx) + text.extract_text(ctx)
    d = Document(doc_id="d", name="clinic-intake.pdf", path="clinic-intake.pdf", size=1, pages=1)
    return list(chunk_document(d, els, IndexSettings(), lambda t: len(t.split())))


def _hits(chunks: list[Chunk]):
    form = [c for c in chunks if c.kind == "form"]
    return [hit(c) for c in form + [c for c in chunks if c.kind != "form"]]


def test_labels_above_name_the_fields(clinic) -> None:
    form = next(c for c in clinic if c.kind == "form")
    assert "Member ID: HLH-77204519" in form.text and "Known allergies: (empty)" in form.text


def test_the_field_the_question_names_is_quoted(answerer, clinic) -> None:
    text_, abstained, _ = answerer.answer("What is the member ID on the Riverside clinic intake form?", _hits(clinic))
    assert not abstained and text_.startswith("Member ID: HLH-77204519")
    text_, abstained, _ = answerer.answer("What is the name of the emergency contact on the intake form?", _hits(clinic))
    assert not abstained and "Agnieszka Wierzbicka" in text_


@pytest.mark.parametrize("question", [
    "What allergies did the patient list on the Riverside clinic intake form?",  # "Known" is a modifier
    "What phone number is given for the emergency contact on the intake form?",
])
def test_a_blank_named_field_abstains(answerer, clinic, question) -> None:
    text_, abstained, _ = answerer.answer(question, _hits(clinic))
    assert abstained and text_ == ABSTAIN_TEXT


def test_a_blank_field_the_question_does_not_name_is_no_reason_to_abstain(answerer, clinic) -> None:
    text_, abstained, _ = answerer.answer("Who is the primary care physician on the clinic intake form?", _hits(clinic))
    assert not abstained and "Helen Okafor" in text_ and "(empty)" not in text_


def test_a_name_on_the_first_page_of_a_form_supports_a_field_on_the_second(answerer) -> None:
    """A two-page renewal form: the member is named on page 1, the category chosen on page 2."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Calder Valley Naturalists' Society - Membership Renewal (1 of 2)", fontsize=12)
    for i, (label, value) in enumerate([("Member name", "Priya Ramanathan"), ("Membership number", "CVN-3318"),
                                        ("Postcode", "CB4 9TQ")]):
        page.insert_text((72, 110 + 28 * i), label, fontsize=10)
        add_text_field(page, f"Text{i + 1}", (200, 99 + 28 * i, 480, 114 + 28 * i), value)
    page = doc.new_page()
    page.insert_text((72, 60), "Calder Valley Naturalists' Society - Membership Renewal (2 of 2)", fontsize=12)
    page.insert_text((72, 110), "Membership category", fontsize=10)
    spots = [(80 + 115 * j, 132) for j in range(3)]
    for (x, y), caption in zip(spots, ["Student", "Individual", "Family"]):
        page.insert_text((x + 16, y), caption, fontsize=10)
    _radio(doc, page, "Group3", spots, 2)
    page.insert_text((72, 170), "Total amount enclosed", fontsize=10)
    add_text_field(page, "Text20", (240, 159, 420, 174), "£55.00")
    pdf = _reopen(doc)
    d = Document(doc_id="d", name="membership-renewal.pdf", path="membership-renewal.pdf", size=1, pages=2)
    els = []
    for pno in range(2):
        ctx = _ctx(pdf.load_page(pno))
        els += forms.extract_form_fields(ctx) + text.extract_text(ctx)
    chunks = list(chunk_document(d, els, IndexSettings(), lambda t: len(t.split())))
    form2 = next(c for c in chunks if c.kind == "form" and c.page == 2)
    assert "Membership category: Family" in form2.text
    hits = [hit(c) for c in sorted(chunks, key=lambda c: (c.kind != "form", c.page))]
    text_, abstained, _ = answerer.answer("Which membership category did Priya Ramanathan choose on her renewal?", hits)
    assert not abstained and text_.startswith("Membership category: Family")
