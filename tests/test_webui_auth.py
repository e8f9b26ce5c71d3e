"""The web UI against a server that requires an API key: the refusal is said in words, the key entered
under Settings is kept in localStorage and sent as a Bearer header (images too) and ?api_key= on the
WebSockets."""

from __future__ import annotations

import pytest

from webui_pdfs import build_sample_pdf
from webui_support import chromium, live_server, require_browser, shot, watch

sync_api = require_browser()
expect = sync_api.expect
expect.set_options(timeout=30_000)  # a shared 2-core machine: searches may wait behind other work
KEY = "s3cret-key"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    with live_server(tmp_path_factory.mktemp("webui-auth-home"), **{"server.api_key": KEY}) as live:
        yield live


def test_key_from_settings_unlocks_lists_uploads_sockets_and_images(server, tmp_path) -> None:
    with chromium(sync_api) as browser:
        page = watch(browser.new_page(viewport={"width": 1280, "height": 800}))
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(server.url + "/#library")
        expect(page.locator("#documents")).to_contain_text("missing or wrong API key")
        expect(page.locator("#documents")).to_contain_text("enter the API key under Settings")
        page.goto(server.url + "/#settings")
        page.get_by_label("API key", exact=True).fill(KEY)
        page.get_by_role("button", name="Save").click()
        expect(page.locator("#key-status")).to_have_text("Saved in this browser.")
        assert page.evaluate("localStorage.getItem('pagelens.apiKey')") == KEY
        expect(page.locator("#config")).to_contain_text("yes")  # API key required: yes
        page.problems.clear()  # the 401s before the key was entered were the point

        page.reload()  # the key survives a reload
        page.goto(server.url + "/#library")
        page.get_by_label("Upload PDFs").set_input_files(str(build_sample_pdf(tmp_path / "keyed.pdf")))
        expect(page.locator("li.job", has_text="keyed.pdf")).to_have_attribute("data-state", "done", timeout=180_000)
        expect(page.locator("#documents tr", has_text="keyed.pdf")).to_be_visible()
        assert any("/ws/jobs" in u and f"api_key={KEY}" in u for u in sockets), sockets

        page.goto(server.url + "/#explorer")
        page.wait_for_function("() => document.getElementById('x-img').naturalWidth > 0")
        assert page.evaluate("document.getElementById('x-img').src").startswith("blob:")
        shot(page, "auth-explorer")
        assert not page.problems, page.problems
