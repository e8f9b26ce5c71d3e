// Explorer: a document page by page (page image beside its elements in reading order; click an element
// and its box lights up), search inside the document, and a chunk lookup showing each channel's ranks.

import { api, docPath, figurePng, pagePng, setImage } from './api.js';
import { $, clear, h, longText, relevanceBadge, renderTable, say } from './dom.js';
import { channelText } from './sources.js';
import { on, store } from './state.js';

const view = { docId: null, page: 1, pages: 0, size: null, elements: [], token: 0 };

export function init() {
  const root = $('#screen-explorer');
  const tabs = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Explorer views' },
    ['Pages', 'Search', 'Chunk lookup'].map((name, i) => h('button', {
      type: 'button', role: 'tab', id: `xtab-${i}`, 'aria-selected': i === 0 ? 'true' : 'false',
      onClick: () => selectTab(i),
    }, name)));
  root.append(
    h('div', { class: 'toolbar' },
      h('label', { for: 'x-doc' }, 'Document '), h('select', { id: 'x-doc', onChange: (e) => go(e.target.value, 1) }),
      h('button', { type: 'button', 'aria-label': 'Previous page', onClick: () => go(view.docId, view.page - 1) }, '‹'),
      h('label', { for: 'x-page', class: 'visually-hidden' }, 'Page'),
      h('input', { id: 'x-page', type: 'number', min: 1, value: 1, class: 'page-input',
        onChange: (e) => go(view.docId, parseInt(e.target.value, 10) || 1) }),
      h('span', { id: 'x-pages', class: 'muted' }),
      h('button', { type: 'button', 'aria-label': 'Next page', onClick: () => go(view.docId, view.page + 1) }, '›')),
    tabs,
    h('p', { id: 'x-status', class: 'status', role: 'status', hidden: true }),
    h('div', { id: 'xpanel-0', role: 'tabpanel', 'aria-labelledby': 'xtab-0', class: 'explorer' },
      h('div', { class: 'page-view' }, h('div', { class: 'page-frame', id: 'x-frame' },
        h('img', { id: 'x-img', alt: '' }), h('div', { class: 'overlay', id: 'x-overlay' }))),
      h('ol', { id: 'x-elements', class: 'elements', 'aria-label': 'Elements in reading order' })),
    h('div', { id: 'xpanel-1', role: 'tabpanel', 'aria-labelledby': 'xtab-1', hidden: true },
      h('form', { class: 'row', onSubmit: (e) => { e.preventDefault(); search(); } },
        h('label', { for: 'x-q', class: 'visually-hidden' }, 'Search in this document'),
        h('input', { id: 'x-q', type: 'search', placeholder: 'Search in this document', class: 'grow' }),
        h('label', { for: 'x-mode', class: 'visually-hidden' }, 'Search mode'),
        h('select', { id: 'x-mode' }, h('option', { value: 'hybrid' }, 'hybrid'), h('option', { value: 'sparse' }, 'keyword'),
          h('option', { value: 'dense' }, 'dense')),
        h('button', { type: 'submit' }, 'Search')),
      h('ol', { id: 'x-results', class: 'results' })),
    h('div', { id: 'xpanel-2', role: 'tabpanel', 'aria-labelledby': 'xtab-2', hidden: true },
      h('form', { class: 'row', onSubmit: (e) => { e.preventDefault(); lookup(); } },
        h('label', { for: 'x-lq', class: 'visually-hidden' }, 'Chunk lookup query'),
        h('input', { id: 'x-lq', type: 'search', placeholder: 'What does each channel return for…', class: 'grow' }),
        h('label', { class: 'toggle' }, h('input', { type: 'checkbox', id: 'x-all' }), ' all documents'),
        h('button', { type: 'submit' }, 'Look up')),
      h('div', { id: 'x-lookup', class: 'table-wrap' })),
  );
  on('documents', fillDocs);
  window.addEventListener('resize', () => drawBoxes());
}

const status = (msg, kind) => say($('#x-status'), msg, kind);

function selectTab(i) {
  for (let j = 0; j < 3; j++) {
    $(`#xtab-${j}`).setAttribute('aria-selected', String(i === j));
    $(`#xpanel-${j}`).hidden = i !== j;
  }
}

function fillDocs() {
  const sel = clear($('#x-doc'));
  for (const d of store.documents) sel.append(h('option', { value: d.doc_id, selected: d.doc_id === view.docId }, d.name));
  if (!view.docId && store.documents.length && !$('#screen-explorer').hidden) go(store.documents[0].doc_id, 1);
}

export function show(args) {
  const [docId, page] = args;
  if (docId) go(docId, parseInt(page, 10) || 1);
  else if (view.docId) go(view.docId, view.page);
  else if (store.documents.length) go(store.documents[0].doc_id, 1);
  else status('No documents yet: add some in the Library.', 'info');
}

async function go(docId, page, lightId = null) {
  if (!docId) return;
  const token = ++view.token;
  const doc = store.documents.find((d) => d.doc_id === docId);
  const pages = doc ? doc.pages : view.pages;
  page = Math.max(1, pages ? Math.min(page, pages) : page);
  view.docId = docId;
  view.page = page;
  view.pages = pages;
  $('#x-doc').value = docId;
  $('#x-page').value = page;
  $('#x-pages').textContent = pages ? `of ${pages}` : '';
  const hash = `#explorer/${encodeURIComponent(docId)}/${page}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
  status('');
  clear($('#x-overlay'));
  clear($('#x-elements')).append(h('li', { class: 'muted' }, 'loading…'));
  const img = $('#x-img');
  img.alt = `Page ${page} of ${doc ? doc.name : docId}`;
  setImage(img, pagePng(docId, page, { scale: 1.5 }), (msg) => {
    if ($('#x-status').hidden) status(`Page image: ${msg}`, 'error');  // a page error says more: keep it
  });
  try {
    const [detail, size] = await Promise.all([
      api(docPath(docId, `?page=${page}`)),
      api(docPath(docId, `/pages/${page}/size`)),
    ]);
    if (token !== view.token) return;
    view.pages = detail.pages || view.pages;
    $('#x-pages').textContent = `of ${view.pages}`;
    view.size = size;
    view.elements = (detail.elements || []).filter((e) => e.page === page);
    renderElements();
    if (lightId) light(lightId);
  } catch (e) {
    if (token !== view.token) return;
    clear($('#x-elements'));
    status(`Could not open page ${page}: ${e.message}`, 'error');
  }
}

function elementBody(e) {
  if (e.kind === 'table') return h('div', { class: 'table-wrap' }, renderTable(e.html, e.markdown, e.text));
  if (e.kind === 'figure') {
    const img = h('img', { class: 'figure', alt: `Figure on page ${e.page}` });
    if (e.image_id) setImage(img, figurePng(e.image_id), (msg) => img.replaceWith(h('p', { class: 'err small' }, `Figure image: ${msg}`)));
    return h('div', {}, h('figure', {}, img, e.caption ? h('figcaption', {}, e.caption) : null),
      e.ocr_text ? h('div', {}, h('div', { class: 'muted small' }, 'OCR text'), longText(e.ocr_text, 400)) : null,
      e.text && e.text !== e.ocr_text ? h('div', {}, h('div', { class: 'muted small' }, 'Text inside'), longText(e.text, 400)) : null);
  }
  return longText(e.text, 500);
}

function renderElements() {
  const list = clear($('#x-elements'));
  if (!view.elements.length) list.append(h('li', { class: 'muted' }, 'No elements on this page.'));
  view.elements.forEach((e, i) => {
    list.append(h('li', { class: 'element', dataset: { id: e.element_id, kind: e.kind } },
      h('button', { type: 'button', class: 'el-head', 'aria-label': `Show ${e.kind} ${i + 1} on the page`,
        onClick: () => light(e.element_id) },
        h('span', { class: 'pill kind' }, e.kind), h('span', { class: 'muted small' }, (e.section || []).join(' › '))),
      elementBody(e)));
  });
  drawBoxes();
}

function drawBoxes() {
  const overlay = $('#x-overlay');
  if (!overlay || !view.size) return;
  clear(overlay);
  const { width, height } = view.size;
  for (const e of view.elements) {
    if (!e.bbox) continue;
    const [x0, y0, x1, y1] = e.bbox;
    const box = h('div', { class: 'box', dataset: { id: e.element_id }, title: e.kind });
    box.style.left = `${(x0 / width) * 100}%`;
    box.style.top = `${(y0 / height) * 100}%`;
    box.style.width = `${((x1 - x0) / width) * 100}%`;
    box.style.height = `${((y1 - y0) / height) * 100}%`;
    box.addEventListener('click', () => light(e.element_id));
    overlay.append(box);
  }
}

function light(id) {
  document.querySelectorAll('#x-overlay .box.lit, #x-elements .element.lit').forEach((b) => b.classList.remove('lit'));
  const box = document.querySelector(`#x-overlay .box[data-id="${CSS.escape(id)}"]`);
  const item = document.querySelector(`#x-elements .element[data-id="${CSS.escape(id)}"]`);
  if (box) { box.classList.add('lit'); box.scrollIntoView({ block: 'nearest' }); }
  if (item) { item.classList.add('lit'); item.scrollIntoView({ block: 'nearest' }); }
}

async function search() {
  const q = $('#x-q').value.trim();
  const list = clear($('#x-results'));
  if (!q || !view.docId) return;
  try {
    const res = await api('/search', { method: 'POST', json: { query: q, k: 10, mode: $('#x-mode').value, doc_ids: [view.docId] } });
    if (!res.hits.length) list.append(h('li', { class: 'muted' }, 'Nothing found.'));
    for (const hit of res.hits) {
      list.append(h('li', { class: 'result' },
        h('button', { type: 'button', class: 'link', onClick: () => { selectTab(0); go(hit.doc_id, hit.page, (hit.element_ids || [])[0]); } },
          `#${hit.n} · page ${hit.page} · ${hit.kind}`), ' ', relevanceBadge(hit.relevance),
        h('span', { class: 'muted small' }, ` ${channelText(hit.channels)}`),
        h('p', { class: 'text' }, (hit.text || '').slice(0, 300))));
    }
    list.append(h('li', { class: 'muted small' }, `${res.hits.length} hits in ${Math.round(res.timings?.total_ms ?? 0)} ms`));
  } catch (e) {
    list.append(h('li', { class: 'err' }, `Search failed: ${e.message}`));
  }
}

// Chunk lookup: the same query through each channel alone and fused; one row per chunk, one rank column per channel.
async function lookup() {
  const q = $('#x-lq').value.trim();
  const box = clear($('#x-lookup'));
  if (!q) return;
  box.append(h('p', { class: 'muted' }, 'looking up…'));
  let channels = ['dense', 'sparse'];
  try { channels = ((await api('/stats')).channels || channels).filter((c) => ['dense', 'sparse', 'image'].includes(c)); } catch { /* keep the two */ }
  const modes = ['hybrid', ...channels];
  const docIds = $('#x-all').checked || !view.docId ? null : [view.docId];
  const results = await Promise.all(modes.map((mode) => api('/search', { method: 'POST', json: { query: q, k: 10, mode, doc_ids: docIds } })
    .then((r) => ({ mode, hits: r.hits })).catch((e) => ({ mode, error: e.message }))));
  clear(box);
  const rows = new Map();
  for (const r of results) {
    if (r.error) { box.append(h('p', { class: 'err' }, `${r.mode}: ${r.error}`)); continue; }
    for (const hit of r.hits) {
      const row = rows.get(hit.chunk_id) || { hit, ranks: {} };
      row.ranks[r.mode] = hit.n;
      rows.set(hit.chunk_id, row);
    }
  }
  const sorted = [...rows.values()].sort((a, b) => (a.ranks.hybrid ?? 99) - (b.ranks.hybrid ?? 99));
  box.append(h('table', { class: 'data lookup' },
    h('thead', {}, h('tr', {}, modes.map((m) => h('th', {}, m === 'sparse' ? 'keyword' : m)), h('th', {}, 'page'), h('th', {}, 'kind'), h('th', {}, 'chunk'))),
    h('tbody', {}, sorted.map(({ hit, ranks }) => h('tr', {},
      modes.map((m) => h('td', { class: 'num' }, ranks[m] ? `#${ranks[m]}` : '–')),
      h('td', { class: 'num' }, String(hit.page)), h('td', {}, hit.kind),
      h('td', { class: 'small' }, `${hit.doc_name}: ${(hit.text || '').slice(0, 160)}`))))));
}
