"""Questions that say what kind of element answers them.

A question about a figure: the figure channels count more.

"In the chart of Figure 1 ...", "On the map ...", "In the diagram of ...": the question names the kind
of element that answers it. The figure channels (``caption``: captions, labels and text drawn in
figures; ``image``: CLIP) are weighted below the text channels because most questions are not about a
figure, and a figure's caption is short and generic; so a figure that is first in the caption channel
loses rank 1 to the paragraph that cites it ("Figure 4 illustrates ..."). When the question itself
points at a figure, those channels count ``FIGURE_BOOST`` times their weight. Chosen on the tune half
of the dev PDFs (``bench/rank_study.py``): boosts of 1.5 to 2.9 gave the same rank 1 there (1.4: one
figure question less); 2.0 sits inside that range. Words that name a figure as often as something else
in papers and articles ("graph neural network", "image classification", "the plot of the film") are
left out.

A question asking what a name means ("What does the variable PERSPENK measure?", "What does NID stand
for?"): a table of numbers that has the name as a column (a printout of a data frame's first rows)
gives its values, never its meaning, and loses ``MEANING_PENALTY`` (:func:`numeric_table`); the text
that defines it (a codebook, a glossary, which may be a table of words) keeps its place.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pagelens.ingest.table_values import is_numeric

FIGURE_BOOST = 2.0
FIGURE_CHANNELS = ("caption", "image")
_FIGURE_WORDS = re.compile(
    r"\bfig\.|\b(?:figures?|charts?|diagrams?|maps?|illustrations?|illustrating|pictures?|pictured|photos?|"
    r"photographs?)\b",
    re.IGNORECASE,
)


def asks_for_figure(query: str) -> bool:
    """True when the question refers to a figure, chart, diagram, map, illustration or picture."""
    return _FIGURE_WORDS.search(query) is not None


def figure_query_weights(weights: Mapping[str, float]) -> dict[str, float]:
    """The fusion weights for a question about a figure."""
    out = dict(weights)
    for channel in FIGURE_CHANNELS:
        if channel in out:
            out[channel] = out[channel] * FIGURE_BOOST
    return out


# "What does PERSPENK measure?", "What does NID stand for?", "What is meant by ...?": the meaning of a name.
_MEANING = re.compile(
    r"\bwhat\s+(?:does|do|did)\s+.+?\s+(?:stand\s+for|mean|measure|represent|denote|refer\s+to|signify)\b"
    r"|\bwhat\s+is\s+meant\s+by\b|\bmeaning\s+of\b|\bdefinition\s+of\b",
    re.IGNORECASE,
)
NUMERIC_SHARE = 0.8
"""A table whose body cells are at least this share numbers states values, not meanings."""
MEANING_PENALTY = 0.5
"""What a table of numbers loses for a question asking what a name means: half a first place in a
weight-1 channel (the page-coverage bonus's scale), so it drops below a near tie and keeps a clear win."""


def asks_for_meaning(query: str) -> bool:
    """True when the question asks what a name means, measures or stands for."""
    return _MEANING.search(query) is not None


def numeric_table(kind: str, text: str) -> bool:
    """A table chunk (markdown) whose body cells, past the header separator, are nearly all numbers (a
    printout of a data frame's rows, a table of results): it gives a variable's values, never its
    meaning. Empty and elided ("...") cells do not count."""
    if kind not in ("table", "table_rows"):
        return False
    lines = [ln.strip() for ln in text.splitlines() if ln.strip().startswith("|")]
    sep = next((i for i, ln in enumerate(lines) if set(ln) <= set("|-: ")), None)
    body = lines[sep + 1:] if sep is not None else lines[1:]
    cells = [c.strip() for ln in body for c in ln.strip("|").split("|")]
    cells = [c for c in cells if c and c not in ("...", "…")]
    return len(cells) >= 4 and sum(is_numeric(c) for c in cells) >= NUMERIC_SHARE * len(cells)
