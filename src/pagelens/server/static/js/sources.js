// Sources: cards (page image with the cited box, kind, relevance, content), citation links, the viewer.

import { figurePng, pagePng, setImage } from './api.js';
import { h, longText, relevanceBadge, renderTable } from './dom.js';

// One bracket group of numbers and page references, as pagelens.answer.citations parses them.
const GROUP = /\[\s*(?:source\s*)?(\d{1,3}(?:\s*[,;]\s*(?:(?:pp?\.?|pages?)\s*\d+(?:\s*[-–]\s*\d+)?|(?:source\s*)?\d{1,3}))*)\s*\]/gi;
const TOKEN = /((?:pp?\.?|pages?)\s*(\d+))|(\d+)/i;

export function parseGroup(inner) {
  const entries = [];
  for (const tok of inner.split(/[,;]/)) {
    const m = TOKEN.exec(tok);
    if (!m) continue;
    if (m[1]) {
      const page = parseInt(m[2], 10);
      if (entries.length && entries[entries.length - 1].page === null) entries[entries.length - 1].page = page;
      else if (entries.length) entries.push({ n: entries[entries.length - 1].n, page });
    } else entries.push({ n: parseInt(m[3], 10), page: null });
  }
  return entries;
}

/** Answer text as nodes: plain text with each [N, p.X] turned into citation links. */
export function answerNodes(text, sources, onCite) {
  const nodes = [];
  let last = 0;
  const byN = new Map((sources || []).map((s) => [s.n, s]));
  for (const m of String(text).matchAll(GROUP)) {
    nodes.push(document.createTextNode(text.slice(last, m.index)));
    const entries = parseGroup(m[1]);
    const group = h('span', { class: 'cite-group' }, '[');
    entries.forEach((c, i) => {
      if (i) group.append('; ');
      const src = byN.get(c.n);
      const label = c.page ? `${c.n}, p.${c.page}` : String(c.n);
      if (!src) {
        group.append(h('span', { class: 'cite invalid', title: `there is no source ${c.n}` }, label));
        return;
      }
      const page = c.page || src.page;
      group.append(h('a', {
        href: '#', class: 'cite', 'aria-label': `Citation ${c.n}, page ${page}: ${src.doc_name}`,
        dataset: { n: String(c.n), page: String(page) },
        onClick: (e) => { e.preventDefault(); onCite(src, page); },
      }, label));
    });
    group.append(']');
    nodes.push(group);
    last = m.index + m[0].length;
  }
  nodes.push(document.createTextNode(String(text).slice(last)));
  return nodes;
}

export function channelText(channels) {
  return Object.entries(channels || {}).filter(([, r]) => r !== null && r !== undefined)
    .map(([name, rank]) => `${name} #${rank}`).join(' · ');
}

/** What a source holds: a rendered table, a figure with caption and text, or text. */
export function sourceContent(s) {
  if (s.kind === 'table' || s.kind === 'table_rows') {
    return h('div', { class: 'table-wrap' }, renderTable(s.html, null, s.text));
  }
  if (s.kind === 'figure' || s.image_id) {
    const img = h('img', { alt: `Figure from ${s.doc_name}, page ${s.page}`, class: 'figure', loading: 'lazy' });
    const fig = h('figure', {}, img, s.caption ? h('figcaption', {}, s.caption) : null);
    if (s.image_id) setImage(img, figurePng(s.image_id), (msg) => img.replaceWith(h('p', { class: 'err small' }, `Figure image: ${msg}`)));
    else img.remove();
    const text = s.text && s.text !== s.caption ? h('div', {}, h('div', { class: 'muted small' }, 'Text in the figure (OCR / labels)'), longText(s.text, 400)) : null;
    return h('div', {}, fig, text);
  }
  return longText(s.text);
}

/** The boxes of a source on one page (a source may span pages: `bboxes` is [[page, box], ...]). */
export function boxesOn(s, page) {
  if (Array.isArray(s.bboxes) && s.bboxes.length) return s.bboxes.filter(([p]) => p === page).map(([, b]) => b);
  return s.bbox && page === s.page ? [s.bbox] : [];
}

/** A card for one source: header, page thumbnail with the box highlighted, content. */
export function sourceCard(s, { idPrefix, onShow }) {
  const boxes = boxesOn(s, s.page);
  const thumb = h('img', { class: 'thumb', alt: `Page ${s.page} of ${s.doc_name}${boxes.length ? ', cited box highlighted' : ''}` });
  setImage(thumb, pagePng(s.doc_id, s.page, { scale: 1, boxes }),
    (msg) => thumb.replaceWith(h('p', { class: 'err small' }, `Page image: ${msg}`)));
  const card = h('article', {
    class: 'source', id: `${idPrefix}-${s.n}`, tabindex: '-1',
    'aria-label': `Source ${s.n}: ${s.doc_name}, page ${s.page}`,
  },
  h('header', {},
    h('span', { class: 'n' }, String(s.n)),
    h('span', { class: 'doc' }, s.doc_name), h('span', { class: 'muted' }, ` p.${s.page}`),
    h('span', { class: 'pill kind' }, s.kind), relevanceBadge(s.relevance)),
  h('div', { class: 'muted small' }, channelText(s.channels)),
  h('button', { type: 'button', class: 'thumb-btn', 'aria-label': `Show page ${s.page} of ${s.doc_name} large`,
    onClick: () => onShow(s, s.page) }, thumb),
  sourceContent(s));
  return card;
}

/** The large page view: one page with the cited box highlighted by the server. */
export function showPage(viewer, s, page) {
  const boxes = boxesOn(s, page);
  viewer.hidden = false;
  const img = viewer.querySelector('img');
  const cap = viewer.querySelector('figcaption');
  cap.textContent = `${s.doc_name}, page ${page}${boxes.length ? ' · cited box highlighted' : ''}`;
  img.alt = `Page ${page} of ${s.doc_name}${boxes.length ? ' with the cited box highlighted' : ''}`;
  img.dataset.highlighted = boxes.length ? 'true' : 'false';
  const frame = viewer.querySelector('.viewer-frame');
  img.onload = () => {  // bring the highlighted box to the middle of the frame
    if (!boxes.length || !img.naturalWidth) return;
    const k = (img.clientWidth / img.naturalWidth) * 2;  // page points → displayed pixels (scale 2)
    const top = Math.min(...boxes.map((b) => b[1])) * k;
    const bottom = Math.max(...boxes.map((b) => b[3])) * k;
    frame.scrollTop = Math.max(0, (top + bottom) / 2 - frame.clientHeight / 2);
  };
  setImage(img, pagePng(s.doc_id, page, { scale: 2, boxes }), (msg) => { cap.textContent = `Page image: ${msg}`; });
}

export function viewerElement(id) {
  return h('figure', { class: 'viewer', id, hidden: true },
    h('div', { class: 'viewer-frame' }, h('img', { alt: '' })), h('figcaption', {}),
    h('button', { type: 'button', class: 'link', onClick: (e) => { e.target.closest('figure').hidden = true; } }, 'close'));
}
