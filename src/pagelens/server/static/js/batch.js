// Batch questions: a CSV or JSONL list (question, optional document), answered a few at a time into a
// table as they complete; the table downloads as CSV or JSONL.

import { api } from './api.js';
import { $, clear, download, h, say } from './dom.js';
import { store } from './state.js';

const PARALLEL = 2;
let rows = [];
let running = false;
let stopRequested = false;

export function init() {
  const root = $('#screen-batch');
  root.append(
    h('h1', {}, 'Batch questions'),
    h('p', { class: 'muted' }, 'A CSV with a header row (columns "question" and optionally "document"), or JSONL with one {"question": …, "document": …} per line. The document is a file name or doc id.'),
    h('div', { class: 'row' },
      h('input', { type: 'file', id: 'batch-file', accept: '.csv,.jsonl,.json,text/csv', 'aria-label': 'Questions file',
        onChange: (e) => load(e.target.files[0]) }),
      h('label', { class: 'toggle' }, h('input', { type: 'checkbox', id: 'batch-rerank', checked: true }), ' rerank'),
      h('button', { type: 'button', id: 'batch-run', onClick: run, disabled: true }, 'Answer all'),
      h('button', { type: 'button', id: 'batch-stop', onClick: () => { stopRequested = true; }, disabled: true }, 'Stop'),
      h('button', { type: 'button', onClick: () => save('csv') }, 'Download CSV'),
      h('button', { type: 'button', onClick: () => save('jsonl') }, 'Download JSONL')),
    h('p', { id: 'batch-status', class: 'status', role: 'status', hidden: true }),
    h('div', { class: 'table-wrap' }, h('table', { class: 'data batch' },
      h('thead', {}, h('tr', {}, ['#', 'Question', 'Document', 'Answer', 'Citations', 'Time'].map((t) => h('th', {}, t)))),
      h('tbody', { id: 'batch-rows' }))));
}

const status = (msg, kind) => say($('#batch-status'), msg, kind);

/** CSV rows as arrays (RFC 4180 quotes, commas or semicolons). */
export function parseCsv(text) {
  const out = [];
  let row = [];
  let cell = '';
  let quoted = false;
  const sep = (text.split('\n')[0].match(/;/g) || []).length > (text.split('\n')[0].match(/,/g) || []).length ? ';' : ',';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === sep) { row.push(cell); cell = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell); cell = '';
      if (row.some((x) => x.trim())) out.push(row);
      row = [];
    } else cell += c;
  }
  row.push(cell);
  if (row.some((x) => x.trim())) out.push(row);
  return out;
}

function parseQuestions(name, text) {
  if (/\.jsonl?$/i.test(name) || text.trim().startsWith('{')) {
    return text.split('\n').map((l, i) => [l.trim(), i + 1]).filter(([l]) => l).map(([l, n]) => {
      let obj;
      try { obj = JSON.parse(l); } catch (e) { throw new Error(`${name}: line ${n}: not JSON (${e.message})`); }
      if (!obj || typeof obj.question !== 'string') throw new Error(`${name}: line ${n}: needs a "question" string`);
      return { question: obj.question, document: obj.document ?? obj.doc ?? obj.doc_id ?? null };
    });
  }
  const table = parseCsv(text);
  if (!table.length) throw new Error(`${name}: empty`);
  const head = table[0].map((c) => c.trim().toLowerCase());
  let qi = head.indexOf('question');
  const di = ['document', 'doc', 'doc_id', 'file'].map((k) => head.indexOf(k)).find((i) => i >= 0) ?? -1;
  let body = table.slice(1);
  if (qi < 0) { qi = 0; body = table; }  // no header: the first column is the question
  return body.map((r) => ({ question: (r[qi] || '').trim(), document: di >= 0 ? (r[di] || '').trim() || null : null }))
    .filter((r) => r.question);
}

function resolveDoc(ref) {
  if (!ref) return { ids: null };
  const d = store.documents.find((x) => x.doc_id === ref || x.name === ref || (ref.length >= 6 && x.doc_id.startsWith(ref)));
  return d ? { ids: [d.doc_id], name: d.name } : { error: `no document named ${ref}` };
}

async function load(file) {
  if (!file) return;
  try {
    const text = await file.text();
    rows = parseQuestions(file.name, text).map((r, i) => ({ ...r, i: i + 1, state: 'waiting' }));
    if (!rows.length) throw new Error(`${file.name}: no questions found`);
    const body = clear($('#batch-rows'));
    for (const r of rows) {
      r.cells = { answer: h('td', { class: 'text' }, 'waiting'), cites: h('td', { class: 'small' }), time: h('td', { class: 'num' }) };
      body.append(h('tr', {}, h('td', { class: 'num' }, String(r.i)), h('td', {}, r.question), h('td', {}, r.document || 'all'),
        r.cells.answer, r.cells.cites, r.cells.time));
    }
    $('#batch-run').disabled = false;
    status(`${rows.length} questions loaded from ${file.name}.`, 'ok');
  } catch (e) {
    rows = [];
    $('#batch-run').disabled = true;
    status(`Could not read the questions: ${e.message}`, 'error');
  }
}

async function answer(r) {
  const doc = resolveDoc(r.document);
  if (doc.error) { r.state = 'failed'; r.error = doc.error; r.cells.answer.textContent = `error: ${doc.error}`; return; }
  r.cells.answer.textContent = 'answering…';
  const t0 = performance.now();
  try {
    const res = await api('/query', { method: 'POST', json: {
      question: r.question, conversation_id: null, history: false, hyde: false, multi_query: false,
      rerank: $('#batch-rerank').checked, doc_ids: doc.ids, k: null,
    } });
    r.state = 'done';
    r.answer = res.answer;
    r.citations = (res.citations || []).map((c) => {
      const s = (res.sources || []).find((x) => x.n === c.n);
      return { n: c.n, page: c.page, valid: c.valid, document: s ? s.doc_name : null };
    });
    r.cells.answer.textContent = res.answer;
    r.cells.cites.textContent = r.citations.map((c) => `[${c.n}] ${c.document || '?'} p.${c.page}${c.valid ? '' : ' (invalid)'}`).join('\n');
  } catch (e) {
    r.state = 'failed';
    r.error = e.message;
    r.cells.answer.textContent = `error: ${e.message}`;
  }
  r.ms = Math.round(performance.now() - t0);
  r.cells.time.textContent = `${(r.ms / 1000).toFixed(1)} s`;
}

async function run() {
  if (running || !rows.length) return;
  running = true;
  stopRequested = false;
  $('#batch-run').disabled = true;
  $('#batch-stop').disabled = false;
  const queue = rows.filter((r) => r.state !== 'done');
  let done = 0;
  const worker = async () => {
    while (queue.length && !stopRequested) {
      await answer(queue.shift());
      done++;
      status(`${done} of ${rows.length} answered…`);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  running = false;
  $('#batch-run').disabled = false;
  $('#batch-stop').disabled = true;
  const failed = rows.filter((r) => r.state === 'failed').length;
  status(`${rows.filter((r) => r.state === 'done').length} answered${failed ? `, ${failed} failed` : ''}${stopRequested ? ' (stopped)' : ''}.`, failed ? 'error' : 'ok');
}

const csvCell = (v) => {
  const s = String(v ?? '');
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;  // no formulas when opened in a spreadsheet
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

function save(format) {
  if (!rows.length) { status('Nothing to download: load a questions file first.', 'error'); return; }
  const plain = rows.map((r) => ({ question: r.question, document: r.document, answer: r.answer ?? null,
    citations: r.citations ?? [], error: r.error ?? null, ms: r.ms ?? null }));
  if (format === 'jsonl') {
    download('answers.jsonl', new Blob([plain.map((r) => JSON.stringify(r)).join('\n') + '\n'], { type: 'application/jsonl' }));
    return;
  }
  const lines = [['question', 'document', 'answer', 'citations', 'error', 'ms'].join(',')];
  for (const r of plain) {
    const cites = r.citations.map((c) => `[${c.n}] ${c.document || ''} p.${c.page}`).join('; ');
    lines.push([r.question, r.document, r.answer, cites, r.error, r.ms].map(csvCell).join(','));
  }
  download('answers.csv', new Blob([lines.join('\r\n') + '\r\n'], { type: 'text/csv' }));
}
