// The player page's shell, its web app manifest and the files the build writes for it (play/ → dist/renderer/play/).
// The page holds no world data and no secret: its script reads the key the invitation left in the page's storage and
// asks the API for everything, with the key in a header.
import { builtFile, type BuiltFolder } from '../routing/built-files.ts';
import type { Answer, AnswerHeaders } from '../routing/route.ts';

/**
 * Nothing but the relay's own script, style sheet and icons runs or loads; images also from blob: (a sheet the page
 * fetched with its key) and data: URLs; it talks to the relay only; no page may frame it; no referrer leaves it.
 */
export const PLAY_PAGE_HEADERS: AnswerHeaders = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; manifest-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

export const PLAY_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<meta name="theme-color" content="#f4f5f8" media="(prefers-color-scheme: light)">
<meta name="theme-color" content="#15161c" media="(prefers-color-scheme: dark)">
<meta name="mobile-web-app-capable" content="yes">
<meta name="apple-mobile-web-app-capable" content="yes">
<meta name="apple-mobile-web-app-title" content="Tabletop">
<link rel="manifest" href="/play/manifest.webmanifest">
<link rel="icon" href="/play/assets/icon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/play/assets/icon-180.png">
<link rel="stylesheet" href="/play/assets/play.css">
<script src="/play/assets/play.js" defer></script>
<title>Tabletop Relay</title>
</head>
<body>
<main id="app" aria-live="polite"><p class="loading">Loading…</p></main>
<noscript><p class="loading">This page needs JavaScript to show your character.</p></noscript>
</body>
</html>
`;

/** What a phone needs to put the page on its home screen: its name, where it starts, its icons. */
export const PLAY_MANIFEST = JSON.stringify({
  name: 'Tabletop Relay',
  short_name: 'Tabletop',
  description: 'Your character, your dice and the table, from the GM’s Tabletop Relay',
  start_url: '/play/',
  scope: '/play/',
  display: 'standalone',
  background_color: '#15161c',
  theme_color: '#4f46e5',
  icons: [
    { src: '/play/assets/icon-192.png', sizes: '192x192', type: 'image/png' },
    { src: '/play/assets/icon-512.png', sizes: '512x512', type: 'image/png' },
    { src: '/play/assets/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    { src: '/play/assets/icon.svg', sizes: 'any', type: 'image/svg+xml' },
  ],
});

const PLAY_FILES: BuiltFolder = {
  folder: 'play',
  name: 'player page',
  types: {
    'play.js': 'text/javascript; charset=utf-8',
    'play.css': 'text/css; charset=utf-8',
    'sw.js': 'text/javascript; charset=utf-8',
    'icon.svg': 'image/svg+xml',
    'icon-180.png': 'image/png',
    'icon-192.png': 'image/png',
    'icon-512.png': 'image/png',
  },
  offered: 'play.js, play.css, sw.js and the icons',
};

export function playFile(settingsUiDir: string | undefined, file: string): Promise<Answer> {
  return builtFile(settingsUiDir, PLAY_FILES, file);
}
