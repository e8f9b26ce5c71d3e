// DOM helpers. Everything from a PDF or the server is inserted as text (textContent / text nodes),
// never as HTML. Tables arrive as HTML from the server: they are parsed inertly and rebuilt from the
// cells' text only.

const PROPS = new Set(['value', 'checked', 'disabled', 'type', 'hidden', 'multiple', 'selected', 'open']);
const SAFE_URL = /^(\/|#|blob:|data:image\/(png|jpeg);)/;

/** h('div', {class: 'x', onClick: fn}, 'text', child) — strings become text nodes. */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = String(v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2).toLowerCase(), v);
    else if (PROPS.has(k)) el[k] = v;
    else if (k === 'href' || k === 'src') {
      if (!SAFE_URL.test(String(v))) throw new Error(`refusing ${k}=${v}`);
      el.setAttribute(k, String(v));
    } else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, ...children);
  return el;
}

export function append(el, ...children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export const $ = (sel, root = document) => root.querySelector(sel);

/** Replace the content of a status element with a message; kind: info | error | ok. */
export function say(el, message, kind = 'info') {
  el.textContent = message || '';
  el.dataset.kind = kind;
  el.hidden = !message;
}

export function ms(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return '–';
  return v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`;
}

export function kinds(counts) {
  const entries = Object.entries(counts || {}).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  return entries.map(([k, n]) => `${k} ${n}`).join(' · ') || 'none';
}

/** Relevance 0..1 as a badge in three bands: green (≥ .66), orange (≥ .33), red. */
export function relevanceBadge(rel) {
  const r = typeof rel === 'number' ? rel : 0;
  const band = r >= 0.66 ? 'high' : r >= 0.33 ? 'medium' : 'low';
  return h('span', { class: `badge rel-${band}`, title: `relevance ${r.toFixed(2)}` }, `${Math.round(r * 100)}% ${band}`);
}

function span(v) {
  const n = parseInt(v, 10);
  return Number.isFinite(n) && n > 1 && n < 100 ? n : null;
}

/** A <table> rebuilt from the text of the cells of server-made table HTML (nothing else survives). */
export function tableFromHtml(html) {
  if (!html) return null;
  const doc = new DOMParser().parseFromString(String(html), 'text/html');  // inert: no scripts, no loads
  const src = doc.querySelector('table');
  if (!src) return null;
  const table = h('table', { class: 'data' });
  const thead = h('thead');
  const tbody = h('tbody');
  for (const row of src.rows) {
    const tr = h('tr');
    for (const cell of row.cells) {
      const c = h(cell.tagName === 'TH' ? 'th' : 'td', {}, cell.textContent.trim());
      if (span(cell.getAttribute('colspan'))) c.colSpan = span(cell.getAttribute('colspan'));
      if (span(cell.getAttribute('rowspan'))) c.rowSpan = span(cell.getAttribute('rowspan'));
      tr.append(c);
    }
    (row.parentElement && row.parentElement.tagName === 'THEAD' ? thead : tbody).append(tr);
  }
  const cap = src.querySelector('caption');
  if (cap && cap.textContent.trim()) table.append(h('caption', {}, cap.textContent.trim()));
  if (thead.rows.length) table.append(thead);
  table.append(tbody);
  return table;
}

/** A <table> from a GitHub-style markdown table (first row is the header). */
export function tableFromMarkdown(md) {
  const lines = String(md || '').split('\n').map((l) => l.trim()).filter((l) => l.startsWith('|'));
  if (lines.length < 2) return null;
  const cells = (l) => l.replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((c) => c.replace(/\\\|/g, '|').trim());
  const rows = lines.filter((l) => !/^[|\s:-]+$/.test(l));  // drop the |---|---| line
  const table = h('table', { class: 'data' });
  const [head, ...body] = rows;
  table.append(h('thead', {}, h('tr', {}, cells(head).map((c) => h('th', {}, c)))));
  table.append(h('tbody', {}, body.map((r) => h('tr', {}, cells(r).map((c) => h('td', {}, c))))));
  return table;
}

export function renderTable(html, markdown, text) {
  return tableFromHtml(html) || tableFromMarkdown(markdown) || tableFromMarkdown(text) || h('pre', { class: 'text' }, text || '');
}

/** Text that can be long: shown clipped with a "more" toggle. */
export function longText(text, limit = 700) {
  const t = String(text || '');
  const p = h('p', { class: 'text' }, t.length > limit ? t.slice(0, limit) + '…' : t);
  if (t.length <= limit) return p;
  let open = false;
  const btn = h('button', { type: 'button', class: 'link', onClick: () => {
    open = !open;
    p.textContent = open ? t : t.slice(0, limit) + '…';
    btn.textContent = open ? 'less' : 'more';
  } }, 'more');
  return h('div', {}, p, btn);
}

export function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = h('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30000);
}
