// The player page's script (GET /play/assets/play.js). A service worker keeps the page's own files for when the relay
// cannot be reached; browsers allow one only in a secure context (https, or this computer's own addresses), so on a
// LAN address over http the page runs without it and says so itself when the relay does not answer.
import { startPage } from './app.ts';

if (window.isSecureContext && 'serviceWorker' in navigator) {
  navigator.serviceWorker.register('/play/sw.js', { scope: '/play/' }).catch(() => undefined);
}
startPage(document.getElementById('app')!);
