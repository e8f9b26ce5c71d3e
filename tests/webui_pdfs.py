"""PDFs built with PyMuPDF for the report and web-UI tests: text, an outline, a drawn table, a chart."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pdfs.layout import grid_table

XSS_TITLE = "<script>window.__pwned=1</script> Evil <img src=x onerror=\"window.__pwned=2\"> title"
XSS_BODY = [
    "Hostile text <script>window.__pwned=3</script> sits in this paragraph.",
    "An image tag <img src=x onerror=\"window.__pwned=4\"> is only text here.",
    "A link javascript:window.__pwned=5 must stay inert.",
]


def _table(page: pymupdf.Page, top: float, rows: list[list[str]], caption: str) -> None:
    grid_table(page, top, rows, caption, widths=(150, 100, 100))


def _chart(page: pymupdf.Page) -> None:
    page.draw_line((100, 600), (100, 400))  # y axis
    page.draw_line((100, 600), (400, 600))  # x axis
    for y in range(420, 600, 40):  # ticks
        page.draw_line((96, y), (100, y))
    page.insert_text((70, 500), "Birds", fontsize=9)
    for i, h in enumerate([120, 60, 160, 90]):
        page.draw_rect(pymupdf.Rect(120 + i * 70, 600 - h, 160 + i * 70, 600), color=(0, 0, 0), fill=(0.2, 0.4, 0.8))
        page.insert_text((125 + i * 70, 615), f"Q{i + 1}", fontsize=9)
    page.insert_text((100, 640), "Figure 1: Quarterly zebrafinch sightings.", fontsize=10)


def build_sample_pdf(path: Path, *, title: str = "Zebrafinch field survey", hostile: bool = False) -> Path:
    """Two pages: a heading and prose with a known fact, a drawn table (page 1); a bar chart (page 2)."""
    doc = pymupdf.open()
    p1 = doc.new_page()
    p1.insert_text((72, 72), "Zebrafinch survey results", fontsize=16)
    lines = [
        "The zebrafinch survey counted 412 birds at the northern marsh in April.",
        "Observers walked the same transect every morning for three weeks.",
        "Weather was mild and the wind stayed below ten knots on most days.",
    ]
    if hostile:
        lines += XSS_BODY
    for i, line in enumerate(lines):
        p1.insert_text((72, 110 + i * 16), line, fontsize=10)
    if hostile:
        p1.insert_link({"kind": pymupdf.LINK_URI, "from": pymupdf.Rect(72, 140, 300, 152), "uri": "javascript:window.__pwned=6"})
    _table(p1, 320, [["Site", "Birds", "Days"], ["northern marsh", "412", "21"], ["south lake", "<b>87</b>", "14"]],
           "Table 1: Birds counted per site")
    p2 = doc.new_page()
    p2.insert_text((72, 72), "Seasonal pattern", fontsize=16)
    p2.insert_text((72, 110), "Sightings peak in the third quarter of the year.", fontsize=10)
    _chart(p2)
    doc.set_metadata({"title": title, "author": "Field Team <b>A</b>"})
    doc.set_toc([[1, "Zebrafinch survey results", 1], [2, "Seasonal pattern", 2]])
    path.write_bytes(doc.tobytes())
    return path
