"""A filled AcroForm."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf

from .layout import H, W

# -- a filled form ------------------------------------------------------------------------------------
HR_TEXT_FIELDS = [
    # (field name, tooltip /TU, value, rect)
    ("Name_Last", "LAST", "Okafor", (40, 150, 270, 168)),
    ("Name_First", "FIRST", "Ngozi", (40, 190, 270, 208)),
    ("Telephone_Home", "HOME", "5551230000", (40, 230, 150, 248)),
    ("Telephone_Work", "WORK", "5559876543", (160, 230, 270, 248)),
    ("Address_1", "STREET", "12 Mill Lane", (330, 150, 570, 168)),
    ("City", "[2]", "Kalamazoo", (330, 190, 450, 208)),
    ("Emergency_Contact", "NAME", "Tunde Okafor", (330, 230, 450, 248)),
    ("Emergency_Relationship", "RELATIONSHIP", "Older Brother", (460, 230, 570, 248)),
    ("Birthdate", "MONTH/DAY/YEAR", "03/14/1990", (460, 290, 570, 308)),
]
HR_CHECKBOXES = [("HIGH SCHOOL DIPLOMA", True, (40, 300, 48, 308)), ("TRADE CERTIFICATE", False, (40, 315, 48, 323)),
                 ("BACHELORS DEGREE", True, (40, 330, 48, 338))]
HR_RADIO = ("Sex", ["MALE", "FEMALE"], "FEMALE", [(330, 300, 338, 308), (330, 315, 338, 323)])


def hr_form_pdf(path: Path | None = None) -> bytes:
    """An employee form: printed labels, filled text fields (one with a useless "[2]" tooltip),
    checkboxes, a radio group, a push button; the values are also printed into the page content, as
    some form tools do."""
    doc = pymupdf.open()
    page = doc.new_page(width=W, height=H)
    page.insert_text((40, 80), "EMPLOYEE INFORMATION FORM", fontname="hebo", fontsize=16)
    page.insert_text((40, 110), "Please print clearly. All fields are required unless marked optional.", fontname="helv", fontsize=9)
    for name, tip, value, r in HR_TEXT_FIELDS:
        rect = pymupdf.Rect(r)
        page.insert_text((rect.x0, rect.y1 + 9), tip if not tip.startswith("[") else name.upper(), fontname="helv", fontsize=7)
        w = pymupdf.Widget()
        w.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
        w.field_name, w.field_label, w.field_value, w.rect = name, tip, value, rect
        w.text_fontsize = 9
        page.add_widget(w)
        page.insert_text((rect.x0 + 2, rect.y1 - 5), value, fontname="helv", fontsize=9)  # the drawn value
    page.insert_text((40, 292), "EDUCATION", fontname="hebo", fontsize=9)
    for name, checked, r in HR_CHECKBOXES:
        w = pymupdf.Widget()
        w.field_type = pymupdf.PDF_WIDGET_TYPE_CHECKBOX
        w.field_name, w.field_label, w.rect, w.field_value = name, name, pymupdf.Rect(r), checked
        page.add_widget(w)
        page.insert_text((r[2] + 4, r[3]), name, fontname="helv", fontsize=7)
    for w in page.widgets(types=[pymupdf.PDF_WIDGET_TYPE_CHECKBOX]):  # the on-state named "On", not "Yes"
        checked = dict((n, c) for n, c, _ in HR_CHECKBOXES)[w.field_name]
        refs = re.findall(r"\d+ 0 R", doc.xref_get_key(w.xref, "AP/N")[1])
        doc.xref_set_key(w.xref, "AP/N", f"<</Off {refs[-1]} /On {refs[0]}>>")
        doc.xref_set_key(w.xref, "AS", "/On" if checked else "/Off")
        doc.xref_set_key(w.xref, "V", "/On" if checked else "/Off")
    name, options, selected, rects = HR_RADIO
    page.insert_text((330, 292), "SEX", fontname="hebo", fontsize=9)
    for opt, r in zip(options, rects):
        w = pymupdf.Widget()
        w.field_type = pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON
        w.field_name, w.field_label, w.rect = name, "SEX", pymupdf.Rect(r)
        page.add_widget(w)
        page.insert_text((r[2] + 4, r[3]), opt, fontname="helv", fontsize=7)
    kids = [w.xref for w in page.widgets() if w.field_name == name]
    parent = int(doc.xref_get_key(kids[0], "Parent")[1].split()[0])
    for opt, xref in zip(options, kids):  # on-states named after the options, as form designers do
        normal = doc.xref_get_key(xref, "AP/N")[1]
        refs = re.findall(r"\d+ 0 R", normal)
        doc.xref_set_key(xref, "AP/N", f"<</Off {refs[0]} /{opt} {refs[-1]}>>")
        doc.xref_set_key(xref, "AS", f"/{opt}" if opt == selected else "/Off")
    doc.xref_set_key(parent, "V", f"/{selected}")
    button = pymupdf.Widget()
    button.field_type = pymupdf.PDF_WIDGET_TYPE_BUTTON
    button.field_name, button.rect, button.button_caption = "Print", pymupdf.Rect(330, 700, 410, 720), "Print"
    page.add_widget(button)
    data = doc.tobytes(garbage=3, deflate=True)
    if path is not None:
        path.write_bytes(data)
    return data
