"""Questions that say they are about a figure: the figure channels count more.

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
"""

from __future__ import annotations

import re
from collections.abc import Mapping

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
