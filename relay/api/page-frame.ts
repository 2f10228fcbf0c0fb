import { createHash } from 'node:crypto';

// The frame of the pages the relay serves by itself to another device (pairing, a player's invitation): the settings
// UI's look and the brand, inline, and headers that let only the page's own style and script run.

/** The settings UI's look (renderer/styles.css), inline: the page may be opened on another computer than the relay's. */
export const PAGE_STYLE = `
:root { color-scheme: light dark; --bg: #f4f5f8; --surface: #fff; --border: #e3e5ec; --border-strong: #cfd3dd; --text: #1c1f2a;
  --muted: #626879; --accent: #4f46e5; --accent-hover: #4338ca; --accent-soft: #eef0ff; --success: #15803d; --success-soft: #e8f7ee;
  --warning: #b45309; --warning-soft: #fff6e5; --danger: #c62828; --danger-soft: #fdecec; --radius: 10px;
  --shadow: 0 1px 2px rgba(20, 24, 40, .05), 0 1px 1px rgba(20, 24, 40, .03);
  --mono: ui-monospace, 'SF Mono', 'Cascadia Code', 'JetBrains Mono', Menlo, Consolas, monospace;
  font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', sans-serif; color: var(--text); background: var(--bg); }
@media (prefers-color-scheme: dark) { :root { --bg: #15161c; --surface: #1d1f27; --border: #2d303c; --border-strong: #3b3f4d; --text: #e8e9ef;
  --muted: #9aa0b2; --accent: #818cf8; --accent-hover: #a5b4fc; --accent-soft: #262a4a; --success: #4ade80; --success-soft: #15301f;
  --warning: #fbbf24; --warning-soft: #33280f; --danger: #f87171; --danger-soft: #3a1a1a; } }
* { box-sizing: border-box; }
body { margin: 0; }
h1, h2, p { margin: 0; }
[hidden] { display: none !important; }
code { font-family: var(--mono); font-size: .92em; }
a { color: var(--accent); }
main { max-width: 34rem; margin: 4rem auto; padding: 0 1rem; display: grid; gap: 16px; }
.brand { display: flex; align-items: center; gap: 10px; font-weight: 650; font-size: 15px; }
.brand svg { width: 28px; height: 28px; }
.card { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 20px 22px; box-shadow: var(--shadow); }
.card-header { display: grid; gap: 4px; margin-bottom: 16px; }
h1 { font-size: 18px; font-weight: 650; }
.state { display: grid; gap: 10px; }
.state h2 { font-size: 15.5px; font-weight: 650; }
.muted { color: var(--muted); }
.small { font-size: 12.5px; }
.pill { justify-self: start; display: inline-flex; align-items: center; gap: 6px; padding: 3px 10px; border-radius: 999px; font-size: 12.5px; font-weight: 600; }
.dot { width: 8px; height: 8px; border-radius: 50%; background: currentColor; }
@media (prefers-reduced-motion: reduce) { .dot { animation: none !important; } }
.button { justify-self: start; display: inline-flex; align-items: center; height: 36px; padding: 0 14px; border-radius: 8px; font-weight: 560;
  text-decoration: none; background: var(--accent); color: #fff; }
.button:hover { background: var(--accent-hover); }
`;

const LOGO = `<svg viewBox="0 0 64 64" aria-hidden="true"><rect width="64" height="64" rx="14" fill="#4f46e5"/>
<g fill="none" stroke="#fff" stroke-width="3.2" stroke-linejoin="round" stroke-linecap="round"><path d="M32 10 51 21v22L32 54 13 43V21z"/>
<path d="M32 20 43 39H21z"/><path d="M32 10v10M51 21l-8 18M13 21l8 18M21 39l-8 4M43 39l8 4M21 39l11 15 11-15"/></g>
<circle cx="50" cy="50" r="7" fill="#34d399" stroke="#4338ca" stroke-width="3"/></svg>`;

function sha256(source: string): string {
  return `'sha256-${createHash('sha256').update(source).digest('base64')}'`;
}

/** Only this page's own style and script run; it talks to the relay only; it is never framed, cached or referred from. */
export function pageHeaders(style: string, script: string): Record<string, string> {
  return {
    'Content-Security-Policy': `default-src 'none'; style-src ${sha256(style)}; script-src ${sha256(script)}; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
}

export interface FramedPage {
  /** Plain text or escaped HTML; the page's title reads "<title> · Tabletop Relay". */
  title: string;
  style: string;
  script: string;
  /** The state the page opens in (`data-state` on <main>), which its script changes. */
  state: string;
  cardClass: string;
  /** The card's content, as HTML. */
  card: string;
  /** A <meta name="referrer"> as well as the header, for a page whose address holds a secret. */
  noReferrer?: boolean;
}

export function framedPage(page: FramedPage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${page.noReferrer ? '<meta name="referrer" content="no-referrer">\n' : ''}<title>${page.title} · Tabletop Relay</title>
<style>${page.style}</style>
</head>
<body>
<main data-state="${page.state}">
<div class="brand">${LOGO}<span>Tabletop Relay</span></div>
<section class="${page.cardClass}" aria-live="polite">
${page.card}
</section>
</main>
<script>${page.script}</script>
</body>
</html>
`;
}
