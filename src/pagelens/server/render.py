"""Page images for the browser: a page rendered to PNG (cached), with boxes drawn on request.

MuPDF is not thread-safe, so renders in this process take one lock (parsing runs in the ingest's
child process). Renders are kept in a small LRU keyed by (doc, page, scale); highlight boxes are
drawn on a copy with Pillow, so a highlighted page costs no new render.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from pathlib import Path

from pagelens.errors import DocumentError, NotFoundError

MIN_SCALE, MAX_SCALE = 0.25, 4.0
MAX_BOXES = 50
HIGHLIGHT_FILL = (255, 200, 0, 90)
HIGHLIGHT_LINE = (230, 120, 0, 220)


def parse_boxes(spec: str | None) -> list[tuple[float, float, float, float]]:
    """``x0,y0,x1,y1;x0,y0,x1,y1`` → boxes; ValueError with a readable message when malformed."""
    if not spec:
        return []
    boxes = []
    for part in [p for p in spec.split(";") if p.strip()][:MAX_BOXES]:
        nums = part.split(",")
        if len(nums) != 4:
            raise ValueError(f"highlight box {part!r}: expected x0,y0,x1,y1")
        try:
            x0, y0, x1, y1 = (float(n) for n in nums)
        except ValueError:
            raise ValueError(f"highlight box {part!r}: not numbers") from None
        boxes.append((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
    return boxes


class PageRenderer:
    def __init__(self, cache_size: int = 64) -> None:
        self.cache_size = cache_size
        self._cache: OrderedDict[tuple[str, int, float], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def size(self, path: Path, page: int) -> tuple[float, float]:
        import pymupdf

        with self._lock, self._open(path) as pdf:
            self._check(pdf, path, page)
            rect = pdf[page - 1].rect
            return float(rect.width), float(rect.height)

    def png(self, doc_id: str, path: Path, page: int, scale: float = 1.5,
            boxes: list[tuple[float, float, float, float]] | None = None) -> bytes:
        scale = min(MAX_SCALE, max(MIN_SCALE, float(scale)))
        key = (doc_id, page, round(scale, 3))
        with self._lock:
            base = self._cache.get(key)
            if base is not None:
                self._cache.move_to_end(key)
            else:
                base = self._render(path, page, scale)
                if self.cache_size:
                    self._cache[key] = base
                    while len(self._cache) > self.cache_size:
                        self._cache.popitem(last=False)
        return highlight(base, boxes, scale) if boxes else base

    def forget(self, doc_id: str) -> None:
        with self._lock:
            for key in [k for k in self._cache if k[0] == doc_id]:
                del self._cache[key]

    def _render(self, path: Path, page: int, scale: float) -> bytes:
        import pymupdf

        with self._open(path) as pdf:
            self._check(pdf, path, page)
            pix = pdf[page - 1].get_pixmap(matrix=pymupdf.Matrix(scale, scale), alpha=False)
            return pix.tobytes("png")

    @staticmethod
    def _open(path: Path):  # type: ignore[no-untyped-def]
        import pymupdf

        if not path.is_file():
            raise NotFoundError(f"{path.name}: the original file is gone ({path}); ingest it again")
        try:
            return pymupdf.open(path)
        except Exception as exc:  # translate at the boundary
            raise DocumentError(f"cannot open for rendering ({exc})", file=path, stage="render") from None

    @staticmethod
    def _check(pdf, path: Path, page: int) -> None:  # type: ignore[no-untyped-def]
        if not 1 <= page <= pdf.page_count:
            raise NotFoundError(f"{path.name} has pages 1..{pdf.page_count}, not {page}")


def highlight(png: bytes, boxes: list[tuple[float, float, float, float]], scale: float) -> bytes:
    from PIL import Image, ImageDraw

    img = Image.open(io.BytesIO(png)).convert("RGBA")
    overlay = Image.new("RGBA", img.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(overlay)
    for x0, y0, x1, y1 in boxes:
        rect = [x0 * scale, y0 * scale, x1 * scale, y1 * scale]
        draw.rectangle(rect, fill=HIGHLIGHT_FILL, outline=HIGHLIGHT_LINE, width=max(1, round(scale)))
    out = io.BytesIO()
    Image.alpha_composite(img, overlay).convert("RGB").save(out, format="PNG")
    return out.getvalue()
