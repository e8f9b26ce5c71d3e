"""Build the forms bench set: eight filled form PDFs, written with PyMuPDF, for
bench/data/forms-questions.jsonl.

    .venv/bin/python bench/forms_build.py ~/.cache/pagelens-forms/pdfs
    .venv/bin/python bench/realdocs.py --no-naive --answers --misses --pdfs ~/.cache/pagelens-forms/pdfs \
        --questions bench/data/forms-questions.jsonl

The forms are made the way form tools leave them in the wild: AcroForm fields with generic names
("Text1", "Check Box3", "untitled7") and no tooltip, whose meaning is only in the printed label to the
left of or above the widget; radio groups whose on-states are opaque ("Choice1", "Choice2") and whose
meaning is the printed caption beside each button; checkboxes captioned to their right; fields left
blank; flat printed forms (no widgets) with "Label: value" on one line, two such pairs on one line, or a
small label line above its value line in a box; and a form running over two pages.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pymupdf

FONT = 10


def _label(page: pymupdf.Page, x: float, y: float, text: str, size: float = FONT, bold: bool = False) -> None:
    page.insert_text((x, y), text, fontsize=size, fontname="hebo" if bold else "helv")


def _text(page: pymupdf.Page, name: str, rect: tuple[float, float, float, float], value: str = "") -> None:
    w = pymupdf.Widget()
    w.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
    w.field_name = name
    w.rect = pymupdf.Rect(rect)
    w.text_fontsize = 9
    if value:
        w.field_value = value
    page.add_widget(w)


def _checkbox(page: pymupdf.Page, name: str, x: float, y: float, checked: bool) -> None:
    """A 10pt box whose top-left is (x, y - 9): level with a caption whose baseline is y."""
    w = pymupdf.Widget()
    w.field_type = pymupdf.PDF_WIDGET_TYPE_CHECKBOX
    w.field_name = name
    w.rect = pymupdf.Rect(x, y - 9, x + 10, y + 1)
    w.field_value = bool(checked)
    page.add_widget(w)


def _radio(doc: pymupdf.Document, page: pymupdf.Page, name: str, spots: list[tuple[float, float]],
           selected: int | None) -> None:
    """A radio group with one button per spot, on-states "Choice1", "Choice2"... (opaque, as Acrobat
    names them); ``selected``: the index of the chosen button, None for none."""
    before = {w.xref for w in page.widgets()}
    for x, y in spots:
        w = pymupdf.Widget()
        w.field_type = pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON
        w.field_name = name
        w.rect = pymupdf.Rect(x, y - 9, x + 10, y + 1)
        page.add_widget(w)
    kids = [w.xref for w in page.widgets() if w.xref not in before]
    parent = None
    for i, xref in enumerate(kids):
        normal = doc.xref_get_key(xref, "AP/N")[1]
        refs = re.findall(r"\d+ 0 R", normal)
        state = f"Choice{i + 1}"
        doc.xref_set_key(xref, "AP/N", f"<</Off {refs[0]} /{state} {refs[-1]}>>")
        doc.xref_set_key(xref, "AS", f"/{state}" if i == selected else "/Off")
        kind, value = doc.xref_get_key(xref, "Parent")
        if kind == "xref":
            parent = int(value.split()[0])
    owner = parent if parent is not None else kids[0]
    doc.xref_set_key(owner, "V", f"/Choice{selected + 1}" if selected is not None else "/Off")


def _title(page: pymupdf.Page, title: str, sub: str = "") -> None:
    _label(page, 72, 60, title, 15, bold=True)
    if sub:
        _label(page, 72, 78, sub, 9)


def vendor_registration(doc: pymupdf.Document) -> None:
    """Labels to the left of generic "TextN" fields; captioned checkboxes; an opaque radio group."""
    page = doc.new_page()
    _title(page, "Harlow County Purchasing Office", "Vendor Registration Form - please complete all sections")
    rows = [("Company legal name", "Brightwater Logistics LLC"), ("Federal tax ID (EIN)", "84-2917365"),
            ("Contact person", "Renata Oyelaran"), ("Telephone", "(614) 555-0187"), ("Email address", ""),
            ("Street address", "2201 Foundry Lane"), ("City", "Columbus"), ("Years in business", "14")]
    y = 120
    for i, (label, value) in enumerate(rows):
        _label(page, 72, y, label)
        _text(page, f"Text{i + 1}", (210, y - 11, 480, y + 4), value)
        y += 26
    y += 10
    _label(page, 72, y, "Business certifications (check all that apply)", bold=True)
    y += 22
    for i, (caption, on) in enumerate([("Minority-owned business", True), ("Women-owned business", False),
                                       ("Veteran-owned business", True)]):
        _checkbox(page, f"Check Box{i + 9}", 80, y, on)
        _label(page, 96, y, caption)
        y += 20
    y += 14
    _label(page, 72, y, "Preferred payment terms", bold=True)
    y += 22
    spots = []
    for j, caption in enumerate(["Net 30", "Net 45", "Net 60"]):
        x = 80 + j * 110
        spots.append((x, y))
        _label(page, x + 16, y, caption)
    _radio(doc, page, "Group1", spots, 1)


def clinic_intake(doc: pymupdf.Document) -> None:
    """Labels printed above "untitledN" fields in two columns; a blank field; an opaque radio group."""
    page = doc.new_page()
    _title(page, "Riverside Family Clinic", "New Patient Intake")
    cells = [("Patient full name", "Tomasz Wierzbicki"), ("Date of birth", "03/14/1979"),
             ("Insurance provider", "Harborline Health"), ("Member ID", "HLH-77204519"),
             ("Known allergies", ""), ("Current medications", "Lisinopril 10 mg daily"),
             ("Emergency contact name", "Agnieszka Wierzbicka"), ("Emergency contact phone", ""),
             ("Primary care physician", "Dr. Helen Okafor"), ("Referring physician", "")]
    for i, (label, value) in enumerate(cells):
        col, row = i % 2, i // 2
        x, y = 72 + col * 240, 120 + row * 46
        _label(page, x, y, label, 8)
        _text(page, f"untitled{i + 1}", (x, y + 4, x + 220, y + 20), value)
    y = 120 + 5 * 46 + 10
    _label(page, 72, y, "How would you like us to contact you?", bold=True)
    y += 22
    spots = []
    for j, caption in enumerate(["Phone call", "Email", "Text message"]):
        x = 80 + j * 120
        spots.append((x, y))
        _label(page, x + 16, y, caption)
    _radio(doc, page, "Radio Button1", spots, 1)
    y += 34
    _label(page, 72, y, "Medical history", bold=True)
    y += 22
    for i, (caption, on) in enumerate([("Diabetes", True), ("High blood pressure", True), ("Asthma", False),
                                       ("Current smoker", False)]):
        _checkbox(page, f"Check Box{i + 1}", 80, y, on)
        _label(page, 96, y, caption)
        y += 20


def equipment_loan(doc: pymupdf.Document) -> None:
    """A flat printed form: "Label: value" lines, one left blank."""
    page = doc.new_page()
    _title(page, "Department of Earth Sciences", "Field Equipment Loan Record (office copy)")
    lines = [("Borrower", "Kwame Asante"), ("Department", "Geology"), ("Project", "Lake Erie shoreline survey"),
             ("Item", "Trimble R10 GNSS receiver"), ("Asset tag", "GEO-00482"), ("Loan date", "2024-09-02"),
             ("Due back", "2024-10-15"), ("Condition on return", ""), ("Approved by", "M. Lindqvist")]
    y = 120
    for label, value in lines:
        _label(page, 72, y, f"{label}:")
        if value:
            _label(page, 190, y, value)
        page.draw_line((188, y + 3), (480, y + 3), color=(0.6, 0.6, 0.6), width=0.5)
        y += 24
    y += 16
    _label(page, 72, y, "Equipment must be returned clean and with all accessories. Late returns are reported", 8)
    _label(page, 72, y + 11, "to the department chair.", 8)


def building_permit(doc: pymupdf.Document) -> None:
    """A flat printed form of boxes: a small capital label line above each value line."""
    page = doc.new_page()
    _title(page, "City of Marlow Building Division", "Application for Residential Building Permit")
    cells = [("APPLICANT NAME", "Marisol Etxeberria"), ("PARCEL NUMBER", "117-204-09"),
             ("SITE ADDRESS", "48 Quarry Hill Road"), ("ZONING DISTRICT", "R-2"),
             ("PROPOSED USE", "Detached two-car garage with workshop"), ("ESTIMATED COST", "$48,500"),
             ("CONTRACTOR", "Etxeberria & Sons Builders"), ("CONTRACTOR LICENSE NO.", ""),
             ("FLOOR AREA (SQ FT)", "624"), ("NUMBER OF STORIES", "1")]
    for i, (label, value) in enumerate(cells):
        col, row = i % 2, i // 2
        x, y = 60 + col * 250, 110 + row * 52
        page.draw_rect(pymupdf.Rect(x, y, x + 245, y + 46), color=(0, 0, 0), width=0.6)
        _label(page, x + 5, y + 11, label, 7)
        if value:
            _label(page, x + 8, y + 32, value, 11)
    _label(page, 60, 390, "For office use only", 8, bold=True)
    _label(page, 60, 404, "Permit fees are calculated on the estimated cost of construction.", 8)


def membership_renewal(doc: pymupdf.Document) -> None:
    """Two pages of AcroForm fields: generic names, labels left, an opaque radio group on page 2."""
    page = doc.new_page()
    _title(page, "Calder Valley Naturalists' Society", "Membership Renewal 2025 - page 1 of 2: member details")
    rows = [("Member name", "Priya Ramanathan"), ("Membership number", "CVN-3318"),
            ("Mailing address", "17 Heron Close, Calder Bridge"), ("Postcode", "CB4 9TQ"),
            ("Daytime phone", ""), ("Email", "priya.r@example.org"), ("Year first joined", "2011")]
    y = 120
    for i, (label, value) in enumerate(rows):
        _label(page, 72, y, label)
        _text(page, f"Text{i + 1}", (200, y - 11, 500, y + 4), value)
        y += 28
    page = doc.new_page()
    _title(page, "Calder Valley Naturalists' Society", "Membership Renewal 2025 - page 2 of 2: membership and payment")
    y = 120
    _label(page, 72, y, "Membership category", bold=True)
    y += 22
    spots = []
    for j, caption in enumerate(["Student (£12)", "Individual (£25)", "Family (£40)", "Life member"]):
        x = 80 + j * 115
        spots.append((x, y))
        _label(page, x + 16, y, caption)
    _radio(doc, page, "Group3", spots, 2)
    y += 40
    rows = [("Number of household members", "4"), ("Donation to the reserve fund", "£15.00"),
            ("Total amount enclosed", "£55.00"), ("Gift Aid reference", "")]
    for i, (label, value) in enumerate(rows):
        _label(page, 72, y, label)
        _text(page, f"Text{i + 20}", (240, y - 11, 420, y + 4), value)
        y += 28
    y += 10
    for i, (caption, on) in enumerate([("Send me the printed newsletter by post", True),
                                       ("Add me to the volunteer list for reserve work days", False)]):
        _checkbox(page, f"Check Box{i + 30}", 80, y, on)
        _label(page, 96, y, caption)
        y += 22


def travel_claim(doc: pymupdf.Document) -> None:
    """Expense lines (labels left of amount fields), blank lines, a Yes/No radio with Choice states."""
    page = doc.new_page()
    _title(page, "Northgate Institute of Technology", "Travel Expense Reimbursement Claim")
    rows = [("Traveller", "Dr. Samuel Achterberg"), ("Trip purpose", "Keynote at the Baltic Materials Symposium"),
            ("Destination", "Gdansk, Poland"), ("Departure date", "2024-05-12"), ("Return date", "2024-05-17")]
    y = 112
    for i, (label, value) in enumerate(rows):
        _label(page, 72, y, label)
        _text(page, f"Text{i + 1}", (170, y - 11, 520, y + 4), value)
        y += 26
    y += 12
    _label(page, 72, y, "Expenses (EUR)", bold=True)
    y += 22
    for i, (label, value) in enumerate([("Airfare", "612.40"), ("Lodging", "745.00"), ("Meals", "188.25"),
                                        ("Rental car", ""), ("Conference registration", "390.00"),
                                        ("Total claimed", "1935.65")]):
        _label(page, 90, y, label)
        _text(page, f"Text{i + 10}", (300, y - 11, 400, y + 4), value)
        y += 24
    y += 14
    _label(page, 72, y, "Was a personal vehicle used for this trip?")
    spots = [(320, y), (380, y)]
    _label(page, 336, y, "Yes")
    _label(page, 396, y, "No")
    _radio(doc, page, "Group2", spots, 1)
    y += 26
    _label(page, 72, y, "Were any meals provided by the conference?")
    spots = [(320, y), (380, y)]
    _label(page, 336, y, "Yes")
    _label(page, 396, y, "No")
    _radio(doc, page, "Group4", spots, None)


def incident_report(doc: pymupdf.Document) -> None:
    """A flat printed form with two "Label: value" pairs on a line and printed check marks."""
    page = doc.new_page()
    _title(page, "Pinecrest Logistics - Warehouse 3", "Workplace Incident Report")
    pairs = [(("Report number", "IR-2024-0931"), ("Date of incident", "2024-11-08")),
             (("Reported by", "Dana Whitcombe"), ("Shift", "Night")),
             (("Location", "Loading dock B"), ("Time", "02:40")),
             (("Injured person", "Luis Ferreira"), ("Witness", "")),
             (("Equipment involved", "Pallet jack PJ-14"), ("Supervisor", "Omar Haddad"))]
    y = 120
    for (l1, v1), (l2, v2) in pairs:
        _label(page, 72, y, f"{l1}: {v1}".rstrip())
        _label(page, 320, y, f"{l2}: {v2}".rstrip())
        y += 22
    y += 14
    _label(page, 72, y, "Type of incident", bold=True)
    y += 20
    for j, (caption, on) in enumerate([("Injury", True), ("Near miss", False), ("Property damage", True),
                                       ("Spill", False)]):
        x = 80 + j * 110
        _label(page, x, y, ("[X] " if on else "[  ] ") + caption)
    y += 30
    _label(page, 72, y, "Description of what happened:", bold=True)
    y += 16
    for ln in ["While reversing a loaded pallet jack off the dock plate, the operator's left foot was caught",
               "between the jack and a stacked pallet. The dock plate was found to be wet from rain."]:
        _label(page, 72, y, ln, 9)
        y += 13
    y += 10
    _label(page, 72, y, "Days away from work: 3")


def scholarship(doc: pymupdf.Document) -> None:
    """Two pages; labels above fields on page 2, blank fields, an opaque enrolment radio group."""
    page = doc.new_page()
    _title(page, "Whitfield Community Foundation", "Undergraduate Scholarship Application - Part A")
    rows = [("Applicant name", "Imani Castellanos-Reyes"), ("High school", "Eastbrook Senior High School"),
            ("Graduation year", "2025"), ("Cumulative GPA", "3.82"), ("SAT score", ""),
            ("College you plan to attend", "University of Oregon")]
    y = 120
    for i, (label, value) in enumerate(rows):
        _label(page, 72, y, label)
        _text(page, f"Text{i + 1}", (230, y - 11, 520, y + 4), value)
        y += 28
    y += 8
    _label(page, 72, y, "Planned enrolment status")
    spots = [(240, y), (340, y)]
    _label(page, 256, y, "Full-time")
    _label(page, 356, y, "Part-time")
    _radio(doc, page, "Group1", spots, 0)
    y += 30
    _checkbox(page, "Check Box1", 72, y, True)
    _label(page, 88, y, "I am the first person in my family to attend college")
    y += 20
    _checkbox(page, "Check Box2", 72, y, False)
    _label(page, 88, y, "I have applied for federal financial aid (FAFSA)")
    page = doc.new_page()
    _title(page, "Whitfield Community Foundation", "Undergraduate Scholarship Application - Part B")
    stacked = [("Intended field of study", "Marine ecology, focusing on kelp forest restoration"),
               ("Community service hours in the last year", "140"),
               ("Other scholarships received", ""),
               ("Name of recommender", "Ms. Beatriz Solano"),
               ("Recommender's relationship to you", "AP Biology teacher")]
    y = 120
    for i, (label, value) in enumerate(stacked):
        _label(page, 72, y, label, 9)
        _text(page, f"Text{i + 40}", (72, y + 4, 520, y + 20), value)
        y += 44


BUILDERS = {
    "vendor-registration.pdf": vendor_registration,
    "clinic-intake.pdf": clinic_intake,
    "equipment-loan-record.pdf": equipment_loan,
    "building-permit-application.pdf": building_permit,
    "membership-renewal.pdf": membership_renewal,
    "travel-reimbursement-claim.pdf": travel_claim,
    "warehouse-incident-report.pdf": incident_report,
    "scholarship-application.pdf": scholarship,
}


def build(out: Path, builders: dict | None = None) -> list[Path]:
    """Each of ``builders`` (file name: a function that fills a new document; this set's by default)
    written to ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, fn in (BUILDERS if builders is None else builders).items():
        doc = pymupdf.open()
        fn(doc)
        path = out / name
        doc.save(path, garbage=3, deflate=True)
        doc.close()
        paths.append(path)
    return paths


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else Path.home() / ".cache" / "pagelens-forms" / "pdfs")
    for p in build(target):
        print(p)
