// The player page's service worker (GET /play/sw.js): it keeps the page's own files and serves them when the relay
// cannot be reached, so the page opens and says so. It never answers an API call: the game comes from the relay only.

/** The parts of the service worker's global scope used here (the DOM library the page is typed with lacks them). */
interface ServiceWorkerScope {
  location: Location;
  addEventListener(type: 'install' | 'activate', listener: (event: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: FetchEvent) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void> };
}

interface ExtendableEvent {
  waitUntil(work: Promise<unknown>): void;
}

interface FetchEvent extends ExtendableEvent {
  request: Request;
  respondWith(response: Promise<Response>): void;
}

const worker = self as unknown as ServiceWorkerScope;
const CACHE = 'tabletop-relay-play';
const PAGE = '/play/';
const SHELL = [
  PAGE,
  '/play/assets/play.js',
  '/play/assets/play.css',
  '/play/assets/icon.svg',
  '/play/manifest.webmanifest',
];

worker.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => worker.skipWaiting()),
  );
});

worker.addEventListener('activate', (event) => event.waitUntil(worker.clients.claim()));

/** The page's own files, fresh from the relay when it answers, kept for when it does not. */
worker.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== worker.location.origin) return;
  const kept = event.request.mode === 'navigate' ? PAGE : SHELL.includes(url.pathname) ? url.pathname : undefined;
  if (kept === undefined) return;
  event.respondWith(
    fetch(event.request)
      .then(async (response) => {
        if (response.ok) await caches.open(CACHE).then((cache) => cache.put(kept, response.clone()));
        return response;
      })
      .catch(async () => (await caches.match(kept)) ?? Response.error()),
  );
});
