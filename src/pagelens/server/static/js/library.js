// Library: upload PDFs (drop or pick), follow each job over /ws/jobs, list, delete, reprocess.

import { api, docPath, upload, wsUrl } from './api.js';
import { $, clear, h, kinds, say } from './dom.js';
import { loadDocuments, on, store } from './state.js';
import { openReport } from './exports.js';

const STAGES = { queued: 'waiting', parse: 'reading pages', ocr: 'OCR', index: 'indexing', done: 'done' };
const jobs = new Map();  // job_id -> {job, row}
let root;
let socket = null;
let pollTimer = null;

export function init() {
  root = $('#screen-library');
  const input = h('input', {
    type: 'file', id: 'upload-input', multiple: true, accept: 'application/pdf,.pdf', 'aria-label': 'Upload PDFs',
    class: 'visually-hidden', onChange: () => { send([...input.files]); input.value = ''; },
  });
  const zone = h('label', { class: 'dropzone', id: 'dropzone', for: 'upload-input' },
    h('strong', {}, 'Drop PDF files here'), h('span', {}, ' or click to choose files'), input);
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    send([...e.dataTransfer.files]);
  });
  root.append(
    h('h1', {}, 'Library'), zone,
    h('p', { id: 'library-status', class: 'status', role: 'status', hidden: true }),
    h('ul', { id: 'jobs', class: 'jobs', 'aria-label': 'Processing' }),
    h('div', { class: 'row between' }, h('h2', {}, 'Documents'),
      h('button', { type: 'button', onClick: () => loadDocuments() }, 'Refresh')),
    h('div', { id: 'documents', class: 'table-wrap' }),
  );
  on('documents', renderDocuments);
  connect();
  api('/jobs').then((list) => (list || []).filter((j) => j.state === 'queued' || j.state === 'running').forEach(updateJob))
    .catch(() => {});
}

export function show() { loadDocuments(); }

const status = (msg, kind) => say($('#library-status'), msg, kind);

async function send(files) {
  if (!files.length) return;
  const names = files.map((f) => f.name).join(', ');
  const bar = h('progress', { max: 1, value: 0 });
  const label = h('span', {}, `uploading ${names}`);
  const row = h('li', { class: 'job' }, h('span', { class: 'file' }, `${files.length} file${files.length > 1 ? 's' : ''}`), bar, label);
  $('#jobs').prepend(row);
  try {
    const res = await upload(files, (f) => { bar.value = f; label.textContent = `uploading ${Math.round(f * 100)}%`; });
    row.remove();
    for (const job of (res && res.jobs) || []) updateJob(job);
    status('');
  } catch (e) {
    row.remove();
    status(`Upload failed: ${e.message}`, 'error');
  }
}

function jobLabel(job) {
  if (job.state === 'failed') return `failed: ${job.error || 'no reason given'}`;
  if (job.state === 'done') return `done · ${job.pages || 0} pages`;
  const stage = STAGES[job.stage] || job.stage || 'waiting';
  return job.pages ? `${stage} · page ${job.page || 0} of ${job.pages}` : stage;
}

function updateJob(job) {
  if (!job || !job.job_id) return;
  let entry = jobs.get(job.job_id);
  if (!entry) {
    const bar = h('progress', { max: 1, value: 0 });
    const label = h('span', { class: 'stage' });
    const close = h('button', { type: 'button', class: 'link', 'aria-label': `Dismiss ${job.file}`,
      onClick: () => { entry.row.remove(); jobs.delete(job.job_id); } }, '×');
    const row = h('li', { class: 'job', dataset: { job: job.job_id } }, h('span', { class: 'file' }, job.file), bar, label, close);
    entry = { job: null, row, bar, label };
    jobs.set(job.job_id, entry);
    $('#jobs').prepend(row);
  }
  const was = entry.job ? entry.job.state : null;
  entry.job = job;
  entry.row.dataset.state = job.state;
  entry.label.textContent = jobLabel(job);
  const warnings = job.warnings || [];
  entry.label.title = warnings.join('\n');
  if (warnings.length && job.state === 'done') entry.label.textContent += ` · ${warnings.length} page warning${warnings.length > 1 ? 's' : ''}`;
  if (job.state === 'done') entry.bar.value = 1;
  else if (job.pages) entry.bar.value = Math.min(1, (job.page || 0) / job.pages);
  else entry.bar.removeAttribute('value');  // indeterminate while queued
  if ((job.state === 'done' || job.state === 'failed') && was !== job.state) loadDocuments();
}

function connect() {
  try {
    socket = new WebSocket(wsUrl('/ws/jobs'));
  } catch {
    startPolling();
    return;
  }
  socket.onopen = () => { stopPolling(); };
  socket.onmessage = (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === 'job') updateJob(msg.job);
  };
  socket.onclose = () => {
    socket = null;
    startPolling();
    setTimeout(connect, 3000);
  };
}

// Without a socket, unfinished jobs are polled so progress still moves.
function startPolling() {
  if (pollTimer) return;
  pollTimer = setInterval(() => {
    for (const { job } of jobs.values()) {
      if (job && (job.state === 'queued' || job.state === 'running')) {
        api(`/jobs/${encodeURIComponent(job.job_id)}`).then(updateJob).catch(() => {});
      }
    }
  }, 1500);
}

function stopPolling() {
  clearInterval(pollTimer);
  pollTimer = null;
}

function confirmButton(label, confirmLabel, action) {
  let armed = null;
  const btn = h('button', { type: 'button', onClick: async () => {
    if (!armed) {
      btn.textContent = confirmLabel;
      btn.classList.add('danger');
      armed = setTimeout(() => { armed = null; btn.textContent = label; btn.classList.remove('danger'); }, 4000);
      return;
    }
    clearTimeout(armed);
    btn.disabled = true;
    await action();
  } }, label);
  return btn;
}

function failedPages(failed) {
  const entries = Object.entries(failed || {});
  if (!entries.length) return null;
  return h('details', { class: 'err small' }, h('summary', {}, `${entries.length} page${entries.length > 1 ? 's' : ''} not read`),
    h('ul', {}, entries.map(([p, why]) => h('li', {}, `page ${p}: ${why}`))));
}

function renderDocuments() {
  const box = clear($('#documents'));
  if (store.documentsError) {
    box.append(h('p', { class: 'status', dataset: { kind: 'error' } }, `Could not list documents: ${store.documentsError}`));
    return;
  }
  if (!store.documents.length) {
    box.append(h('p', { class: 'muted' }, 'No documents yet: drop PDF files above.'));
    return;
  }
  const rows = store.documents.map((d) => h('tr', { dataset: { doc: d.doc_id } },
    h('td', {}, h('div', { class: 'name' }, d.name), d.title ? h('div', { class: 'muted small' }, d.title) : null),
    h('td', { class: 'num' }, String(d.pages ?? '')),
    h('td', { class: 'small' }, kinds(d.counts)),
    h('td', {}, h('span', { class: `pill st-${d.status}` }, d.status || ''),
      d.error ? h('div', { class: 'err small' }, d.error) : null,
      failedPages(d.failed_pages)),
    h('td', { class: 'actions' },
      h('a', { href: `#explorer/${encodeURIComponent(d.doc_id)}/1`, class: 'button' }, 'Explore'),
      h('button', { type: 'button', onClick: () => openReport(d).catch((e) => status(`Report failed: ${e.message}`, 'error')) }, 'Report'),
      h('button', { type: 'button', onClick: () => reprocess(d) }, 'Reprocess'),
      confirmButton('Delete', 'Really delete?', () => remove(d))),
  ));
  box.append(h('table', { class: 'docs' },
    h('thead', {}, h('tr', {}, ['Document', 'Pages', 'Elements', 'Status', ''].map((t) => h('th', {}, t)))),
    h('tbody', {}, rows)));
}

async function reprocess(d) {
  try {
    const res = await api(docPath(d.doc_id, '/reprocess'), { method: 'POST' });
    updateJob(res.job);
    status(`Reprocessing ${d.name}`, 'info');
  } catch (e) {
    status(`Reprocess failed: ${e.message}`, 'error');
  }
}

async function remove(d) {
  try {
    await api(docPath(d.doc_id), { method: 'DELETE' });
    status(`Deleted ${d.name}`, 'ok');
  } catch (e) {
    status(`Delete failed: ${e.message}`, 'error');
  }
  loadDocuments();
}
