"""A small annual report of a made-up company (Larkspur Freight), in two editions that differ only in
whether the contact page prints an investor-relations e-mail address.

* page 1: prose; one long sentence carries a fact among several clauses,
* page 2: a ruled table of interest expense (rows: segments; columns: 2008, 2009) and a sentence
  about it,
* page 3: contacts (address, telephone, and in the ``with_email`` edition an e-mail address).

Every name and number is invented.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from .layout import grid_table

COMPANY = "Larkspur Freight"
INTEREST = [("Segment", "2008", "2009"), ("Rail", "$2.1 million", "$3.8 million"),
            ("Trucking", "$1.4 million", "$1.9 million"), ("Ports", "$0.6 million", "$0.7 million")]
LONG_SENTENCE = (
    "After a difficult first half in which fuel prices rose sharply and two customers renegotiated their "
    "contracts, the company opened its new sorting terminal in Duluth in September, which added 340 jobs, "
    "while the older depot in Fargo was kept open for seasonal traffic."
)
EMAIL = "investors@larkspur-freight.example"
PHONE = "(555) 201-7788"


def report_pdf(path: Path | None = None, with_email: bool = True) -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 80), f"{COMPANY} Annual Report 2009", fontsize=20)
    page.insert_textbox(pymupdf.Rect(72, 110, 540, 330),
                        f"{COMPANY} carries goods by rail, road and sea across the northern states. "
                        f"{LONG_SENTENCE} Revenue grew in every quarter of the year.", fontsize=11)
    page = doc.new_page()
    grid_table(page, 100, [list(r) for r in INTEREST], caption="Table 4: Interest expense by segment")
    page.insert_textbox(pymupdf.Rect(72, 200, 540, 320),
                        "Interest expense rose in every segment because borrowing increased to pay for the terminal.",
                        fontsize=11)
    page = doc.new_page()
    page.insert_text((72, 80), "Contacts", fontsize=16)
    lines = ["Head office: 12 Harbour Road, Duluth, Minnesota", f"Telephone: {PHONE}"]
    if with_email:
        lines.append(f"Investor relations e-mail: {EMAIL}")
    page.insert_textbox(pymupdf.Rect(72, 100, 540, 300), "\n".join(lines), fontsize=11)
    data = doc.tobytes()
    doc.close()
    if path is not None:
        path.write_bytes(data)
    return data
