// Entry point: screens as tabs addressed by the URL hash (#library, #chat, #explorer/DOC/PAGE, ...).

import * as library from './library.js';
import * as chat from './chat.js';
import * as explorer from './explorer.js';
import * as exportsScreen from './exports.js';
import * as batch from './batch.js';
import * as settings from './settings.js';
import { loadDocuments } from './state.js';

const screens = { library, chat, explorer, exports: exportsScreen, batch, settings };

function route() {
  const [name, ...args] = (location.hash.replace(/^#/, '') || 'library').split('/');
  const current = screens[name] ? name : 'library';
  for (const key of Object.keys(screens)) {
    document.getElementById(`screen-${key}`).hidden = key !== current;
    const tab = document.querySelector(`nav a[href="#${key}"]`);
    if (key === current) tab.setAttribute('aria-current', 'page');
    else tab.removeAttribute('aria-current');
  }
  if (screens[current].show) screens[current].show(args.map(decodeURIComponent));
}

for (const screen of Object.values(screens)) screen.init();
window.addEventListener('hashchange', route);
loadDocuments();
route();
