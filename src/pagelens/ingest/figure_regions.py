"""Where the figures of a page are: raster images and vector paths clustered into regions.

A chart drawn as vectors is hundreds of separate paths (axes, ticks, curve segments, markers) and a
diagram is boxes and arrows; a photo may be tiled into many small images. All of them become one list
of graphic items (rectangle + raster/vector), merged into clusters of items that touch or nearly
touch, then clusters that are clearly not figures are dropped: rules and frames, boxes around text,
page backgrounds, table grids (inside regions already claimed by tables) and anything smaller than
``min_figure_area``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pymupdf


@dataclass
class Region:
    rect: pymupdf.Rect
    raster_area: float = 0.0
    paths: int = 0
    shapes: set[str] = field(default_factory=set)  # item kinds seen: re, l, c, qu, image


Box = tuple[float, float, float, float]


def _area(b: Box) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def _inter(a: Box, b: Box) -> Box:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _contains(a: Box, b: Box) -> bool:
    return a[0] <= b[0] and a[1] <= b[1] and a[2] >= b[2] and a[3] >= b[3]


def _merge_boxes(boxes: list[Box], tol: float) -> list[list[int]]:
    """Groups of indices whose boxes (grown by ``tol``) overlap, transitively. Grid-bucketed union-find
    over plain tuples (a chart has a thousand paths; pymupdf.Rect arithmetic would dominate)."""
    parent = list(range(len(boxes)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    cell = 40.0
    buckets: dict[tuple[int, int], list[int]] = {}
    for i, r in enumerate(boxes):
        g = (r[0] - tol, r[1] - tol, r[2] + tol, r[3] + tol)
        seen: set[int] = set()
        for gx in range(int(g[0] // cell), int(g[2] // cell) + 1):
            for gy in range(int(g[1] // cell), int(g[3] // cell) + 1):
                for j in buckets.get((gx, gy), ()):
                    if j in seen:
                        continue
                    seen.add(j)
                    o = boxes[j]
                    if o[0] <= g[2] and o[2] >= g[0] and o[1] <= g[3] and o[3] >= g[1]:
                        parent[find(j)] = find(i)
                buckets.setdefault((gx, gy), []).append(i)
    groups: dict[int, list[int]] = {}
    for i in range(len(boxes)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _clip_to_frame(r: Box, frames: list[Box]) -> Box:
    """An image or path placed larger than the frame drawn around it is shown clipped to that frame.

    Boxes are reported unclipped; a photo cropped to a panel would otherwise reach into the next
    column and join figures that are apart on the page. A frame much smaller than the item (a
    highlight drawn on a screenshot) does not clip it.
    """
    area = _area(r)
    if area <= 0:
        return r
    around = [
        f for f in frames
        if not _contains(f, r) and _area(_inter(f, r)) >= 0.4 * area and _area(f) >= 0.3 * area
    ]
    return _inter(r, min(around, key=_area)) if around else r


def graphic_regions(
    page: pymupdf.Page,
    drawings: list[dict[str, Any]],
    blocked: list[pymupdf.Rect],
    min_area: float,
    has_text: bool,
    prose: list[pymupdf.Rect] = (),  # type: ignore[assignment]
) -> list[Region]:
    """Candidate figure regions, top to bottom. ``blocked`` regions (tables) contribute no items;
    ``prose`` (boxes of running-text lines) keeps figures in different page columns apart."""
    prose = list(prose)
    pr = tuple(page.rect)
    pw, ph = pr[2] - pr[0], pr[3] - pr[1]
    blocks = [tuple(b) for b in blocked]
    items: list[tuple[Box, frozenset[str], float]] = []
    frames: list[Box] = [
        tuple(p["rect"]) for p in drawings  # type: ignore[misc]
        if p.get("type") == "s" and p["rect"][2] - p["rect"][0] >= 40 and p["rect"][3] - p["rect"][1] >= 40
    ]
    for info in page.get_image_info(xrefs=False):
        r = _inter(_clip_to_frame(tuple(info["bbox"]), frames), pr)  # type: ignore[arg-type]
        if r[2] <= r[0] or r[3] <= r[1] or (has_text and _area(r) >= 0.9 * pw * ph):
            continue  # empty, or a page-size background behind real text
        items.append((r, frozenset({"image"}), _area(r)))
    for path in drawings:
        r = tuple(path["rect"])
        if not all(abs(v) < 1e6 for v in r) or r[2] - r[0] >= 0.9 * pw or r[3] - r[1] >= 0.9 * ph:
            continue  # infinite, or a background / page-wide rule
        if frames and path.get("type") != "s":
            r = _clip_to_frame(r, frames)  # type: ignore[arg-type]
        r = _inter(r, pr)  # type: ignore[arg-type]
        if r[2] < r[0] or r[3] < r[1]:
            continue
        cx, cy = (r[0] + r[2]) / 2, (r[1] + r[3]) / 2
        if any(b[0] <= cx <= b[2] and b[1] <= cy <= b[3] for b in blocks):
            continue
        fill = path.get("fill")
        if path.get("type") == "f" and fill is not None and all(c > 0.97 for c in fill):
            continue  # white paint (erasing) is not drawing
        items.append((r, frozenset(it[0] for it in path.get("items", ())), 0.0))
    regions: list[Region] = []
    for group in _merge_boxes([it[0] for it in items], tol=5.0):
        boxes = [items[i][0] for i in group]
        reg = Region(rect=pymupdf.Rect(
            min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes)
        ))
        for i in group:
            _, kinds, raster = items[i]
            reg.raster_area += raster
            reg.paths += "image" not in kinds
            reg.shapes |= kinds
        regions.append(reg)
    keep = [r for r in _join_parts(regions, prose) if _figure_like(r, min_area)]
    return sorted(keep, key=lambda r: (r.rect.y0, r.rect.x0))


def _join_parts(regions: list[Region], prose: list[pymupdf.Rect], tol: float = 12.0) -> list[Region]:
    """Second pass: join parts of one figure a little further apart (two panels, a legend beside a
    plot), unless the joined box would cover running text (two figures in two page columns)."""
    regions = sorted(regions, key=lambda r: -abs(r.rect))
    changed = True
    while changed:
        changed = False
        for i, a in enumerate(regions):
            grown = pymupdf.Rect(a.rect.x0 - tol, a.rect.y0 - tol, a.rect.x1 + tol, a.rect.y1 + tol)
            for j in range(i + 1, len(regions)):
                b = regions[j]
                if not grown.intersects(b.rect):
                    continue
                union = a.rect | b.rect
                if any(union.contains((p.tl + p.br) / 2) and not a.rect.intersects(p) and not b.rect.intersects(p)
                       for p in prose):
                    continue
                a.rect, a.raster_area, a.paths = union, a.raster_area + b.raster_area, a.paths + b.paths
                a.shapes |= b.shapes
                del regions[j]
                changed = True
                break
            if changed:
                break
    return regions


def _figure_like(reg: Region, min_area: float) -> bool:
    r = reg.rect
    if abs(r) < min_area or r.width < 20 or r.height < 20:
        return False  # too small, or a rule
    if reg.raster_area >= 0.25 * abs(r):
        return True  # a picture (with or without drawings on it)
    # Vector only: a handful of paths is a frame, a shaded box or a rule, not a figure.
    return reg.paths >= 8
