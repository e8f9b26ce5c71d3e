// Exports: the conversation as one self-contained HTML file (page crops as data URLs), and the
// per-document extraction report from the server.

import { api, docPath, fetchBlob, pagePng } from './api.js';
import { $, clear, download, h, ms, renderTable, say } from './dom.js';
import { on, store } from './state.js';
import { boxesOn } from './sources.js';
import { conversation } from './chat.js';

const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";
const STYLE = `body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d232b}
.q{font-weight:600;margin-top:2rem;font-size:1.1rem}.a{white-space:pre-wrap;margin:.5rem 0 1rem}
.meta,.muted{color:#5a6573;font-size:.85rem}.source{border:1px solid #d5dbe3;border-radius:6px;padding:.6rem;margin:.6rem 0}
.source img{max-width:100%;border:1px solid #d5dbe3}table{border-collapse:collapse}td,th{border:1px solid #c7cfd9;padding:.15rem .4rem}
.text{white-space:pre-wrap}`;

let root;

export function init() {
  root = $('#screen-exports');
  root.append(
    h('h1', {}, 'Exports'),
    h('h2', {}, 'Conversation'),
    h('p', { class: 'muted' }, 'One HTML file with the questions, answers, sources with their page crops, and the settings used. It opens offline.'),
    h('button', { type: 'button', id: 'export-conv-2', onClick: async () => {
      try {
        if (!conversation.turns.some((t) => t.done)) throw new Error('nothing to export yet: ask a question in Chat first');
        say($('#exports-status'), 'Building the export…');
        await exportConversation(conversation);
        say($('#exports-status'), 'Exported.', 'ok');
      } catch (e) { say($('#exports-status'), `Export failed: ${e.message}`, 'error'); }
    } }, 'Export conversation'),
    h('p', { id: 'exports-status', class: 'status', role: 'status', hidden: true }),
    h('h2', {}, 'Extraction reports'),
    h('p', { class: 'muted' }, 'Per document: metadata and outline, element counts per page, every table and figure; the same file as the command pagelens report DOC --html FILE.'),
    h('ul', { id: 'reports', class: 'plain' }));
  on('documents', renderReports);
}

function renderReports() {
  const list = clear($('#reports'));
  if (!store.documents.length) list.append(h('li', { class: 'muted' }, 'No documents yet.'));
  for (const d of store.documents) {
    list.append(h('li', { class: 'row' }, h('span', { class: 'grow' }, d.name),
      h('button', { type: 'button', onClick: () => openReport(d).catch((e) => say($('#exports-status'), `Report failed: ${e.message}`, 'error')) },
        'Download report')));
  }
}

export async function openReport(d) {
  const blob = await fetchBlob(docPath(d.doc_id, '/report.html'));
  download(`${d.name.replace(/\.pdf$/i, '')}-report.html`, blob);
}

// -- page crops ---------------------------------------------------------------------------------
const crops = new Map();

async function crop(s) {
  const boxes = boxesOn(s, s.page);
  const key = `${s.doc_id}|${s.page}|${JSON.stringify(boxes)}`;
  if (crops.has(key)) return crops.get(key);
  const [blob, size] = await Promise.all([
    fetchBlob(pagePng(s.doc_id, s.page, { scale: 2, boxes })),
    api(docPath(s.doc_id, `/pages/${s.page}/size`)),
  ]);
  const bmp = await createImageBitmap(blob);
  const k = bmp.width / size.width;
  let [x0, y0, x1, y1] = boxes.length
    ? [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))]
    : [0, 0, size.width, size.height];
  const pad = boxes.length ? 24 : 0;
  x0 = Math.max(0, x0 - pad); y0 = Math.max(0, y0 - pad);
  x1 = Math.min(size.width, x1 + pad); y1 = Math.min(size.height, y1 + pad);
  const sw = (x1 - x0) * k;
  const sh = (y1 - y0) * k;
  const out = Math.min(1, 900 / sw);
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(sw * out));
  canvas.height = Math.max(1, Math.round(sh * out));
  canvas.getContext('2d').drawImage(bmp, x0 * k, y0 * k, sw, sh, 0, 0, canvas.width, canvas.height);
  const url = canvas.toDataURL('image/png');
  crops.set(key, url);
  return url;
}

function exportSource(s, url) {
  const body = s.kind === 'table' || s.kind === 'table_rows' ? renderTable(s.html, null, s.text) : h('p', { class: 'text' }, s.text || '');
  return h('div', { class: 'source' },
    h('div', {}, h('b', {}, `[${s.n}] ${s.doc_name}, page ${s.page}`), h('span', { class: 'muted' },
      ` · ${s.kind} · relevance ${(s.relevance ?? 0).toFixed(2)}`)),
    url ? h('img', { src: url, alt: `Crop of page ${s.page} of ${s.doc_name}` }) : h('p', { class: 'muted' }, 'no page image'),
    s.caption ? h('p', { class: 'muted' }, s.caption) : null, body);
}

/** Build and download the conversation file; every piece of text goes in as a text node. */
export async function exportConversation(conv) {
  let config = {};
  try { config = await api('/config'); } catch { /* the export still works without it */ }
  const doc = document.implementation.createHTMLDocument('pagelens conversation');
  const turns = conv.turns.filter((t) => t.done);
  doc.body.append(h('h1', {}, 'pagelens conversation'),
    h('p', { class: 'meta' }, `Exported ${new Date().toISOString()} · ${turns.length} question${turns.length === 1 ? '' : 's'} · LLM ${config.llm_model || 'none (extractive)'} · embedder ${config.embedder || 'unknown'}`));
  for (const t of turns) {
    const sources = [];
    for (const s of t.sources) {
      let url = null;
      try { url = await crop(s); } catch { url = null; }
      sources.push(exportSource(s, url));
    }
    const o = t.options || {};
    doc.body.append(h('section', { class: 'turn' },
      h('div', { class: 'q' }, t.question),
      h('div', { class: 'a' }, t.answer),
      h('div', { class: 'meta' }, `model ${t.model || 'extractive'} · ${t.cached ? 'cached' : 'fresh'} · ` +
        `history ${o.history ? 'on' : 'off'}, HyDE ${o.hyde ? 'on' : 'off'}, multi-query ${o.multi_query ? 'on' : 'off'}, rerank ${o.rerank ? 'on' : 'off'}` +
        `${o.doc_ids ? ` · documents ${o.doc_ids.length}` : ''} · ` +
        Object.entries(t.timings || {}).filter(([, v]) => typeof v === 'number').map(([k, v]) => `${k} ${ms(v)}`).join(', ')),
      (t.notes || []).map((n) => h('div', { class: 'meta' }, n)),
      h('h3', {}, 'Sources'), sources));
  }
  // The head is constant text; everything else was built as DOM nodes and is serialised escaped.
  const head = `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${CSP}">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><title>pagelens conversation</title><style>${STYLE}</style>`;
  const html = `<!doctype html>\n<html lang="en"><head>${head}</head>${doc.body.outerHTML}</html>`;
  const stamp = new Date().toISOString().slice(0, 16).replace(/[:T]/g, '-');
  download(`pagelens-conversation-${stamp}.html`, new Blob([html], { type: 'text/html' }));
  return html;
}

