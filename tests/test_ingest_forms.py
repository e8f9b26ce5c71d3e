"""AcroForm fields become FORM elements with label, value and options read from the field dictionary."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from pagelens.ingest import forms
from pagelens.ingest.context import PageContext
from pagelens.models import ElementKind, Provenance
from pagelens.settings import IngestSettings

from pdf_support import add_text_field
from pdfs import HR_TEXT_FIELDS, hr_form_pdf


def _fields(page: pymupdf.Page):
    ctx = PageContext.build(page, doc_id="d", file_name="f.pdf", settings=IngestSettings(), images=None)  # type: ignore[arg-type]
    return forms.extract_form_fields(ctx)


@pytest.fixture(scope="module")
def hr_fields():
    return _fields(pymupdf.open(stream=hr_form_pdf(), filetype="pdf").load_page(0))


def test_hr_form_values_are_read_from_the_fields(hr_fields) -> None:
    by_name = {e.field.name: e for e in hr_fields}
    for name, _tip, value, _rect in HR_TEXT_FIELDS:
        assert by_name[name].field.value == value and by_name[name].field.field_type == "text"
    for e in hr_fields:
        assert e.kind == ElementKind.FORM and e.provenance == Provenance.ACROFORM and e.parser == "acroform"
        assert e.field.value in e.text and e.text.startswith(e.field.label)


def test_hr_form_labels_checkboxes_and_radio(hr_fields) -> None:
    by_name = {e.field.name: e for e in hr_fields}
    assert "Print" not in by_name  # push buttons carry no data
    city = by_name["City"]  # its tooltip is a useless "[2]": the field name is the label
    assert city.field.label == "City" and city.text == "City: Kalamazoo"
    assert by_name["Emergency_Relationship"].text == "RELATIONSHIP (Emergency Relationship): Older Brother"
    assert by_name["HIGH SCHOOL DIPLOMA"].field.value == "checked"
    assert by_name["TRADE CERTIFICATE"].field.value == "unchecked"
    assert by_name["HIGH SCHOOL DIPLOMA"].attrs["export_value"] == "On"
    sex = by_name["Sex"]
    assert sex.field.field_type == "radio" and sex.field.value == "FEMALE"
    assert sex.field.options == ["MALE", "FEMALE"]
    assert sum(e.field.name == "Sex" for e in hr_fields) == 1  # one element per radio group


def test_radio_value_indexing_opt_is_resolved(tmp_path: Path) -> None:
    """A radio /V of "1" that indexes the group's /Opt array reads as the option's text."""
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Preferred contact", fontsize=11)
    for i, x in enumerate((200, 260)):
        w = pymupdf.Widget()
        w.field_type = pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON
        w.field_name = "contact"
        w.rect = pymupdf.Rect(x, 90, x + 10, 100)
        page.add_widget(w)
    kids = [w.xref for w in page.widgets()]
    parent = int(doc.xref_get_key(kids[0], "Parent")[1].split()[0])
    for i, xref in enumerate(kids):
        normal = doc.xref_get_key(xref, "AP/N")[1]
        refs = re.findall(r"\d+ 0 R", normal)
        doc.xref_set_key(xref, "AP/N", f"<</Off {refs[0]} /{i} {refs[-1]}>>")
        doc.xref_set_key(xref, "AS", f"/{i}" if i == 1 else "/Off")
    doc.xref_set_key(parent, "Opt", "[(Email)(Telephone)]")
    doc.xref_set_key(parent, "V", "/1")
    path = tmp_path / "radio.pdf"
    doc.save(path)
    els = _fields(pymupdf.open(path).load_page(0))
    assert len(els) == 1
    radio = els[0]
    assert radio.field.value == "Telephone" and radio.field.options == ["Email", "Telephone"]
    assert radio.attrs["raw_value"] == "1"
    assert radio.field.label == "contact"


def test_text_field_without_tooltip_takes_printed_label(tmp_path: Path) -> None:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Employer name", fontsize=11)
    add_text_field(page, "Text1", (160, 88, 300, 104), "Initech")
    box = pymupdf.Widget()
    box.field_type = pymupdf.PDF_WIDGET_TYPE_COMBOBOX
    box.field_name = "Country"
    box.choice_values = ["France", "Japan", "Peru"]
    box.field_value = "Japan"
    box.rect = pymupdf.Rect(160, 120, 300, 136)
    page.add_widget(box)
    path = tmp_path / "text.pdf"
    doc.save(path)
    by_name = {e.field.name: e for e in _fields(pymupdf.open(path).load_page(0))}
    assert by_name["Text1"].text == "Employer name: Initech"
    combo = by_name["Country"]
    assert combo.field.value == "Japan" and combo.field.options == ["France", "Japan", "Peru"]


def test_drawn_field_values_stay_out_of_body_text() -> None:
    from pagelens.ingest import text

    page = pymupdf.open(stream=hr_form_pdf(), filetype="pdf").load_page(0)
    assert "Older Brother" in page.get_text()  # this file draws values into its text layer
    ctx = PageContext.build(page, doc_id="d", file_name="f.pdf", settings=IngestSettings(), images=None)  # type: ignore[arg-type]
    fields = forms.extract_form_fields(ctx)
    body = text.extract_text(ctx)
    assert any(e.field.value == "Older Brother" for e in fields)
    assert not any("Older Brother" in e.text for e in body)
    assert any("Please print clearly" in e.text for e in body)  # the printed form text stays
