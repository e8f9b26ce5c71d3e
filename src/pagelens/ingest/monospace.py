"""Text set in a fixed-pitch font (program output, code listings): which spans and lines are monospace."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

MONO_NAME = re.compile(
    r"mono|courier|typewriter|consol|menlo|monaco|cousine|inconsolata|nimbusmon|sourcecode|(?:cm|lm|ec|tx|sf|pl|sl|it|bx)tt",
    re.I,
)
FIXED_PITCH = 8  # the monospaced bit of a span's flags (TEXT_FONT_MONOSPACED)


@lru_cache(maxsize=512)
def mono_font(name: str) -> bool:
    """Whether a font's name says it is monospace (embedded fonts often lack the fixed-pitch flag)."""
    return bool(MONO_NAME.search(name))


def mono_line(ln: dict[str, Any]) -> bool:
    """Whether every non-blank span of a text-dict line is monospace (and there is one)."""
    seen = False
    for s in ln["spans"]:
        if not s["text"].strip():
            continue
        if not (s["flags"] & FIXED_PITCH or mono_font(s["font"])):
            return False
        seen = True
    return seen
