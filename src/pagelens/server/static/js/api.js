// Talking to the pagelens server: JSON calls, blobs, uploads with progress, WebSocket URLs.
// The API key (Settings) lives in localStorage and goes out as a Bearer header, or ?api_key= on sockets.

const KEY = 'pagelens.apiKey';

export const getKey = () => localStorage.getItem(KEY) || '';
export function setKey(k) {
  if (k) localStorage.setItem(KEY, k);
  else localStorage.removeItem(KEY);
}

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

function detailText(data, status, statusText) {
  const d = data && typeof data === 'object' ? (data.detail ?? data.message ?? data.error) : data;
  let msg;
  if (typeof d === 'string' && d.trim()) msg = d.trim();
  else if (Array.isArray(d)) msg = d.map((x) => `${(x.loc || []).slice(1).join('.') || 'request'}: ${x.msg}`).join('; ');
  else if (d) msg = JSON.stringify(d);
  else msg = `the server answered ${status} ${statusText || ''}`.trim();
  if (status === 401) msg += ' (enter the API key under Settings)';
  return msg.split('\n')[0].slice(0, 500);
}

function headers(extra = {}) {
  const key = getKey();
  return key ? { ...extra, Authorization: `Bearer ${key}` } : extra;
}

async function request(path, { method = 'GET', json, body, signal } = {}) {
  const init = { method, headers: headers(), signal };
  if (json !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(json);
  } else if (body) init.body = body;
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    if (e.name === 'AbortError') throw e;
    throw new ApiError(`cannot reach the server (${e.message})`, 0);
  }
  if (!res.ok) {
    const type = res.headers.get('content-type') || '';
    const data = type.includes('json') ? await res.json().catch(() => null) : await res.text().catch(() => '');
    throw new ApiError(detailText(data, res.status, res.statusText), res.status);
  }
  return res;
}

/** A JSON call; null for 204. Errors: ApiError with the server's detail in words. */
export async function api(path, opts = {}) {
  const res = await request(path, opts);
  if (res.status === 204) return null;
  const type = res.headers.get('content-type') || '';
  return type.includes('json') ? res.json() : res.text();
}

export async function fetchBlob(path) {
  return (await request(path)).blob();
}

/** Point an <img> at a server image (through fetch when a key is needed); says what failed on error. */
export async function setImage(img, path, onError) {
  const fail = (msg) => onError && onError(msg);
  if (!getKey()) {
    img.onerror = () => fail('the image could not be loaded');
    img.src = path;
    return;
  }
  try {
    const blob = await fetchBlob(path);
    if (img.src.startsWith('blob:')) URL.revokeObjectURL(img.src);  // the page this <img> showed before
    img.src = URL.createObjectURL(blob);
  } catch (e) {
    fail(e.message);
  }
}

export function wsUrl(path) {
  const u = new URL(path, location.href);
  u.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const key = getKey();
  if (key) u.searchParams.set('api_key', key);
  return u.href;
}

/** POST /documents with field `files`; onProgress(fraction) while the bytes go up. */
export function upload(files, onProgress) {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const f of files) form.append('files', f, f.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/documents');
    for (const [k, v] of Object.entries(headers())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress && onProgress(e.loaded / e.total);
    xhr.onerror = () => reject(new ApiError('cannot reach the server (upload interrupted)', 0));
    xhr.onload = () => {
      let data = null;
      try { data = JSON.parse(xhr.responseText); } catch { data = xhr.responseText; }
      if (xhr.status >= 200 && xhr.status < 300) resolve(data);
      else reject(new ApiError(detailText(data, xhr.status, xhr.statusText), xhr.status));
    };
    xhr.send(form);
  });
}

const enc = encodeURIComponent;

export function boxParam(boxes) {
  const list = (boxes || []).filter((b) => Array.isArray(b) && b.length === 4);
  return list.map((b) => b.map((v) => Math.round(v * 10) / 10).join(',')).join(';');
}

export function pagePng(docId, page, { scale = 1.5, boxes = [] } = {}) {
  const hl = boxParam(boxes);
  return `/documents/${enc(docId)}/pages/${enc(page)}.png?scale=${scale}${hl ? `&highlight=${enc(hl)}` : ''}`;
}

export const figurePng = (imageId) => `/figures/${enc(imageId)}.png`;
export const docPath = (docId, rest = '') => `/documents/${enc(docId)}${rest}`;
