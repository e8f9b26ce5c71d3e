"""Pages with raster figures whose words exist only in the image."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from .layout import H, W, Column, caption, lorem

# -- raster figures ------------------------------------------------------------------------------------
RASTER_WORDS = (("Woodlot", "Pasture", "Orchard"), ("Harbour", "Lighthouse", "Quarry"))
"""The words drawn inside the image on page 1 and page 2 (nowhere in the text layer)."""


def _raster_chart(words: tuple[str, ...], bars: bool) -> bytes:
    """A PNG (150 dpi) of a bar chart or a sketch map, labelled with ``words``."""
    with pymupdf.open() as tmp:
        page = tmp.new_page(width=300, height=200)
        page.draw_rect(page.rect, color=None, fill=(1, 1, 1))
        if bars:
            for i, h in enumerate((120, 70, 150)):
                page.draw_rect(pymupdf.Rect(30 + i * 90, 170 - h, 90 + i * 90, 170), color=(0, 0, 0), fill=(0.4, 0.6, 0.3))
                page.insert_text((28 + i * 90, 190), words[i], fontname="hebo", fontsize=14)
        else:
            page.draw_bezier((10, 185), (80, 160), (200, 195), (290, 150), color=(0.2, 0.3, 0.9), width=4)  # the coast
            for i, (x, y) in enumerate(((20, 30), (110, 70), (170, 110))):
                page.draw_circle((x + 4, y + 8), 4, color=(0, 0, 0), fill=(0.9, 0.2, 0.2))
                page.insert_text((x + 12, y + 12), words[i], fontname="hebo", fontsize=14)
        return page.get_pixmap(dpi=150).tobytes("png")


def raster_figures_pdf(path: Path | None = None) -> bytes:
    """Two pages of running text, each with one raster figure and its caption below."""
    doc = pymupdf.open()
    for n, (words, title) in enumerate(zip(RASTER_WORDS, ("Land use by parcel.", "Sites along the coast.")), start=1):
        page = doc.new_page(width=W, height=H)
        Column(page, (72, 540), 60).para(lorem("the survey", 6))
        page.insert_image(pymupdf.Rect(156, 200, 456, 400), stream=_raster_chart(words, bars=n == 1))
        caption(page, (72, 540), 410, f"Figure {n}: {title}")
        Column(page, (72, 540), 460).para(lorem("the parcels", 8))
    data = doc.tobytes(garbage=3, deflate=True)
    if path is not None:
        path.write_bytes(data)
    return data
