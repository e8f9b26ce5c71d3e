"""Build the slides bench set: six slide-deck PDFs, written with PyMuPDF, for
bench/data/slides-questions.jsonl.

    .venv/bin/python bench/slides_build.py ~/.cache/pagelens-slides/pdfs
    .venv/bin/python bench/realdocs.py --no-naive --answers --misses --pdfs ~/.cache/pagelens-slides/pdfs \
        --questions bench/data/slides-questions.jsonl

The decks are made the way beamer and PowerPoint leave them: landscape pages (4:3 beamer at 364 x 273
points, 16:9 PowerPoint exports at 720 x 405 and 960 x 540); a title slide with talk title, author,
affiliation and date; an outline; section divider slides; a title bar (filled band, light text) over
bullet points with sub-bullets (drawn triangles, bullet glyphs, dashes); two-column slides; a small
table of numbers; vector bar and line charts with labelled axes and value labels; an equation-like line;
footers repeating the author, the talk's short title and the slide number on every page; a "Thank you /
Questions?" slide; and a deck of incremental overlays (the same slide repeated with one more bullet on
each page, as beamer's \\pause leaves them).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pymupdf

BEAMER = (364.0, 273.0)
PPT = (720.0, 405.0)
PPT_LARGE = (960.0, 540.0)
NAVY = (0.12, 0.18, 0.35)
TEAL = (0.0, 0.40, 0.45)
GREY = (0.35, 0.35, 0.35)
WHITE = (1, 1, 1)
BLACK = (0, 0, 0)


def _t(page: pymupdf.Page, x: float, y: float, text: str, size: float, bold: bool = False,
       color: tuple = BLACK, right: bool = False, center: bool = False) -> None:
    font = "hebo" if bold else "helv"
    if right or center:
        w = pymupdf.get_text_length(text, fontname=font, fontsize=size)
        x = x - w if right else x - w / 2
    page.insert_text((x, y), text, fontsize=size, fontname=font, color=color)


class Deck:
    """One deck: page size, title-bar style and the footer every slide repeats."""

    def __init__(self, size: tuple[float, float], bar: tuple | None, footer: str, numbering: str = "n / N",
                 bullet: str = "triangle"):
        self.doc = pymupdf.open()
        self.w, self.h = size
        self.bar = bar
        self.footer = footer  # "beamer3:left|center|right" or "ppt:left"
        self.numbering = numbering
        self.bullet = bullet
        self.number_of: list[int] = []
        self.count = 0

    @property
    def s(self) -> float:
        """Font scale: 1 on a beamer page, larger on PowerPoint pages."""
        return self.w / BEAMER[0]

    def slide(self, title: str | None, number: bool = True, same_number: bool = False) -> pymupdf.Page:
        page = self.doc.new_page(width=self.w, height=self.h)
        if not same_number:
            self.count += 1
        self.number_of.append(self.count if number else 0)
        if title is not None:
            s = self.s
            if self.bar is not None:
                page.draw_rect(pymupdf.Rect(0, 0, self.w, 30 * s), color=None, fill=self.bar)
                _t(page, 12 * s, 20 * s, title, 13 * s, bold=False, color=WHITE)
            else:
                _t(page, 14 * s, 24 * s, title, 14 * s, bold=True, color=NAVY)
                page.draw_line((14 * s, 30 * s), (self.w - 14 * s, 30 * s), color=TEAL, width=0.8)
        return page

    def bullets(self, page: pymupdf.Page, items: list, y: float | None = None, x: float | None = None,
                size: float = 10.0, gap: float = 15.0) -> float:
        s = self.s
        x = 20 * s if x is None else x
        y = 52 * s if y is None else y
        for item in items:
            text, subs = (item, []) if isinstance(item, str) else item
            self._mark(page, x, y, size * s, 0)
            _t(page, x + 11 * s, y, text, size * s)
            y += gap * s
            for sub in subs:
                self._mark(page, x + 14 * s, y, size * s * 0.85, 1)
                _t(page, x + 24 * s, y, sub, size * s * 0.85)
                y += gap * s * 0.88
        return y

    def _mark(self, page: pymupdf.Page, x: float, y: float, size: float, level: int) -> None:
        if self.bullet == "triangle":
            h = size * 0.42
            top = y - size * 0.55
            if level == 0:
                page.draw_polyline([(x, top), (x + h, top + h / 2), (x, top + h), (x, top)], color=None, fill=TEAL,
                                   closePath=True)
            else:
                page.draw_circle((x + h / 2, top + h / 2), h / 2.6, color=None, fill=TEAL)
        elif self.bullet == "glyph":
            _t(page, x, y, "\u2022" if level == 0 else "\u2013", size)
        else:
            _t(page, x, y, "-" if level == 0 else "\u00bb", size)

    def finish(self, path: Path, title: str, author: str) -> None:
        total = self.count
        s = self.s
        for i, n in enumerate(self.number_of):
            page = self.doc[i]
            if self.footer.startswith("beamer3:"):
                left, center, right = self.footer[len("beamer3:"):].split("|")
                y0 = self.h - 9
                third = self.w / 3
                page.draw_rect(pymupdf.Rect(0, y0, third, self.h), color=None, fill=NAVY)
                page.draw_rect(pymupdf.Rect(third, y0, 2 * third, self.h), color=None, fill=(0.2, 0.3, 0.5))
                page.draw_rect(pymupdf.Rect(2 * third, y0, self.w, self.h), color=None, fill=(0.3, 0.4, 0.6))
                _t(page, third / 2, self.h - 2.6, left, 5.2, color=WHITE, center=True)
                _t(page, 1.5 * third, self.h - 2.6, center, 5.2, color=WHITE, center=True)
                label = right + ("    " + f"{n} / {total}" if n else "")
                _t(page, self.w - 6, self.h - 2.6, label, 5.2, color=WHITE, right=True)
            else:
                left = self.footer[len("ppt:"):]
                _t(page, 24 * s / 2, self.h - 10 * s / 2, left, 6 * s / 1.3, color=GREY)
                if n:
                    label = str(n) if self.numbering == "n" else f"{n} / {total}"
                    _t(page, self.w - 12 * s / 2, self.h - 10 * s / 2, label, 6 * s / 1.3, color=GREY, right=True)
        self.doc.set_metadata({"title": title, "author": author, "creator": "slides_build"})
        self.doc.save(path, garbage=3, deflate=True)
        self.doc.close()


def title_slide(deck: Deck, title: str, subtitle: str, author: str, affiliation: str, date: str) -> None:
    page = deck.slide(None, number=False, same_number=False)
    deck.count -= 1
    s = deck.s
    cx = deck.w / 2
    _t(page, cx, deck.h * 0.34, title, 15 * s, bold=True, color=NAVY, center=True)
    if subtitle:
        _t(page, cx, deck.h * 0.34 + 18 * s, subtitle, 10 * s, color=GREY, center=True)
    _t(page, cx, deck.h * 0.60, author, 10 * s, center=True)
    _t(page, cx, deck.h * 0.60 + 13 * s, affiliation, 8.5 * s, color=GREY, center=True)
    _t(page, cx, deck.h * 0.60 + 26 * s, date, 8.5 * s, color=GREY, center=True)


def section_slide(deck: Deck, name: str) -> None:
    page = deck.slide(None)
    s = deck.s
    page.draw_rect(pymupdf.Rect(deck.w * 0.15, deck.h * 0.42, deck.w * 0.85, deck.h * 0.58), color=None, fill=NAVY)
    _t(page, deck.w / 2, deck.h * 0.52, name, 14 * s, color=WHITE, center=True)


def table(page: pymupdf.Page, x: list[float], y0: float, h: float, rows: list[tuple[str, ...]], size: float,
          ruled: bool = True) -> None:
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if c == 0:
                _t(page, x[c] + 3, y0 + r * h + h * 0.72, value, size, bold=(r == 0))
            else:
                _t(page, x[c + 1] - 3, y0 + r * h + h * 0.72, value, size, bold=(r == 0), right=True)
    if ruled:
        for r in (0, 1, len(rows)):
            page.draw_line((x[0], y0 + r * h), (x[-1], y0 + r * h), width=0.6 if r == 1 else 1.0)


def bar_chart(page: pymupdf.Page, rect: pymupdf.Rect, cats: list[str], values: list[float], ymax: float,
              ticks: list[float], ylabel: str, xlabel: str, size: float, fmt: str = "{:g}",
              color: tuple = TEAL) -> None:
    """Vertical bars on labelled axes: tick labels on y, category names under the bars, the value over each."""
    page.draw_line(rect.bl, rect.tl, width=0.8)
    page.draw_line(rect.bl, rect.br, width=0.8)
    for t in ticks:
        y = rect.y1 - rect.height * t / ymax
        page.draw_line((rect.x0 - 3, y), (rect.x0, y), width=0.6)
        _t(page, rect.x0 - 5, y + size * 0.35, f"{t:g}", size * 0.85, right=True)
    slot = rect.width / len(cats)
    for i, (c, v) in enumerate(zip(cats, values)):
        x0 = rect.x0 + slot * i + slot * 0.2
        x1 = rect.x0 + slot * (i + 1) - slot * 0.2
        y = rect.y1 - rect.height * v / ymax
        page.draw_rect(pymupdf.Rect(x0, y, x1, rect.y1), color=None, fill=color)
        _t(page, (x0 + x1) / 2, y - 3, fmt.format(v), size * 0.85, center=True)
        _t(page, (x0 + x1) / 2, rect.y1 + size * 1.2, c, size * 0.85, center=True)
    _t(page, (rect.x0 + rect.x1) / 2, rect.y1 + size * 2.6, xlabel, size, center=True)
    page.insert_text((rect.x0 - size * 3.2, (rect.y0 + rect.y1) / 2 + pymupdf.get_text_length(ylabel, fontsize=size) / 2),
                     ylabel, fontsize=size, rotate=90)


def line_chart(page: pymupdf.Page, rect: pymupdf.Rect, xs: list[str], series: dict[str, list[float]],
               ymax: float, ticks: list[float], ylabel: str, xlabel: str, size: float,
               colors: tuple = (TEAL, (0.75, 0.3, 0.1))) -> None:
    """Lines over labelled axes; every point labelled with its value; a legend top-right."""
    page.draw_line(rect.bl, rect.tl, width=0.8)
    page.draw_line(rect.bl, rect.br, width=0.8)
    for t in ticks:
        y = rect.y1 - rect.height * t / ymax
        page.draw_line((rect.x0 - 3, y), (rect.x0, y), width=0.6)
        _t(page, rect.x0 - 5, y + size * 0.35, f"{t:g}", size * 0.85, right=True)
    step = rect.width / (len(xs) - 1 if len(xs) > 1 else 1)
    for i, x in enumerate(xs):
        _t(page, rect.x0 + step * i, rect.y1 + size * 1.2, x, size * 0.85, center=True)
    for k, (name, vals) in enumerate(series.items()):
        pts = [(rect.x0 + step * i, rect.y1 - rect.height * v / ymax) for i, v in enumerate(vals)]
        page.draw_polyline(pts, color=colors[k % len(colors)], width=1.4)
        for (px, py), v in zip(pts, vals):
            page.draw_circle((px, py), 1.8, color=None, fill=colors[k % len(colors)])
            _t(page, px, py - 4, f"{v:g}", size * 0.75, center=True)
        ly = rect.y0 + k * size * 1.3
        page.draw_line((rect.x1 - 80, ly - size * 0.3), (rect.x1 - 68, ly - size * 0.3), color=colors[k % len(colors)], width=1.4)
        _t(page, rect.x1 - 64, ly, name, size * 0.85)
    _t(page, (rect.x0 + rect.x1) / 2, rect.y1 + size * 2.6, xlabel, size, center=True)
    page.insert_text((rect.x0 - size * 3.2, (rect.y0 + rect.y1) / 2 + pymupdf.get_text_length(ylabel, fontsize=size) / 2),
                     ylabel, fontsize=size, rotate=90)


# --- the decks -----------------------------------------------------------------------------------------


def bus_bunching(path: Path) -> None:
    """Beamer 4:3, drawn-triangle bullets, three-box footer (author | short title | date n / N)."""
    d = Deck(BEAMER, bar=NAVY, footer="beamer3:I. Vandermeer (DIUM)|Bus Bunching from Sparse GPS|TRB 2025")
    title_slide(d, "Predicting Bus Bunching from Sparse GPS Traces", "A graph-based forecasting approach",
                "Ilse Vandermeer", "Delft Institute of Urban Mobility", "TRB Annual Meeting, 14 January 2025")
    p = d.slide("Outline")
    d.bullets(p, ["Motivation", "Data: the Rotterdam line 32 traces", "Model", "Results", "Next steps"])
    section_slide(d, "Motivation")
    p = d.slide("Why bus bunching matters")
    d.bullets(p, [("Bunched buses lengthen the wait for everyone downstream",
                   ["Average excess wait on line 32: 4.7 minutes at peak"]),
                  ("Operators react late", ["Controllers see a bunch only once headways fall below 90 seconds"]),
                  "Early warning lets controllers hold a bus at a timing point"])
    section_slide(d, "Data")
    p = d.slide("The Rotterdam line 32 traces")
    d.bullets(p, [("GPS pings from 46 buses over 11 weeks", ["One ping every 30 seconds on average",
                                                         "18% of pings dropped in the tunnel section"]),
                  ("Stops matched to the network graph", ["61 stops, 2 timing points"]),
                  "Weather and event calendar joined by hour"])
    section_slide(d, "Model")
    p = d.slide("Headway forecasting on the route graph")
    d.bullets(p, ["Each stop is a node; each bus a moving signal on the graph",
                  "A graph attention layer mixes neighbouring stops",
                  "The forecast target is the headway 10 minutes ahead"], gap=14)
    _t(p, 60, 150, "h_i(t + 10) = f( h_i(t), sum_j a_ij h_j(t), w(t) )", 10)
    _t(p, 20, 178, "where a_ij are the learned attention weights and w(t) the weather features.", 8)
    section_slide(d, "Results")
    p = d.slide("Forecast error by model")
    table(p, [40, 170, 250, 330], 50, 17, [("Model", "MAE (s)", "Recall"), ("Timetable baseline", "212", "0.31"),
                                          ("Gradient boosting", "148", "0.58"), ("LSTM", "131", "0.64"),
                                          ("Graph attention (ours)", "97", "0.79")], 8.5)
    _t(p, 40, 160, "Recall: share of bunching events flagged at least 5 minutes ahead.", 7, color=GREY)
    p = d.slide("Next steps")
    d.bullets(p, ["Pilot with the RET control room from September 2025",
                  ("Extend to tram lines", ["Trams 4 and 21 first"]),
                  "Release the cleaned traces as open data"])
    p = d.slide(None)
    _t(p, d.w / 2, 110, "Thank you!", 18, bold=True, color=NAVY, center=True)
    _t(p, d.w / 2, 140, "Questions?", 12, center=True)
    _t(p, d.w / 2, 170, "i.vandermeer@dium.example.nl", 8, color=GREY, center=True)
    d.finish(path, "Predicting Bus Bunching from Sparse GPS Traces", "Ilse Vandermeer")


def sales_review(path: Path) -> None:
    """PowerPoint 16:9 export: filled title bar, bullet glyphs, a vector bar chart, two columns."""
    d = Deck(PPT, bar=TEAL, footer="ppt:Northwind Outdoor Gear  |  Confidential - internal use only",
             numbering="n", bullet="glyph")
    title_slide(d, "Q3 FY2024 Sales Review", "Northwind Outdoor Gear - Regional performance",
                "Presented by Marcus Oduya, VP Sales", "Northwind Outdoor Gear, Portland", "October 8, 2024")
    p = d.slide("Agenda")
    d.bullets(p, ["Headline numbers", "Revenue by region", "Wins and risks", "Q4 priorities"], size=9)
    p = d.slide("Headline numbers")
    d.bullets(p, [("Q3 revenue: $41.6M, up 9% year over year", ["Ahead of plan by $1.2M"]),
                  ("Gross margin 46.2%", ["Down 0.8 points on freight costs"]),
                  "New wholesale accounts: 37"], size=9)
    p = d.slide("Q3 revenue by region ($M)")
    bar_chart(p, pymupdf.Rect(130, 90, 600, 320), ["Pacific NW", "California", "Mountain", "Midwest", "Northeast"],
              [12.4, 9.8, 6.1, 5.2, 8.1], 14, [0, 2, 4, 6, 8, 10, 12, 14], "Revenue ($M)", "Sales region", 11)
    p = d.slide("Wins and risks")
    s = d.s
    _t(p, 20 * s, 50 * s, "Wins", 11 * s, bold=True, color=TEAL)
    d.bullets(p, ["REI reorder for the Summit 40 pack", "Midwest dealer count up to 212",
                  ("E-commerce conversion 3.4%", ["Best quarter on record"])], y=66 * s, size=8.5)
    _t(p, 190 * s, 50 * s, "Risks", 11 * s, bold=True, color=(0.7, 0.2, 0.1))
    d.bullets(p, ["Freight contract renewal in November", "Down jacket inventory 18% over target",
                  ("Mountain region lost two dealers", ["Both to Cascadia Supply"])], y=66 * s, x=190 * s, size=8.5)
    p = d.slide("Q4 priorities")
    d.bullets(p, ["Clear excess down jacket stock before January", "Renegotiate freight with two bids",
                  ("Holiday campaign launches November 15", ["Budget $2.3M, 60% digital"])], size=9)
    p = d.slide(None)
    _t(p, d.w / 2, 170, "Questions?", 30, bold=True, color=TEAL, center=True)
    _t(p, d.w / 2, 215, "marcus.oduya@northwind-gear.example.com", 12, color=GREY, center=True)
    d.finish(path, "Q3 FY2024 Sales Review", "Marcus Oduya")


def oncall_overlays(path: Path) -> None:
    """Beamer 4:3, incremental overlays: the same slide repeated with one more bullet on each page."""
    d = Deck(BEAMER, bar=None, footer="ppt:SRE Guild  -  On-call at Halvorsen Bank", numbering="n / N", bullet="dash")
    title_slide(d, "On-call at Halvorsen Bank", "How the payments SRE team runs its rotation",
                "Priya Raghunathan", "Payments Reliability, Halvorsen Bank", "SRE Guild meetup, 3 June 2024")
    p = d.slide("The rotation")
    d.bullets(p, [("Six engineers, one week each as primary", ["Secondary is last week's primary"]),
                  "Hand-over every Tuesday at 10:00", "Follow-the-sun with the Singapore team since 2023"])
    rules = ["Acknowledge a page within 5 minutes",
             "Open an incident channel for anything customer-facing",
             "Escalate to the secondary after 20 minutes without progress",
             "Never deploy during an open incident",
             "Write the post-incident review within 3 working days"]
    for k in range(1, len(rules) + 1):
        p = d.slide("Five rules for the primary", same_number=(k > 1))
        d.bullets(p, rules[:k], gap=17)
    steps = [("Page fires", "PagerDuty calls the primary's phone"),
             ("Triage", "Check the payments dashboard and error budget"),
             ("Mitigate", "Roll back or fail over to the Frankfurt region"),
             ("Resolve", "Close the incident and hand notes to the review owner")]
    for k in range(1, len(steps) + 1):
        p = d.slide("Anatomy of a page", same_number=(k > 1))
        y = 55
        for name, what in steps[:k]:
            _t(p, 20, y, name, 10, bold=True)
            _t(p, 110, y, what, 8.5)
            y += 24
    p = d.slide("Pages per week, 2024")
    line_chart(p, pymupdf.Rect(60, 50, 330, 210), ["Jan", "Feb", "Mar", "Apr", "May"],
               {"Pages": [31, 24, 19, 14, 11]}, 35, [0, 10, 20, 30], "Pages per week", "Month", 7.5)
    p = d.slide(None)
    _t(p, d.w / 2, 120, "Thank you", 18, bold=True, color=NAVY, center=True)
    _t(p, d.w / 2, 145, "Questions? #sre-payments on Slack", 9, center=True)
    d.finish(path, "On-call at Halvorsen Bank", "Priya Raghunathan")


def trial_update(path: Path) -> None:
    """PowerPoint 16:9 at 960 x 540: a table slide, a line chart, section dividers, 'n / N' numbering."""
    d = Deck(PPT_LARGE, bar=NAVY, footer="ppt:LUMEN-2 Investigator Meeting  |  Dr. Anneliese Korhonen",
             numbering="n / N", bullet="glyph")
    title_slide(d, "LUMEN-2 Trial: Enrollment and Safety Update", "Phase II, lumacaftor-free regimen in adult CF",
                "Dr. Anneliese Korhonen, Principal Investigator", "Nordic Cystic Fibrosis Research Network",
                "Investigator Meeting, Helsinki, 22 May 2024")
    section_slide(d, "Enrollment")
    p = d.slide("Enrollment by site (as of 30 April 2024)")
    table(p, [120, 420, 560, 700, 840], 120, 30,
          [("Site", "Target", "Enrolled", "Screen fails"), ("Helsinki University Hospital", "40", "38", "9"),
           ("Karolinska, Stockholm", "40", "33", "12"), ("Rigshospitalet, Copenhagen", "30", "30", "4"),
           ("Oslo University Hospital", "30", "21", "7"), ("Total", "140", "122", "32")], 15)
    p = d.slide("Cumulative enrollment, 2023-2024")
    line_chart(p, pymupdf.Rect(150, 110, 820, 420), ["Oct", "Nov", "Dec", "Jan", "Feb", "Mar", "Apr"],
               {"Enrolled": [18, 37, 55, 71, 90, 108, 122], "Plan": [20, 40, 60, 80, 100, 120, 140]},
               150, [0, 25, 50, 75, 100, 125, 150], "Participants", "Month", 13)
    section_slide(d, "Safety")
    p = d.slide("Adverse events to date")
    d.bullets(p, [("No treatment-related serious adverse events", ["DSMB review of 12 April: continue unchanged"]),
                  ("Most common AE: headache (14 participants)", ["All grade 1, resolved within 48 hours"]),
                  ("Two withdrawals", ["One relocation, one withdrew consent"])], size=8.5)
    p = d.slide("Primary endpoint")
    d.bullets(p, ["Absolute change in ppFEV1 from baseline to week 24"], size=8.5)
    _t(p, 200, 200, "delta ppFEV1 = ppFEV1(week 24) - ppFEV1(baseline)", 16)
    d.bullets(p, ["Powered to detect a 5-point difference at alpha = 0.05", "Last participant visit expected March 2025"],
              y=240, size=8.5)
    p = d.slide("Timeline")
    d.bullets(p, ["Enrollment closes: 31 August 2024", "Database lock: May 2025", "Topline results: July 2025"],
              size=8.5)
    p = d.slide(None)
    _t(p, d.w / 2, 250, "Thank you - questions welcome", 28, bold=True, color=NAVY, center=True)
    d.finish(path, "LUMEN-2 Trial: Enrollment and Safety Update", "Anneliese Korhonen")


def thermo_lecture(path: Path) -> None:
    """Beamer 4:3 lecture: equations, two columns, a table of constants, three-box footer."""
    d = Deck(BEAMER, bar=(0.25, 0.1, 0.35),
             footer="beamer3:Prof. T. Okonkwo|PHYS 214 - Lecture 7: Entropy|Spring 2025")
    title_slide(d, "Lecture 7: Entropy and the Second Law", "PHYS 214 Thermal Physics", "Prof. Tobenna Okonkwo",
                "Department of Physics, Carrow University", "February 18, 2025")
    p = d.slide("Today")
    d.bullets(p, ["Clausius' definition of entropy", "Entropy of an ideal gas", "The Carnot engine",
                  "Problem set 4 (due February 25)"])
    p = d.slide("Clausius' definition")
    d.bullets(p, ["For a reversible process between two states:"])
    _t(p, 110, 90, "dS = dQ_rev / T", 13)
    d.bullets(p, [("Entropy is a state function", ["Its change depends only on the end states"]),
                  "Units: joules per kelvin (J/K)"], y=125)
    p = d.slide("Ideal gas: two views")
    _t(p, 20, 50, "Isothermal expansion", 9.5, bold=True, color=TEAL)
    d.bullets(p, ["Temperature stays fixed", ("Delta S = n R ln(V2/V1)", ["Doubling the volume: 5.76 J/K per mole"])],
              y=68, size=8.5)
    _t(p, 190, 50, "Free expansion", 9.5, bold=True, color=TEAL)
    d.bullets(p, ["No heat, no work", ("Same Delta S as isothermal", ["Irreversible, yet S is a state function"])],
              y=68, x=190, size=8.5)
    p = d.slide("Carnot engine efficiency")
    _t(p, 100, 80, "eta = 1 - T_C / T_H", 13)
    table(p, [60, 160, 230, 300], 105, 16, [("Reservoirs", "T_H (K)", "eta"), ("Steam plant", "800", "0.63"),
                                           ("Car engine", "600", "0.50"), ("Geothermal", "450", "0.33")], 8)
    _t(p, 60, 190, "Cold reservoir T_C = 300 K in every row.", 7, color=GREY)
    p = d.slide("Problem set 4")
    d.bullets(p, [("Due Tuesday, February 25, in class", ["Late work loses 10% per day"]),
                  "Problems 3.12, 3.15, 3.21 and 3.30 from Schroeder",
                  "Office hours: Thursdays 2-4 pm, Room 317 Bexley Hall"])
    d.finish(path, "Lecture 7: Entropy and the Second Law", "Tobenna Okonkwo")


def roadmap(path: Path) -> None:
    """PowerPoint 16:9: section dividers, overlays on a roadmap slide, a horizontal-bar-like chart,
    'Thank you' slide."""
    d = Deck(PPT, bar=(0.15, 0.15, 0.15), footer="ppt:Fieldnote 2025 Product Roadmap  -  Joanna Petrakis",
             numbering="n", bullet="glyph")
    title_slide(d, "Fieldnote 2025 Product Roadmap", "Customer Advisory Board", "Joanna Petrakis, Head of Product",
                "Fieldnote Inc., Boston", "January 29, 2025")
    p = d.slide("What we heard in 2024")
    d.bullets(p, [("Offline mode is the top request", ["Raised by 31 of 44 advisory accounts"]),
                  "Exports to SharePoint break on large notebooks",
                  "Admins want SCIM provisioning"], size=9)
    section_slide(d, "H1 2025")
    items = ["Q1: Offline mode for iOS and Android", "Q1: SCIM provisioning (Okta, Entra ID)",
             "Q2: Rebuilt SharePoint export", "Q2: Audit log API"]
    for k in range(1, len(items) + 1):
        p = d.slide("H1 2025 commitments", same_number=(k > 1))
        d.bullets(p, items[:k], size=9, gap=20)
    section_slide(d, "H2 2025")
    p = d.slide("H2 2025 exploration")
    d.bullets(p, [("AI meeting summaries", ["Private beta with 10 accounts in September"]),
                  ("Desktop app for Linux", ["Only if demand reaches 500 seats"])], size=9)
    p = d.slide("Advisory board votes (top 4 of 12 ideas)")
    bar_chart(p, pymupdf.Rect(120, 80, 620, 320), ["Offline", "SCIM", "Audit API", "Summaries"],
              [38, 27, 19, 16], 40, [0, 10, 20, 30, 40], "Votes", "Roadmap item", 11, fmt="{:g} votes",
              color=(0.85, 0.45, 0.1))
    p = d.slide(None)
    _t(p, d.w / 2, 180, "Thank you", 30, bold=True, center=True)
    _t(p, d.w / 2, 220, "Questions? cab@fieldnote.example.com", 12, color=GREY, center=True)
    d.finish(path, "Fieldnote 2025 Product Roadmap", "Joanna Petrakis")


BUILDERS = {
    "bus-bunching-talk.pdf": bus_bunching,
    "q3-sales-review.pdf": sales_review,
    "oncall-rotation-overlays.pdf": oncall_overlays,
    "lumen2-trial-update.pdf": trial_update,
    "thermo-lecture-7.pdf": thermo_lecture,
    "fieldnote-roadmap-2025.pdf": roadmap,
}


def build(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, fn in BUILDERS.items():
        path = out / name
        fn(path)
        paths.append(path)
    return paths


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else Path.home() / ".cache" / "pagelens-slides" / "pdfs")
    for p in build(target):
        print(p)
