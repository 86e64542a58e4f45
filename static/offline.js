// Offline after the first visit, in plain JavaScript rather than
// Rust so the first paint carries no more wasm for it (its budget is tight):
// - registers the service worker (sw.js, written by scripts/sw-precache.mjs
//   from src/browser/sw.js) once the page has loaded and the main thread is
//   idle: its install downloads every file of the build at low priority, and
//   must not compete with what the first paint and a first run fetch;
// - shows the offline notice while the browser is offline (see below): what
//   still works and what needs the network. Its live region (#offline-notice in index.html)
//   is in the page from the start, so its text appearing is announced.
'use strict';

const NOTICE =
  ' The built-in scenarios with the scripted model still run. A real provider, ' +
  'the MCP servers and sending a run to an OpenTelemetry endpoint need the network.';

// Offline: `navigator.onLine` is false, or (for a page the service worker
// served) the page's own server did not answer. `onLine` is true whenever
// some network is up, which says little; and Chromium's emulated offline
// (Playwright's setOffline) does not reach a reloaded page's `onLine`.
let unreachable = false;
let retry;

function showNotice() {
  const region = document.getElementById('offline-notice');
  if (!region) return;
  const shown = region.querySelector('p');
  if (navigator.onLine && !unreachable) {
    shown?.remove();
  } else if (!shown) {
    const line = document.createElement('p');
    const strong = document.createElement('strong');
    strong.textContent = 'Offline.';
    line.append(strong, NOTICE);
    region.append(line);
  }
}

// A HEAD of this small file, which the worker never answers (it answers only
// GETs): only a page the worker controls asks, so a first visit pays nothing.
// While the server is unreachable it asks again every few seconds.
async function probe() {
  clearTimeout(retry);
  if (!navigator.serviceWorker?.controller) return;
  try {
    await fetch('offline.js', { method: 'HEAD', cache: 'no-store' });
    unreachable = false;
  } catch {
    unreachable = true;
    retry = setTimeout(probe, 3_000);
  }
  showNotice();
}

addEventListener('online', probe);
addEventListener('online', showNotice);
addEventListener('offline', showNotice);
if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', showNotice);
} else {
  showNotice();
}
probe();

// `serviceWorker` is missing outside a secure context (https, or http on
// 127.0.0.1/localhost): there the page works as before, online only.
if ('serviceWorker' in navigator) {
  const register = () =>
    navigator.serviceWorker.register('sw.js').catch((why) => {
      // A warning, not an error: the page itself works without it.
      console.warn(`The page will not work offline: its service worker could not be registered (${why.message ?? why})`);
    });
  const whenIdle = () => (window.requestIdleCallback ? requestIdleCallback(register, { timeout: 10_000 }) : setTimeout(register, 2_000));
  if (document.readyState === 'complete') whenIdle();
  else addEventListener('load', whenIdle, { once: true });
}
