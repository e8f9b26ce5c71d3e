// Chat: the answer streams in over /ws/query with the current phase shown; citations link to source
// cards whose page images have the cited box highlighted.

import { api, wsUrl } from './api.js';
import { $, append, clear, h, ms, say } from './dom.js';
import { answerNodes, showPage, sourceCard, viewerElement } from './sources.js';
import { on, store } from './state.js';
import { exportConversation } from './exports.js';

const PHASES = ['rewrite', 'embed', 'search', 'fuse', 'rerank', 'generate'];
const PHASE_WORDS = { rewrite: 'rewriting the question', embed: 'embedding', search: 'searching', fuse: 'fusing channels',
  rerank: 'reranking', generate: 'writing the answer' };

export const conversation = { id: null, turns: [] };
let active = null;  // the turn whose sources are shown
let busy = false;

// One socket for the whole conversation; reopened when it closes.
class QuerySocket {
  constructor() { this.ws = null; this.handler = null; }

  open() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) return Promise.resolve(this.ws);
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(wsUrl('/ws/query'));
      ws.onopen = () => { this.ws = ws; resolve(ws); };
      ws.onerror = () => reject(new Error('the answer stream (/ws/query) could not be opened'));
      ws.onmessage = (ev) => {
        let msg;
        try { msg = JSON.parse(ev.data); } catch { return; }
        if (this.handler) this.handler(msg);
      };
      ws.onclose = (ev) => {
        this.ws = null;
        if (this.handler) this.handler({ type: 'error', message: `the connection closed (${ev.code}${ev.reason ? `: ${ev.reason}` : ''})` });
      };
    });
  }

  async ask(payload, handler) {
    const ws = await this.open();
    this.handler = (msg) => {
      handler(msg);
      if (msg.type === 'done' || msg.type === 'error') this.handler = null;
    };
    ws.send(JSON.stringify(payload));
  }
}

const socket = new QuerySocket();

export function init() {
  const root = $('#screen-chat');
  const toggle = (id, label, checked, hint) => h('label', { class: 'toggle', title: hint },
    h('input', { type: 'checkbox', id, checked }), ` ${label}`);
  const question = h('textarea', { id: 'question', rows: 2, placeholder: 'Ask about your documents…', 'aria-label': 'Question' });
  question.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      $('#ask-form').requestSubmit();
    }
  });
  root.append(
    h('div', { class: 'chat' },
      h('div', { class: 'chat-main' },
        h('div', { class: 'toolbar' },
          toggle('opt-history', 'history', true, 'Use earlier turns to understand follow-up questions'),
          toggle('opt-hyde', 'HyDE', false, 'Search with a hypothetical answer too'),
          toggle('opt-multi', 'multi-query', false, 'Search with rephrasings of the question too'),
          toggle('opt-rerank', 'rerank', true, 'Rerank sources with the cross-encoder when available'),
          h('details', { class: 'docfilter' }, h('summary', { id: 'docfilter-summary' }, 'All documents'),
            h('div', { id: 'docfilter', role: 'group', 'aria-label': 'Documents to search' })),
          h('span', { class: 'spacer' }),
          h('button', { type: 'button', id: 'new-conversation', onClick: newConversation }, 'New conversation'),
          h('button', { type: 'button', id: 'export-conversation', onClick: doExport }, 'Export')),
        h('p', { id: 'chat-status', class: 'status', role: 'status', hidden: true }),
        h('div', { id: 'messages', class: 'messages', 'aria-live': 'polite' },
          h('p', { class: 'muted empty' }, 'Ask a question: answers cite their sources as [N, p.X]; click one to see the page.')),
        h('form', { id: 'ask-form', class: 'ask', onSubmit: (e) => { e.preventDefault(); ask(); } },
          h('label', { for: 'question', class: 'visually-hidden' }, 'Question'), question,
          h('button', { type: 'submit', id: 'ask' }, 'Ask'))),
      h('aside', { class: 'sources-panel', 'aria-label': 'Sources' },
        h('h2', {}, 'Sources'), viewerElement('viewer'),
        h('div', { id: 'sources', class: 'sources' }, h('p', { class: 'muted' }, 'Sources of the answer appear here.')))));
  on('documents', renderDocFilter);
}

export function show() { $('#question').focus(); }

const status = (msg, kind) => say($('#chat-status'), msg, kind);

function renderDocFilter() {
  const box = clear($('#docfilter'));
  const chosen = new Set(selectedDocs() || []);
  for (const d of store.documents) {
    box.append(h('label', { class: 'toggle block' },
      h('input', { type: 'checkbox', value: d.doc_id, checked: chosen.has(d.doc_id), onChange: updateFilterSummary }), ` ${d.name}`));
  }
  if (!store.documents.length) box.append(h('span', { class: 'muted' }, 'no documents yet'));
  updateFilterSummary();
}

function selectedDocs() {
  const ids = [...document.querySelectorAll('#docfilter input:checked')].map((i) => i.value);
  return ids.length ? ids : null;
}

function updateFilterSummary() {
  const ids = selectedDocs();
  $('#docfilter-summary').textContent = ids ? `${ids.length} document${ids.length > 1 ? 's' : ''}` : 'All documents';
}

function options() {
  return {
    history: $('#opt-history').checked, hyde: $('#opt-hyde').checked,
    multi_query: $('#opt-multi').checked, rerank: $('#opt-rerank').checked, doc_ids: selectedDocs(),
  };
}

function newConversation() {
  if (conversation.id) api(`/conversations/${encodeURIComponent(conversation.id)}`, { method: 'DELETE' }).catch(() => {});
  conversation.id = null;
  conversation.turns = [];
  active = null;
  clear($('#messages')).append(h('p', { class: 'muted empty' }, 'New conversation.'));
  clear($('#sources')).append(h('p', { class: 'muted' }, 'Sources of the answer appear here.'));
  $('#viewer').hidden = true;
  status('');
  $('#question').focus();
}

async function doExport() {
  if (!conversation.turns.some((t) => t.done)) {
    status('Nothing to export yet: ask a question first.', 'error');
    return;
  }
  status('Building the export (page crops)…');
  try {
    await exportConversation(conversation);
    status('Exported the conversation as one HTML file.', 'ok');
  } catch (e) {
    status(`Export failed: ${e.message}`, 'error');
  }
}

function turnView(turn) {
  turn.phaseEl = h('div', { class: 'phase', role: 'status' }, 'sending…');
  turn.answerEl = h('div', { class: 'answer-text' });
  turn.metaEl = h('div', { class: 'meta small muted' });
  turn.el = h('div', { class: 'turn', dataset: { turn: String(turn.id) } },
    h('div', { class: 'q' }, turn.question),
    h('div', { class: 'a', onClick: (e) => { if (!e.target.closest('a')) showSources(turn); } },
      turn.phaseEl, turn.answerEl, turn.metaEl));
  return turn.el;
}

function setPhase(turn, text) { turn.phaseEl.textContent = text; }

async function ask() {
  const input = $('#question');
  const q = input.value.trim();
  if (!q || busy) return;
  busy = true;
  $('#ask').disabled = true;
  status('');
  const opts = options();
  const turn = { id: conversation.turns.length + 1, question: q, options: opts, answer: '', sources: [], citations: [],
    phases: {}, done: false, at: new Date().toISOString() };
  conversation.turns.push(turn);
  const box = $('#messages');
  box.querySelector('.empty')?.remove();
  box.append(turnView(turn));
  input.value = '';
  turn.el.scrollIntoView({ block: 'end' });
  const payload = { question: q, conversation_id: conversation.id, ...opts, k: null };
  try {
    await new Promise((resolve) => {
      socket.ask(payload, (msg) => { onMessage(turn, msg); if (msg.type === 'done' || msg.type === 'error') resolve(); })
        .catch(async () => { await askOnce(turn, payload); resolve(); });  // no socket: one POST /query
    });
  } finally {
    busy = false;
    $('#ask').disabled = false;
    input.focus();
  }
}

function onMessage(turn, msg) {
  switch (msg.type) {
    case 'phase': {
      turn.phases[msg.name] = msg.duration_ms;
      const next = PHASES[PHASES.indexOf(msg.name) + 1];
      setPhase(turn, `${msg.name} done (${ms(msg.duration_ms)})${next ? ` · ${PHASE_WORDS[next]}…` : ''}`);
      break;
    }
    case 'sources':
      turn.sources = msg.sources || [];
      showSources(turn);
      setPhase(turn, `${turn.sources.length} sources · writing the answer…`);
      break;
    case 'token':
      turn.answer += msg.text;
      turn.answerEl.textContent = turn.answer;  // plain text while it streams
      break;
    case 'citations':
      turn.citations = msg.citations || [];
      break;
    case 'done':
      finish(turn, msg);
      break;
    case 'error':
      turn.error = msg.message || 'the server reported an error';
      setPhase(turn, '');
      turn.answerEl.append(h('p', { class: 'err' }, `Error: ${turn.error}`));
      break;
    default:
  }
}

async function askOnce(turn, payload) {
  setPhase(turn, 'asking (without streaming)…');
  try {
    const res = await api('/query', { method: 'POST', json: payload });
    turn.sources = res.sources || [];
    turn.citations = res.citations || [];
    showSources(turn);
    finish(turn, { ...res, total_ms: (res.timings || {}).total });
  } catch (e) {
    onMessage(turn, { type: 'error', message: e.message });
  }
}

function finish(turn, msg) {
  turn.done = true;
  turn.answer = msg.answer ?? turn.answer;
  turn.model = msg.model;
  turn.cached = !!msg.cached;
  turn.timings = { ...turn.phases, ...(msg.timings || {}), total: msg.total_ms ?? (msg.timings || {}).total };
  turn.notes = msg.notes || [];
  turn.abstained = !!msg.abstained;
  turn.el.classList.toggle('abstained', turn.abstained);
  if (msg.conversation_id) conversation.id = msg.conversation_id;
  setPhase(turn, '');
  turn.phaseEl.hidden = true;
  clear(turn.answerEl).append(...answerNodes(turn.answer, turn.sources, (src, page) => cite(turn, src, page)));
  const channels = new Set();
  for (const s of turn.sources) for (const [c, r] of Object.entries(s.channels || {})) if (r !== null && r !== undefined) channels.add(c);
  const timing = Object.entries(turn.timings).filter(([, v]) => typeof v === 'number').map(([k, v]) => `${k} ${ms(v)}`).join(' · ');
  append(clear(turn.metaEl),
    h('span', { class: 'pill' }, turn.model || 'extractive'),
    turn.cached ? h('span', { class: 'pill cached' }, 'cached') : h('span', { class: 'pill' }, 'fresh'),
    h('span', {}, ` channels: ${[...channels].join(', ') || 'none'}`),
    h('div', {}, timing),
    turn.notes.map((n) => h('div', { class: 'note' }, n)));
}

function showSources(turn) {
  active = turn;
  document.querySelectorAll('.turn.active').forEach((t) => t.classList.remove('active'));
  turn.el.classList.add('active');
  const box = clear($('#sources'));
  if (!turn.sources.length) {
    box.append(h('p', { class: 'muted' }, 'No sources for this answer.'));
    return;
  }
  for (const s of turn.sources) box.append(sourceCard(s, { idPrefix: `src-${turn.id}`, onShow: (src, page) => showPage($('#viewer'), src, page) }));
}

function cite(turn, src, page) {
  if (active !== turn) showSources(turn);
  document.querySelectorAll('.source.lit').forEach((c) => c.classList.remove('lit'));
  const card = document.getElementById(`src-${turn.id}-${src.n}`);
  showPage($('#viewer'), src, page);
  if (card) {
    card.classList.add('lit');
    card.focus({ preventScroll: true });
    // Bring the card just below the (sticky) page viewer.
    const panel = card.closest('.sources-panel');
    const below = $('#viewer').getBoundingClientRect().bottom + 8;
    panel.scrollBy({ top: card.getBoundingClientRect().top - below });
  }
}

