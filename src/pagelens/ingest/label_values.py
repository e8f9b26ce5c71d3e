"""A label and the amounts set on its line, read by the text layer as separate blocks, joined into one
``label: values`` line (a bill's or a statement's items: "Contrib. Custeio Ilum Pública: 861,60").

``text.extract_text`` applies ``join_label_values`` to a page's text elements last.
"""

from __future__ import annotations

import re

from pagelens.models import Element, ElementKind

AMOUNT = re.compile(r"^[-+\u2212(]?(?:[$€£R]{1,2}\$?\s?)?\d[\d.,]*%?\)?$")
"""A value set on its own: "861,60", "-2.738,20", "17.233,37", "30%", "(1,204)", "R$ 91,33"."""
LABEL_WORDS = 8  # a label a value line can belong to is at most this many words
MIN_ITEMS = 3  # label-and-amount lines whose amounts line up, for any of them to be joined
ALIGN_PT = 2.0  # points: amounts this close at their right (or left) edge line up
LINE_SHARE = 0.5  # a value's vertical extent overlaps its label's line by this share of the smaller height


def _amounts(el: Element) -> bool:
    toks = el.text.split()
    return el.kind == ElementKind.TEXT and 0 < len(toks) <= 4 and all(AMOUNT.match(t) for t in toks) \
        and "\n" not in el.text.strip()


def _one_line(el: Element, size: float) -> bool:
    return el.bbox[3] - el.bbox[1] <= 1.6 * max(size, 1.0) and "\n" not in el.text.strip()


def join_label_values(els: list[Element]) -> list[Element]:
    """A label and the values set on its line to the right of it, as separate blocks of the text layer
    (a bill's or a statement's items: "Contrib. Custeio Ilum Pública ... 861,60", "Energia Elétrica kWh
    5.253 17.880 0,96383639 17.233,37"), are one ``label: values`` line, as a form's fields are: each
    value alone says nothing of what it is, and the label reads as a heading. A value joins the nearest label to its left on its line when no other
    words stand between them; a label is a short line with letters (``LABEL_WORDS``), a value a line of
    at most four amounts (``AMOUNT``)."""
    els_b = [e for e in els if e.bbox is not None]
    labels = [e for e in els_b if e.kind in (ElementKind.TEXT, ElementKind.HEADING) and re.search(r"[^\W\d_]", e.text)
              and len(e.text.split()) <= LABEL_WORDS and _one_line(e, float(e.attrs.get("size") or 0))]
    if not labels:
        return els
    values = [e for e in els_b if _amounts(e)]
    words = [e for e in els_b if e.kind not in (ElementKind.PAGE_HEADER, ElementKind.PAGE_FOOTER)
             and re.search(r"[^\W\d_]", e.text)]
    joined: dict[int, list[Element]] = {}
    for v in values:
        vy0, vy1 = v.bbox[1], v.bbox[3]

        def on_line(e: Element) -> bool:
            overlap = min(vy1, e.bbox[3]) - max(vy0, e.bbox[1])
            return overlap >= LINE_SHARE * min(vy1 - vy0, e.bbox[3] - e.bbox[1]) > 0

        left = [e for e in labels if e.bbox[2] <= v.bbox[0] and on_line(e)]
        if not left:
            continue
        label = max(left, key=lambda e: e.bbox[2])
        if any(w is not label and label.bbox[2] <= w.bbox[0] and w.bbox[2] <= v.bbox[0] and on_line(w) for w in words):
            continue  # other words between them: the value is theirs (another column's)
        joined.setdefault(id(label), [label]).append(v)
    # Items come in a list whose amounts line up (flush right, or left) under each other; a lone label and
    # number that happen to share a line (a heading beside a chart's tick, a note beside a page's count)
    # are no item.
    lined = [v for group in joined.values() for v in group[1:]]

    def aligned(v: Element) -> bool:
        return sum(abs(w.bbox[2] - v.bbox[2]) <= ALIGN_PT or abs(w.bbox[0] - v.bbox[0]) <= ALIGN_PT for w in lined) >= MIN_ITEMS

    joined = {k: group for k, group in joined.items() if any(aligned(v) for v in group[1:])}
    if not joined:
        return els
    gone = {id(v) for group in joined.values() for v in group[1:]}
    out: list[Element] = []
    for e in els:
        if id(e) in gone:
            continue
        group = joined.get(id(e))
        if group:
            vals = sorted(group[1:], key=lambda v: v.bbox[0])
            name = e.text.strip()
            text = f"{name}{'' if name.endswith(':') else ':'} {' '.join(v.text.strip() for v in vals)}"
            bbox = (min(x.bbox[0] for x in group), min(x.bbox[1] for x in group),
                    max(x.bbox[2] for x in group), max(x.bbox[3] for x in group))
            e = e.model_copy(update={"kind": ElementKind.TEXT, "text": text, "bbox": bbox, "level": None})
        out.append(e)
    return out
