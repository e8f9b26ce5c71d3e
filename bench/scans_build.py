"""Build the scans bench set: six scanned PDFs, written with PyMuPDF, for bench/data/scans-questions.jsonl.

    .venv/bin/python bench/scans_build.py ~/.cache/pagelens-scans/pdfs
    .venv/bin/python bench/realdocs.py --no-naive --answers --misses --pdfs ~/.cache/pagelens-scans/pdfs \
        --questions bench/data/scans-questions.jsonl

Each document is first composed as a born-digital page (a typewritten letter with letterhead, date and
signature; a two-column journal page with a drawn figure and its caption; a table of names, places and
amounts set without rules; a paper form filled in by hand in boxes; a three-page report whose title is only
on page 1 under a running header on every page; an old gazette page in small type), then each page is
rendered to an image the way a scanner leaves it: 150-300 dpi, turned 0.5-2 degrees, on a grey or yellowed
background with speckle noise. The PDF pages hold only that image (no text layer), except the report,
which carries an invisible OCR layer (render mode 3) whose glyphs are placed one character at a time in a
narrower font, so that the extracted text comes out letter-spaced as some scanner software leaves it.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pymupdf

A4 = (595.0, 842.0)
LETTER = (612.0, 792.0)
BLUE_INK = (0.10, 0.15, 0.55)


def _t(page: pymupdf.Page, x: float, y: float, text: str, size: float = 10.0, font: str = "tiro",
       color: tuple = (0, 0, 0), center: bool = False, right: bool = False) -> None:
    if center or right:
        w = pymupdf.get_text_length(text, fontname=font, fontsize=size)
        x = x - w / 2 if center else x - w
    page.insert_text((x, y), text, fontsize=size, fontname=font, color=color)


def _para(page: pymupdf.Page, x: float, y: float, width: float, text: str, size: float = 10.0,
          font: str = "tiro", lead: float = 1.25) -> float:
    """Greedy word-wrap of one paragraph; returns the baseline after the last line."""
    line = ""
    for word in text.split():
        probe = f"{line} {word}".strip()
        if pymupdf.get_text_length(probe, fontname=font, fontsize=size) > width and line:
            _t(page, x, y, line, size, font)
            y += size * lead
            line = word
        else:
            line = probe
    if line:
        _t(page, x, y, line, size, font)
        y += size * lead
    return y


# -- the scanner ------------------------------------------------------------------------------------------

def scan(src: pymupdf.Document, dpi: int, angle: float, paper: float, noise: int, seed: int,
         ocr_layer: bool = False) -> pymupdf.Document:
    """Each page of src as a scanned image: turned by angle degrees, on paper grey `paper` (0..1),
    with speckle noise of amplitude `noise`; the output page holds only the image (and, with
    ocr_layer, an invisible letter-spaced copy of the text)."""
    rng = np.random.default_rng(seed)
    out = pymupdf.open()
    for pno, spage in enumerate(src):
        w, h = spage.rect.width, spage.rect.height
        tmp = pymupdf.open()
        tpage = tmp.new_page(width=w, height=h)
        tpage.draw_rect(tpage.rect, color=None, fill=(paper, paper, paper * 0.97))
        tpage.show_pdf_page(tpage.rect, src, pno, rotate=angle)
        pix = tpage.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY)
        arr = np.frombuffer(pix.samples, dtype=np.uint8).reshape(pix.height, pix.stride)[:, : pix.width]
        arr = arr.astype(np.int16) + rng.integers(-noise, noise + 1, size=arr.shape, dtype=np.int16)
        specks = rng.random(arr.shape) < 0.0008
        arr[specks] = rng.integers(40, 140, size=int(specks.sum()))
        arr = np.clip(arr, 0, 255).astype(np.uint8)
        noisy = pymupdf.Pixmap(pymupdf.csGRAY, pix.width, pix.height, arr.tobytes(), False)
        png = noisy.tobytes("png")
        page = out.new_page(width=w, height=h)
        page.insert_image(page.rect, stream=png)
        if ocr_layer:
            _invisible_letter_spaced(page, spage)
    return out


def _invisible_letter_spaced(page: pymupdf.Page, spage: pymupdf.Page) -> None:
    """Put the source page's characters back as invisible text, one glyph at a time at its own
    x-position but in a font 15% smaller, as some scanner OCR layers do."""
    raw = spage.get_text("rawdict")
    for block in raw["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                size = span["size"] * 0.85
                for ch in span["chars"]:
                    if ch["c"].isspace():
                        continue
                    x0, _, _, _ = ch["bbox"]
                    page.insert_text((x0, ch["origin"][1]), ch["c"], fontsize=size, fontname="helv", render_mode=3)


# -- documents --------------------------------------------------------------------------------------------

def letter() -> pymupdf.Document:
    doc = pymupdf.open()
    p = doc.new_page(width=A4[0], height=A4[1])
    _t(p, A4[0] / 2, 70, "HARROWGATE VALVE COMPANY LTD", 18, "hebo", center=True)
    _t(p, A4[0] / 2, 88, "14 Mill Lane, Sheffield S3 8RT   ·   Telephone 0114 272 0391", 9, "helv", center=True)
    p.draw_line((60, 96), (535, 96), width=1.2)
    c = "cour"
    _t(p, 60, 135, "Our ref: HV/87/114", 10.5, c)
    _t(p, 400, 135, "12th March 1987", 10.5, c)
    y = 170
    for line in ["Mr. D. Okonkwo", "Purchasing Manager", "Bellweather Dairies Ltd", "Brunton Road", "Carlisle CA2 4PL"]:
        _t(p, 60, y, line, 10.5, c)
        y += 14
    y += 20
    _t(p, 60, y, "Dear Mr. Okonkwo,", 10.5, c)
    y += 24
    _t(p, 60, y, "Re: Stainless steel butterfly valves", 10.5, "cobo")
    y += 24
    body = [
        "Thank you for your enquiry of 2nd March. We are pleased to quote for forty",
        "DN80 stainless steel butterfly valves to your drawing BD-220 at a price of",
        "£38.50 each, ex works. Delivery would be six weeks from receipt of your order.",
        "",
        "A discount of 5 per cent applies to orders above 100 units. All valves are",
        "pressure tested to 16 bar before despatch and carry a twelve month guarantee.",
        "",
        "Should you wish to visit our works, our engineer Mr. Tom Haskey will be glad",
        "to show you the test bay. This quotation remains open for 60 days.",
    ]
    for line in body:
        if line:
            _t(p, 60, y, line, 10.5, c)
        y += 15
    y += 25
    _t(p, 60, y, "Yours faithfully,", 10.5, c)
    _t(p, 70, y + 38, "M. Ellison", 20, "tiit", color=BLUE_INK)
    _t(p, 60, y + 66, "Margaret Ellison", 10.5, c)
    _t(p, 60, y + 80, "Sales Director", 10.5, c)
    _t(p, A4[0] / 2, 800, "Registered in England No. 402281", 7, "helv", center=True)
    return doc


def article() -> pymupdf.Document:
    doc = pymupdf.open()
    p = doc.new_page(width=A4[0], height=A4[1])
    _t(p, 50, 40, "Journal of Freshwater Ecology, Vol. 12, No. 3 (1994), pp. 211-224", 8, "tiit")
    _t(p, A4[0] / 2, 80, "Winter survival of brown trout fry in upland streams", 16, "tibo", center=True)
    _t(p, A4[0] / 2, 100, "A. Lindqvist and R. Pemberton", 11, "tiro", center=True)
    _t(p, A4[0] / 2, 114, "Department of Zoology, University of Aberdeen", 9, "tiit", center=True)
    colw, lx, rx = 235, 50, 310
    left = [
        "Abstract. We surveyed fourteen streams in the Cairngorms between October 1991 and April 1992 to "
        "measure the overwinter survival of brown trout fry. Survival averaged 23 per cent across all "
        "streams and was highest in the Allt Mor, at 41 per cent.",
        "Introduction. The first winter is the main bottleneck in the life of a stream-dwelling trout. "
        "Fry that fail to find shelter among cobbles are swept downstream during spates, and anchor ice "
        "can strand them in side channels.",
        "Methods. Each stream was electrofished on three passes over a fixed 100 m reach in October and "
        "again in April. Fry were measured, and water temperature was logged every hour with a submerged "
        "recorder. Ice cover was recorded on each visit.",
    ]
    y = 150
    for para in left:
        y = _para(p, lx, y, colw, para, 9.5) + 6
    # the figure in the right column: four pairs of bars with axis
    fx0, fy0, fx1, fy1 = rx + 20, 150, rx + colw, 330
    p.draw_line((fx0, fy1), (fx1, fy1), width=0.8)
    p.draw_line((fx0, fy0), (fx0, fy1), width=0.8)
    before = [62, 48, 55, 70]
    after = [16, 9, 22, 29]
    names = ["Allt Mor", "Quoich", "Feshie", "Luibeg"]
    for i, (b, a) in enumerate(zip(before, after)):
        bx = fx0 + 12 + i * 50
        p.draw_rect(pymupdf.Rect(bx, fy1 - b * 2.2, bx + 16, fy1), color=(0, 0, 0), fill=(0.3, 0.3, 0.3))
        p.draw_rect(pymupdf.Rect(bx + 18, fy1 - a * 2.2, bx + 34, fy1), color=(0, 0, 0), fill=(0.85, 0.85, 0.85))
        _t(p, bx + 17, fy1 + 10, names[i], 6.5, "helv", center=True)
    y2 = _para(p, rx, fy1 + 28,  colw, "Figure 2. Fry density (fish per 100 m²) in October 1991 (dark) and "
               "April 1992 (light) in four streams.", 8.5, "tiit") + 10
    right = [
        "Results. Mean fry density fell from 58 to 19 fish per 100 m² over the winter (Fig. 2). Losses "
        "were greatest in the Quoich, where anchor ice formed on eleven mornings in January.",
        "Discussion. Streams with a stable cobble bed held their fry far better than those with shifting "
        "gravel. We recommend that habitat works in the catchment place boulder clusters in the lower "
        "reaches, where fry gather before the first spate.",
    ]
    for para in right:
        y2 = _para(p, rx, y2, colw, para, 9.5) + 6
    _t(p, A4[0] / 2, 810, "211", 9, "tiro", center=True)
    return doc


def donations() -> pymupdf.Document:
    doc = pymupdf.open()
    p = doc.new_page(width=A4[0], height=A4[1])
    _t(p, A4[0] / 2, 70, "LITTLE HASWELL VILLAGE HALL RESTORATION APPEAL", 13, "tibo", center=True)
    _t(p, A4[0] / 2, 88, "Donations received to 31st December 1978", 10, "tiit", center=True)
    rows = [
        ("Donor", "Address", "Amount (£)"),
        ("Mrs. E. Throssell", "Upper Weald Farm", "25.00"),
        ("Mr. and Mrs. K. Barraclough", "The Old Forge", "40.00"),
        ("Capt. H. Rudge", "Haswell Grange", "150.00"),
        ("Miss P. Oddie", "2 Church Cottages", "5.50"),
        ("The Women's Institute", "Haswell Branch", "62.75"),
        ("Mr. S. Nkemelu", "Brook House", "30.00"),
        ("Dr. A. Fairbairn", "The Surgery, Main Street", "75.00"),
        ("Haswell Cricket Club", "Pavilion, Long Meadow", "18.20"),
        ("Mr. J. Pybus", "Mill End", "12.00"),
        ("Anonymous", "", "100.00"),
    ]
    y = 130
    for i, (name, addr, amt) in enumerate(rows):
        font = "tibo" if i == 0 else "tiro"
        _t(p, 70, y, name, 10.5, font)
        _t(p, 270, y, addr, 10.5, font)
        _t(p, 520, y, amt, 10.5, font, right=True)
        y += 20 if i == 0 else 17
    y += 10
    _t(p, 270, y, "Total", 10.5, "tibo")
    _t(p, 520, y, "518.45", 10.5, "tibo", right=True)
    y += 40
    _para(p, 70, y, 450, "The committee thanks all who have given. The roof repairs quoted by Messrs. Allinson "
          "of Stokesley at £1,200 remain the first charge on the fund.", 10, "tiro")
    return doc


def permit_form() -> pymupdf.Document:
    doc = pymupdf.open()
    p = doc.new_page(width=A4[0], height=A4[1])
    _t(p, A4[0] / 2, 60, "LOUGH ARROW ANGLERS' ASSOCIATION", 14, "hebo", center=True)
    _t(p, A4[0] / 2, 80, "APPLICATION FOR A FISHING PERMIT", 12, "helv", center=True)
    _t(p, 60, 105, "Please complete in BLOCK CAPITALS and return with the fee to the Secretary.", 8.5, "helv")

    def box(label: str, y: float, value: str, x: float = 60, w: float = 475) -> None:
        _t(p, x, y, label, 8, "helv")
        p.draw_rect(pymupdf.Rect(x, y + 4, x + w, y + 26), color=(0, 0, 0), width=0.7)
        if value:
            _t(p, x + 8, y + 20, value, 13, "tiit", color=BLUE_INK)

    box("1. Surname", 130, "DEVLIN", w=220)
    box("2. Forenames", 130, "Patrick Joseph", x=300, w=235)
    box("3. Date of birth (dd/mm/yyyy)", 175, "03/07/1961", w=220)
    box("4. Telephone", 175, "", x=300, w=235)
    box("5. Address", 220, "7 Rockview Terrace, Boyle, Co. Roscommon")
    _t(p, 60, 275, "6. Permit type (tick one)", 8, "helv")
    for i, (name, ticked) in enumerate([("Season", True), ("Week", False), ("Day", False)]):
        bx = 70 + i * 120
        p.draw_rect(pymupdf.Rect(bx, 283, bx + 12, 295), color=(0, 0, 0), width=0.7)
        _t(p, bx + 18, 293, name, 9, "helv")
        if ticked:
            _t(p, bx + 1, 294, "X", 12, "tiit", color=BLUE_INK)
    box("7. Boat number (if hiring)", 315, "B-17", w=220)
    box("8. Fee paid (EUR)", 315, "45", x=300, w=235)
    box("9. Previous permit number, if any", 360, "LA-2291", w=220)
    _t(p, 60, 420, "I agree to abide by the rules of the Association and the Fisheries Acts.", 8.5, "helv")
    _t(p, 60, 450, "Signature", 8, "helv")
    _t(p, 110, 452, "P. J. Devlin", 16, "tiit", color=BLUE_INK)
    _t(p, 300, 450, "Date", 8, "helv")
    _t(p, 330, 452, "22/04/1998", 13, "tiit", color=BLUE_INK)
    p.draw_line((60, 480), (535, 480), width=0.5, dashes="[3] 0")
    _t(p, 60, 498, "FOR OFFICE USE ONLY", 8, "hebo")
    _t(p, 60, 515, "Permit issued no.", 8, "helv")
    _t(p, 140, 517, "3068", 12, "tiit", color=BLUE_INK)
    _t(p, 300, 515, "Checked by", 8, "helv")
    return doc


def water_report() -> pymupdf.Document:
    doc = pymupdf.open()
    header = "Tarn Valley Water Board  —  Annual Report 2003"
    pages = [
        ("1. Summary",
         ["In 2003 the Board supplied 18.4 million cubic metres of treated water to its district, a rise "
          "of 2 per cent on the year before, despite a dry summer in which reservoir stocks fell to their "
          "lowest since 1976.",
          "No hosepipe ban was needed. The Board met every drinking water standard at all four treatment "
          "works, and no boil-water notice was issued."]),
        ("2. Leakage and reservoirs",
         ["Active leakage control continued through the year. Leakage was reduced to 11.2 per cent of "
          "water put into supply, against a target of 12 per cent agreed with the regulator.",
          "Hollins Reservoir, the largest of the Board's three impounding reservoirs, has a capacity of "
          "2.6 million cubic metres. Its draw-off tower was inspected by divers in May and found sound.",
          "Stock at Black Moss Reservoir was low in September, and water was transferred from Hollins "
          "for nine weeks."]),
        ("3. Capital works and staff",
         ["Capital spending in the year was £3.1 million, most of it on the new slow sand filters at "
          "Fellside treatment works, which entered service in October.",
          "Dr. Colin Ashby, Chief Engineer since 1995, retired in December after 31 years with the Board. "
          "He is succeeded by Mrs. Ruth Okafor, formerly Distribution Manager."]),
    ]
    for i, (heading, paras) in enumerate(pages):
        p = doc.new_page(width=A4[0], height=A4[1])
        _t(p, 60, 40, header, 8.5, "helv")
        _t(p, 535, 40, f"Page {i + 1}", 8.5, "helv", right=True)
        p.draw_line((60, 46), (535, 46), width=0.5)
        y = 90
        if i == 0:
            _t(p, A4[0] / 2, 120, "TARN VALLEY WATER BOARD", 20, "hebo", center=True)
            _t(p, A4[0] / 2, 145, "Report and Accounts for the year ended 31 December 2003", 11, "helv", center=True)
            y = 200
        _t(p, 60, y, heading, 12, "hebo")
        y += 22
        for para in paras:
            y = _para(p, 60, y, 475, para, 11, "tiro") + 10
    return doc


def gazette() -> pymupdf.Document:
    doc = pymupdf.open()
    p = doc.new_page(width=LETTER[0], height=LETTER[1])
    _t(p, LETTER[0] / 2, 50, "THE WESTMORLAND GAZETTE", 22, "tibo", center=True)
    _t(p, LETTER[0] / 2, 66, "KENDAL, SATURDAY, JUNE 14, 1862.          PRICE TWOPENCE.", 7.5, "tiro", center=True)
    p.draw_line((40, 72), (572, 72), width=0.6)
    p.draw_line((40, 74), (572, 74), width=0.3)
    items = [
        ("KENDAL CATTLE FAIR.",
         "The summer fair was held on Monday last in fine weather. Upwards of 900 head of cattle were shown, "
         "chiefly Shorthorns from the dales, and business was brisk in the forenoon. Good milch cows "
         "fetched from £12 to £18 a head; stirks were dull of sale. The horse fair in Stricklandgate "
         "was thinly attended."),
        ("FIRE AT BURNESIDE.",
         "On Wednesday night a fire broke out in the rag-house of Messrs. Cropper's paper mill at Burneside, "
         "and was not got under until the engine arrived from Kendal. The damage is estimated at £2,400, "
         "which is covered by insurance. Happily no lives were lost."),
        ("HEVERSHAM GRAMMAR SCHOOL.",
         "The governors have appointed Mr. Josiah Fell, B.A., of Queen's College, Oxford, to the mastership "
         "of the grammar school at Heversham, vacant by the death of the Rev. W. Dawes."),
        ("THE WEATHER.",
         "The rainfall at Kendal for May was 3.41 inches, against an average of 4.02 inches for the month."),
        ("LAKE STEAMER.",
         "The new iron steamer Rothay will commence sailing on Windermere on the 20th instant, calling at "
         "Bowness, Lowwood and Ambleside twice daily."),
    ]
    colw = 160
    xs = [40, 226, 412]
    y, col = 90, 0
    for head, body in items:
        if y > 700:
            col, y = col + 1, 90
        _t(p, xs[col] + colw / 2, y, head, 7.5, "tibo", center=True)
        y = _para(p, xs[col], y + 11, colw, body, 7, "tiro", lead=1.18) + 8
    return doc


DOCS = [
    # name, builder, dpi, angle, paper grey, noise, OCR layer
    ("harrowgate-letter-1987.pdf", letter, 200, 0.8, 0.93, 10, False),
    ("trout-fry-survival-1994.pdf", article, 300, -1.5, 0.95, 8, False),
    ("village-hall-donations-1978.pdf", donations, 150, 0.5, 0.88, 14, False),
    ("fishing-permit-application.pdf", permit_form, 200, -1.0, 0.92, 10, False),
    ("tarn-valley-water-2003.pdf", water_report, 250, 0.6, 0.96, 6, True),
    ("westmorland-gazette-1862.pdf", gazette, 300, 2.0, 0.86, 12, False),
]


def main(argv: list[str]) -> None:
    out = Path(argv[0] if argv else Path.home() / ".cache/pagelens-scans/pdfs")
    out.mkdir(parents=True, exist_ok=True)
    random.seed(7)
    for i, (name, build, dpi, angle, paper, noise, layer) in enumerate(DOCS):
        src = build()
        scan(src, dpi, angle, paper, noise, seed=i, ocr_layer=layer).save(out / name, garbage=3, deflate=True)
        print(out / name)


if __name__ == "__main__":
    main(sys.argv[1:])
