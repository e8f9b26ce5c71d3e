// Settings and status: the API key (kept in this browser), components, LLM endpoint and model, cache.

import { api, getKey, setKey } from './api.js';
import { $, clear, h, say } from './dom.js';
import { loadDocuments } from './state.js';

export function init() {
  const root = $('#screen-settings');
  root.append(
    h('h1', {}, 'Settings and status'),
    h('h2', {}, 'API key'),
    h('form', { class: 'row', onSubmit: (e) => {
      e.preventDefault();
      setKey($('#api-key').value.trim());
      say($('#key-status'), getKey() ? 'Saved in this browser.' : 'Cleared.', 'ok');
      loadDocuments();
      refresh();
    } },
    h('label', { for: 'api-key' }, 'API key '),
    h('input', { id: 'api-key', type: 'password', autocomplete: 'off', value: getKey(), placeholder: 'only if the server asks for one' }),
    h('button', { type: 'submit' }, 'Save')),
    h('p', { id: 'key-status', class: 'status', role: 'status', hidden: true }),
    h('h2', {}, 'Language model and index'),
    h('dl', { id: 'config', class: 'kv' }),
    h('div', { class: 'row' },
      h('button', { type: 'button', id: 'clear-cache', onClick: clearCache }, 'Clear answer cache'),
      h('button', { type: 'button', onClick: refresh }, 'Refresh')),
    h('p', { id: 'settings-status', class: 'status', role: 'status', hidden: true }),
    h('h2', {}, 'Components'),
    h('div', { class: 'table-wrap' }, h('table', { class: 'data' },
      h('thead', {}, h('tr', {}, h('th', {}, 'component'), h('th', {}, 'live'), h('th', {}, 'detail'))),
      h('tbody', { id: 'components' }))));
}

export function show() { refresh(); }

function kv(list, pairs) {
  clear(list);
  for (const [k, v] of pairs) list.append(h('dt', {}, k), h('dd', {}, v === null || v === undefined || v === '' ? '—' : String(v)));
}

async function refresh() {
  const st = $('#settings-status');
  say(st, '');
  const [config, stats, comps] = await Promise.allSettled([api('/config'), api('/stats'), api('/components')]);
  const errors = [config, stats, comps].filter((r) => r.status === 'rejected').map((r) => r.reason.message);
  if (errors.length) say(st, `The server said: ${[...new Set(errors)].join('; ')}`, 'error');
  const c = config.value || {};
  const s = stats.value || {};
  kv($('#config'), [
    ['LLM endpoint', c.llm_base_url || 'none: answers are extractive'], ['LLM model', c.llm_model],
    ['Embedder', c.embedder || (s.models || {}).embedder], ['Reranker', (s.models || {}).reranker],
    ['Image model', (s.models || {}).clip], ['Channels', (s.channels || []).join(', ')],
    ['Documents', s.documents], ['Pages', s.pages],
    ['Chunks', Object.entries(s.chunks || {}).map(([k, n]) => `${k} ${n}`).join(' · ')],
    ['API key required', c.api_key_required === undefined ? null : c.api_key_required ? 'yes' : 'no'],
    ['Upload limit', c.max_upload_mb ? `${c.max_upload_mb} MB, ${c.max_pages} pages` : null],
  ]);
  const body = clear($('#components'));
  for (const comp of comps.value || []) {
    body.append(h('tr', {}, h('td', {}, comp.name),
      h('td', {}, h('span', { class: `pill ${comp.available ? 'st-ok' : 'st-off'}` }, comp.available ? 'yes' : 'no')),
      h('td', { class: 'small' }, comp.detail)));
  }
}

async function clearCache() {
  try {
    const res = await api('/cache/clear', { method: 'POST' });
    say($('#settings-status'), `Cleared ${res.cleared} cached answer${res.cleared === 1 ? '' : 's'}.`, 'ok');
  } catch (e) {
    say($('#settings-status'), `Could not clear the cache: ${e.message}`, 'error');
  }
}
