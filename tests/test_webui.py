"""The web UI in a real browser (Playwright driving Debian's chromium) against a real uvicorn server
on 127.0.0.1 over a temp home: upload, progress, ask, streamed answer, citation → highlighted page,
explorer, exports, batch, settings; and a hostile PDF whose text must stay text.

Screenshots of each screen go to test-artifacts/. Skipped, saying why, only without chromium or
playwright. One server and one tab serve the whole module: the tests run in file order and build on
each other (the first uploads the document the others ask about)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from webui_pdfs import XSS_BODY, XSS_TITLE, build_sample_pdf
from webui_support import REPO, chromium, live_server, require_browser, shot, watch

sync_api = require_browser()
expect = sync_api.expect
expect.set_options(timeout=30_000)  # a shared 2-core machine: searches may wait behind other work
QUESTION = "How many zebrafinch birds were counted at the northern marsh?"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    with live_server(tmp_path_factory.mktemp("webui-home")) as live:
        yield live


@pytest.fixture(scope="module")
def browser():
    with chromium(sync_api) as b:
        yield b


@pytest.fixture(scope="module")
def page(browser, server):
    """One tab for the whole flow; every dialog, page error, console error and HTTP error is recorded."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    p = watch(ctx.new_page())
    p.goto(server.url + "/")
    yield p
    ctx.close()


def upload(page, pdf: Path, shown: str | None = None) -> None:
    """Upload through the file input; wait until the job row (showing ``shown``) says done."""
    page.goto(page.url.split("#")[0] + "#library")
    page.get_by_label("Upload PDFs").set_input_files(str(pdf))
    row = page.locator("li.job", has_text=shown or pdf.name)
    expect(row).to_have_attribute("data-state", "done", timeout=180_000)


def test_library_upload_shows_progress_then_the_document(page, tmp_path_factory) -> None:
    folder = tmp_path_factory.mktemp("pdf")
    pdf = build_sample_pdf(folder / "survey.pdf")
    # A file that is not a PDF is refused in words naming it.
    (folder / "notes.txt").write_text("just some notes", encoding="utf-8")
    page.goto(page.url.split("#")[0] + "#library")
    page.get_by_label("Upload PDFs").set_input_files(str(folder / "notes.txt"))
    expect(page.locator("#library-status")).to_contain_text("Upload failed: notes.txt")
    page.problems.clear()  # that 422 was the point
    # Record every label a job row shows while the upload runs.
    page.evaluate("""() => { window.__labels = [];
      new MutationObserver(() => document.querySelectorAll('#jobs .stage').forEach(
        (s) => window.__labels.push(s.textContent))).observe(document.getElementById('jobs'),
        {subtree: true, childList: true, characterData: true}); }""")
    upload(page, pdf)
    labels = page.evaluate("window.__labels")
    assert any(re.search(r"page \d of 2", lab) for lab in labels), labels
    assert labels[-1] == "done · 2 pages"
    row = page.locator("#documents tr", has_text="survey.pdf")
    expect(row).to_contain_text("Zebrafinch field survey")
    expect(row).to_contain_text("table 1")
    expect(row).to_contain_text("figure 1")
    expect(row.locator(".pill")).to_have_text("indexed")
    shot(page, "library")


def test_chat_streams_a_cited_answer_and_a_citation_shows_the_highlighted_page(page) -> None:
    page.goto(page.url.split("#")[0] + "#chat")
    page.evaluate("""() => { window.__answerChanges = 0;
      new MutationObserver(() => window.__answerChanges++).observe(document.getElementById('messages'),
        {subtree: true, childList: true, characterData: true}); }""")
    box = page.get_by_label("Question", exact=True)
    box.fill("first line")
    box.press("Shift+Enter")  # a new line, not a send
    assert box.input_value() == "first line\n" and page.locator(".turn").count() == 0
    box.fill(QUESTION)
    box.press("Enter")
    turn = page.locator(".turn").last
    expect(turn.locator(".meta")).to_contain_text("channels", timeout=120_000)
    answer = turn.locator(".answer-text")
    expect(answer).to_contain_text("412")
    assert page.evaluate("window.__answerChanges") >= 3  # phases, sources, tokens arrived one by one
    expect(turn.locator(".meta")).to_contain_text("fresh")
    cite = answer.get_by_role("link", name=re.compile(r"^Citation \d+, page 1"))
    expect(cite.first).to_be_visible()
    n = cite.first.get_attribute("data-n")
    card = page.get_by_role("article", name=re.compile(rf"^Source {n}: survey\.pdf, page 1"))
    expect(card).to_be_visible()
    expect(card.locator(".badge")).to_have_class(re.compile(r"rel-(high|medium|low)"))
    cite.first.click()
    expect(card).to_have_class(re.compile(r"\blit\b"))
    viewer = page.locator("#viewer img")
    expect(viewer).to_have_attribute("data-highlighted", "true")
    page.wait_for_function("() => document.querySelector('#viewer img').naturalWidth > 0")
    assert "highlight=" in (viewer.get_attribute("src") or "")
    # The highlighted page image is the server's PNG with a box drawn: it differs from the plain page.
    size = page.evaluate("""async () => { const img = document.querySelector('#viewer img');
      const plain = await (await fetch(img.src.replace(/&highlight=[^&]*/, ''))).arrayBuffer();
      const lit = await (await fetch(img.src)).arrayBuffer(); return [plain.byteLength, lit.byteLength]; }""")
    assert size[0] != size[1]
    shot(page, "chat")
    # A second question on the same socket and conversation (the Ask button sends too).
    page.get_by_label("Question", exact=True).fill("When do the sightings peak?")
    page.get_by_role("button", name="Ask").click()
    expect(page.locator(".turn")).to_have_count(2)
    expect(page.locator(".turn").last.locator(".meta")).to_contain_text("channels", timeout=120_000)
    expect(page.locator(".turn").last.locator(".answer-text")).to_contain_text("third quarter")
    if os.environ.get("PAGELENS_README_SHOT"):
        page.screenshot(path=str(REPO / "docs" / "chat.png"))
    assert not page.problems, page.problems


def test_explorer_lights_an_element_renders_its_table_and_searches(page) -> None:
    page.goto(page.url.split("#")[0] + "#explorer")
    items = page.locator("#x-elements .element")
    expect(items.first).to_be_visible()
    table_item = page.locator('#x-elements .element[data-kind="table"]')
    expect(table_item.locator("td", has_text="northern marsh")).to_be_visible()
    table_item.get_by_role("button").first.click()
    element_id = table_item.get_attribute("data-id")
    expect(page.locator(f'#x-overlay .box[data-id="{element_id}"]')).to_have_class(re.compile(r"\blit\b"))
    shot(page, "explorer")
    page.get_by_role("button", name="Next page").click()
    expect(page.locator('#x-elements .element[data-kind="figure"]')).to_contain_text("Figure 1: Quarterly zebrafinch sightings.")
    page.get_by_role("tab", name="Search").click()
    page.get_by_label("Search in this document").fill("northern marsh birds")
    page.get_by_label("Search mode").select_option("sparse")
    page.get_by_role("button", name="Search", exact=True).click()
    expect(page.locator("#x-results .result").first).to_contain_text("page 1")
    page.locator("#x-results .result button").first.click()  # back to the page, the hit's box lit
    expect(page.locator("#x-overlay .box.lit")).to_have_count(1)
    page.get_by_role("tab", name="Search").click()
    page.get_by_role("tab", name="Chunk lookup").click()
    page.get_by_label("Chunk lookup query").fill("zebrafinch sightings per quarter")
    page.get_by_role("button", name="Look up").click()
    lookup = page.locator("#x-lookup table")
    expect(lookup.locator("th").first).to_have_text("hybrid")
    expect(lookup.locator("th", has_text="keyword")).to_be_visible()
    assert lookup.locator("tbody tr").count() >= 2
    shot(page, "explorer-lookup")
    # A server error is said in words, not left as a blank panel.
    page.goto(page.url.split("#")[0] + "#explorer/nope/1")
    expect(page.locator("#x-status")).to_contain_text("Could not open page 1: no document matches 'nope'")
    page.wait_for_load_state("networkidle")  # the page image's 404 may land after the status text
    # ... and under load even after networkidle (console lines lag their responses): wait, up to 10 s,
    # until the image's 404 is recorded and nothing new has come for 1 s, so none leaks into the next test.
    seen, quiet = -1, 0
    for _ in range(100):
        quiet = quiet + 1 if len(page.problems) == seen else 0
        seen = len(page.problems)
        if quiet >= 10 and any("/documents/nope/pages/1.png" in p for p in page.problems):
            break
        page.wait_for_timeout(100)
    page.problems.clear()  # those 404s were the point


def test_exported_conversation_opens_offline_with_page_crops(page, tmp_path) -> None:
    page.goto(page.url.split("#")[0] + "#chat")
    with page.expect_download() as dl:
        page.get_by_role("button", name="Export", exact=True).click()
    path = tmp_path / dl.value.suggested_filename
    dl.value.save_as(path)
    html = path.read_text(encoding="utf-8")
    assert QUESTION in html and "412" in html and "<script" not in html.lower()
    view = page.context.new_page()
    requests: list[str] = []
    view.on("request", lambda r: requests.append(r.url))
    view.goto(path.as_uri())
    expect(view.locator(".q").first).to_have_text(QUESTION)
    imgs = view.locator(".source img")
    assert imgs.count() >= 1
    assert all(src.startswith("data:image/png;base64,") for src in imgs.evaluate_all("els => els.map(e => e.src)"))
    assert view.evaluate("() => [...document.images].every((i) => i.complete && i.naturalWidth > 0)")
    assert requests == [path.as_uri()]  # nothing fetched from anywhere
    shot(view, "export-conversation")
    view.close()
    # The extraction report, downloaded from the Exports screen.
    page.goto(page.url.split("#")[0] + "#exports")
    with page.expect_download() as dl:
        page.get_by_role("button", name="Download report").first.click()
    report = (tmp_path / "report.html")
    dl.value.save_as(report)
    assert "Table 1: Birds counted per site" in report.read_text(encoding="utf-8")
    shot(page, "exports")


def test_batch_questions_and_settings(page, tmp_path) -> None:
    page.goto(page.url.split("#")[0] + "#batch")
    csv = tmp_path / "questions.csv"
    csv.write_text('question,document\n"How many birds at the northern marsh?",survey.pdf\nWhen do sightings peak?,\n'
                   "What is in the missing file?,nope.pdf\n", encoding="utf-8")
    page.get_by_label("Questions file").set_input_files(str(csv))
    page.get_by_role("button", name="Answer all").click()
    rows = page.locator("#batch-rows tr")
    expect(page.locator("#batch-status")).to_contain_text("2 answered, 1 failed", timeout=120_000)
    expect(rows.nth(0)).to_contain_text("412")
    expect(rows.nth(0)).to_contain_text("survey.pdf p.1")
    expect(rows.nth(2)).to_contain_text("no document named nope.pdf")
    with page.expect_download() as dl:
        page.get_by_role("button", name="Download CSV").click()
    out = tmp_path / "answers.csv"
    dl.value.save_as(out)
    text = out.read_text(encoding="utf-8")
    assert text.startswith("question,document,answer,citations,error,ms") and "412" in text
    shot(page, "batch")
    page.goto(page.url.split("#")[0] + "#settings")
    expect(page.locator("#components tr").first).to_be_visible()
    expect(page.locator("#config")).to_contain_text("extractive")
    page.get_by_role("button", name="Clear answer cache").click()
    expect(page.locator("#settings-status")).to_contain_text("Cleared")
    shot(page, "settings")


def test_phone_width_has_no_sideways_scroll(browser, server) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    p = ctx.new_page()
    for screen in ("library", "chat", "explorer", "batch", "settings"):
        p.goto(f"{server.url}/#{screen}")
        p.wait_for_load_state("networkidle")
        width = p.evaluate("document.documentElement.scrollWidth")
        assert width <= 392, f"{screen} is {width}px wide on a 390px screen"
        if screen == "chat":
            expect(p.get_by_role("button", name="Ask")).to_be_visible()
        shot(p, f"phone-{screen}")
    ctx.close()


def test_hostile_pdf_renders_as_text_and_runs_nothing(page, tmp_path_factory) -> None:
    pdf = build_sample_pdf(tmp_path_factory.mktemp("evil") / "evil <img src=x onerror=alert(1)>.pdf", title=XSS_TITLE, hostile=True)
    upload(page, pdf, shown="evil")  # the server makes the file name safe: evil _img src_x ….pdf
    row = page.locator("#documents tr", has_text="evil")
    expect(row).to_contain_text(XSS_TITLE)
    page.goto(page.url.split("#")[0] + "#chat")
    page.get_by_label("Question", exact=True).fill("Which hostile text sits in this paragraph with an image tag?")
    page.get_by_role("button", name="Ask").click()
    expect(page.locator(".turn").last.locator(".meta")).to_contain_text("channels", timeout=120_000)
    expect(page.locator("#sources")).to_contain_text("<script>window.__pwned=3</script>")
    doc_id = row.get_attribute("data-doc")
    page.goto(page.url.split("#")[0] + f"#explorer/{doc_id}/1")
    for line in XSS_BODY:
        expect(page.locator("#x-elements")).to_contain_text(line)
    shot(page, "xss")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator("script:not([src])").count() == 0 and page.locator('img[src="x"]').count() == 0
    assert page.locator('a[href^="javascript:"]').count() == 0
    assert not [p for p in page.problems if "dialog" in p], page.problems


def test_dropping_files_uploads_them(page, tmp_path) -> None:
    import base64

    from server_support import make_pdf

    data = base64.b64encode(make_pdf(tmp_path / "dropped.pdf").read_bytes()).decode()
    page.goto(page.url.split("#")[0] + "#library")
    transfer = page.evaluate_handle("""(b64) => { const dt = new DataTransfer();
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], 'dropped.pdf', {type: 'application/pdf'})); return dt; }""", data)
    page.locator("#dropzone").dispatch_event("drop", {"dataTransfer": transfer})
    expect(page.locator("li.job", has_text="dropped.pdf")).to_have_attribute("data-state", "done", timeout=120_000)
    expect(page.locator("#documents tr", has_text="dropped.pdf")).to_contain_text("3")


def test_reprocess_then_delete(page) -> None:
    page.goto(page.url.split("#")[0] + "#library")
    row = page.locator("#documents tr", has_text="survey.pdf")
    row.get_by_role("button", name="Reprocess").click()
    expect(page.locator("#library-status")).to_contain_text("Reprocessing survey.pdf")
    expect(page.locator("li.job").first).to_have_attribute("data-state", "done", timeout=120_000)
    page.wait_for_load_state("networkidle")  # the list reloads once the job is done: click after that
    delete = row.get_by_role("button", name="Delete")
    delete.click()
    expect(delete).to_have_text("Really delete?")  # a second click confirms; no browser dialog
    delete.click()
    expect(page.locator("#documents tr", has_text="survey.pdf")).to_have_count(0)
    expect(page.locator("#library-status")).to_contain_text("Deleted survey.pdf")
    assert not page.problems, page.problems
