"""Letters as a question may type them: accents off, compatibility forms plain (``fold``). Used wherever a
question's words are matched to a page's (``text.content_terms``, ``text.key_names``, ``distinct.Sources``)."""

from __future__ import annotations

import unicodedata

_FOLD = str.maketrans({"ı": "i", "ø": "o", "Ø": "O", "ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE",
                       "đ": "d", "Đ": "D", "ł": "l", "Ł": "L"})


def fold(text: str) -> str:
    """``text`` with its letters' accents off ("Özen" is "Ozen", "Kınacı" "Kinaci", "São" "Sao") and compatibility
    forms plain (a ligature "ﬀ" is "ff"): a name a question spells without them is the same name."""
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
