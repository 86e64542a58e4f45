// The service worker: the page works offline after a first visit.
//
// This is a template. scripts/sw-precache.mjs (a Trunk post_build hook) writes
// it to dist/sw.js with the two placeholders below filled in from the build's
// own files, so the list can never be stale: every file in dist/ (the page,
// the CSS, the main JS and wasm, every split wasm module, the split loader,
// the JS sandbox, the manifest and icons), and a version that is a hash of
// all their contents. A new build therefore has a new sw.js, which the browser
// installs on the next visit.
//
// - install: fetches every listed file into a cache named after the version
//   (at low priority: the page's own fetches go first). A new version then
//   waits, as the browser does by default, until no tab runs the old one (a
//   tab closed or navigated away): an open page of the old build still
//   fetches its split modules, by their old names, as it needs them, and
//   only the old cache has them;
// - activate: deletes the caches of earlier versions, then controls the open
//   pages (clients.claim: on a first visit, the page that registered it);
// - fetch: cache-first, and only for the listed files (the page itself for a
//   navigation to it). Everything else goes to the network untouched and is
//   never cached: provider and MCP requests, a collector's endpoint, any
//   non-GET request and any other origin. Offline they fail as they would
//   without this worker, so nobody gets a stale answer.

const VERSION = '__PRECACHE_VERSION__';
/** Paths relative to this worker's scope ('' is the page itself). */
const FILES = __PRECACHE_FILES__;

const PREFIX = 'agent-loop-playground-';
const CACHE = PREFIX + VERSION;
const scope = new URL(self.registration.scope);
const urlOf = (file) => new URL(file, scope).href;
const PRECACHED = new Set(FILES.map(urlOf));
const PAGE = urlOf('');
/** A content-hashed name (the build's `-<hex>` suffix) never changes content,
 * so the HTTP cache may answer for it; any other file is revalidated, so a
 * new version never caches an old copy. */
const HASHED = /-[0-9a-f]{16}\.[a-z]+$/;

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await Promise.all(
        FILES.map(async (file) => {
          const url = urlOf(file);
          const response = await fetch(url, { cache: HASHED.test(file) ? 'default' : 'no-cache', priority: 'low' });
          // A missing file fails the install: the old version stays in charge.
          if (!response.ok) throw new Error(`precache: ${url} answered HTTP ${response.status}`);
          await cache.put(url, response);
        }),
      );
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== scope.origin) return;
  // A navigation to the page, with or without a query or `index.html`.
  const page = request.mode === 'navigate' && (url.pathname === scope.pathname || url.href.split(/[?#]/)[0] === urlOf('index.html'));
  const key = page ? PAGE : url.origin + url.pathname;
  if (!PRECACHED.has(key) || (url.search && !page)) return;
  event.respondWith(
    (async () => {
      const hit = await (await caches.open(CACHE)).match(key);
      return hit ?? fetch(request);
    })(),
  );
});
