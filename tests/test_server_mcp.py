"""`pagelens mcp` driven over stdio by the official mcp SDK's client: list the tools and call them."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

from server_support import make_pdf

pytest.importorskip("mcp")
ROOT = Path(__file__).resolve().parent.parent


def test_mcp_tools_over_stdio(settings, tmp_path):
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    from pagelens.app import Pagelens

    pdf = make_pdf(tmp_path / "facts.pdf")
    with Pagelens(settings.with_overrides(**{"ingest.ocr": "off"})) as app:
        assert app.ingest([pdf])[0].status == "indexed"

    env = {"PAGELENS_HOME": str(settings.home), "PAGELENS_CONFIG": os.environ["PAGELENS_CONFIG"],
           "PAGELENS_OCR": "off", "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(ROOT / "src")}
    params = StdioServerParameters(command=sys.executable, args=["-m", "pagelens.cli.main", "mcp"], env=env)

    async def run() -> dict:
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = {t.name for t in (await session.list_tools()).tools}
                docs = await session.call_tool("list_documents", {})
                found = await session.call_tool("search", {"query": "Oresund bridge length", "k": 2})
                answer = await session.call_tool("ask", {"question": "How long is the Oresund bridge?"})
                page = await session.call_tool("show_page", {"doc": "facts.pdf", "page": 3})
                bad = await session.call_tool("show_page", {"doc": "facts.pdf", "page": 9})
                return {"tools": tools, "docs": docs, "search": found, "ask": answer, "page": page, "bad": bad}

    out = asyncio.run(asyncio.wait_for(run(), 180))
    assert out["tools"] >= {"list_documents", "search", "ask", "show_page"}

    def payload(result) -> object:
        assert not result.is_error, result
        return result.structured_content or json.loads(result.content[0].text)

    docs = payload(out["docs"])
    docs = docs.get("result", docs) if isinstance(docs, dict) else docs
    assert [d["name"] for d in docs] == ["facts.pdf"]
    assert payload(out["search"])["results"][0]["page"] == 2
    assert "7,845" in payload(out["ask"])["answer"]
    kinds = [c.type for c in out["page"].content]
    assert kinds[:2] == ["text", "image"] and "Arabica" in out["page"].content[0].text
    assert out["page"].content[1].mime_type == "image/png"
    assert out["bad"].is_error and "pages 1..3" in out["bad"].content[0].text
