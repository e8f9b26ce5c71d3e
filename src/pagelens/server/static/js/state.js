// Shared state between screens: the document list and a small event bus.

import { api } from './api.js';

export const bus = new EventTarget();
export const emit = (name, detail) => bus.dispatchEvent(new CustomEvent(name, { detail }));
export const on = (name, fn) => bus.addEventListener(name, (e) => fn(e.detail));

export const store = { documents: [], documentsError: null };

let loading = null;

/** Reload GET /documents and tell every screen ('documents'). */
export function loadDocuments() {
  if (loading) return loading;
  loading = api('/documents')
    .then((docs) => { store.documents = docs || []; store.documentsError = null; })
    .catch((e) => { store.documentsError = e.message; })
    .finally(() => { loading = null; emit('documents', store.documents); });
  return loading;
}

export const docName = (docId) => (store.documents.find((d) => d.doc_id === docId) || {}).name || docId.slice(0, 12);
