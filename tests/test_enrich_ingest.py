"""Ingest-time enrichment end to end: an LLM (a real local OpenAI-protocol server) summarises chunks
and describes figures; summaries are indexed as their own channel; responses are cached."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from openai_server import OpenAIServer
from pagelens.app import Pagelens
from pagelens.settings import Settings
from pdfs import SAMPLE, raster_figures_pdf


def _has_image(body: dict) -> bool:
    for m in body.get("messages", []):
        content = m.get("content")
        if isinstance(content, list) and any(p.get("type") == "image_url" for p in content):
            return True
    return False


@pytest.fixture
def server():
    with OpenAIServer() as srv:
        srv.responder = lambda body: (
            "A raster figure showing the zebrafinch population by quarter."
            if _has_image(body)
            else "This passage is summarised: it reports measurements and their conditions."
        )
        yield srv


def test_summaries_and_figure_descriptions_are_indexed_and_cached(
    settings: Settings, server: OpenAIServer, tmp_path: Path
) -> None:
    s = settings.with_overrides(**{
        "answer.llm_base_url": server.base_url, "answer.llm_model": "fake-vision", "answer.vision": True,
        "answer.enrich": True, "ingest.ocr": "off", "answer.cache": False,
    })
    pdf = tmp_path / "chart-and-map.pdf"
    raster_figures_pdf(pdf)  # two pages, one raster figure each
    with Pagelens(s) as app:
        (result,) = app.ingest([pdf])
        assert result.status == "indexed" and result.chunks > 0
        first_calls = len(server.requests)
        assert first_calls > 0
        vision_calls = [r for r in server.requests if _has_image(r.body)]
        assert vision_calls, "figures were not described with an image part"
        image_url = next(
            p["image_url"]["url"] for m in vision_calls[0].body["messages"] if isinstance(m["content"], list)
            for p in m["content"] if p.get("type") == "image_url"
        )
        assert image_url.startswith("data:image/png;base64,")

        hits = app.search("zebrafinch population by quarter", k=5)
        # The description joined the caption vector (the figure may ride with a better chunk of its page).
        assert any("caption" in m.channels for h in hits for m in (h, *h.merged))
        summarised = app.search("a passage that reports measurements and their conditions", k=5)
        assert any("summary" in h.channels for h in summarised)
        fig = next(m for h in hits for m in (h, *h.merged) if m.chunk.kind == "figure")
        assert fig.chunk.page in (1, 2)

        app.remove(pdf.name)
        app.ingest([pdf])
        assert len(server.requests) == first_calls, "enrichment was not served from the cache"


def test_enrichment_failure_does_not_stop_indexing(settings: Settings) -> None:
    with OpenAIServer() as srv:
        for _ in range(200):
            srv.push_error(500)
        s = settings.with_overrides(**{
            "answer.llm_base_url": srv.base_url, "answer.llm_model": "m", "answer.enrich": True,
            "answer.retries": 0, "ingest.ocr": "off", "answer.cache": False,
        })
        with Pagelens(s) as app:
            (result,) = app.ingest([SAMPLE])
            assert result.status == "indexed" and result.chunks > 0, json.dumps(result.model_dump())
            assert app.search("inference timing CPU", k=3)
