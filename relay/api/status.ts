import { z } from 'zod';
import { localRoute, type Route } from './route.ts';
import { RELAY_VERSION } from '../version.ts';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function pairPage(code: string, title: string, status: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pair ${escapeHtml(title)} with Tabletop Relay</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;color:#222}
code{font-size:1.4rem;letter-spacing:.15em;background:#f1f1f1;padding:.2rem .5rem;border-radius:4px}</style></head>
<body><h1>Pair “${escapeHtml(title)}”</h1>
<p>Request <code>${escapeHtml(code)}</code> is <strong>${escapeHtml(status)}</strong>.</p>
<p>Approve it in Tabletop Relay: open its settings from the tray icon, or the admin page the relay printed when it started.
Foundry connects by itself once you approve; you can close this tab.</p></body></html>`;
}

export const statusRoutes: Route[] = [
  localRoute({
    method: 'GET',
    path: '/api/status',
    summary: 'Whether the relay runs, its version and where worlds connect',
    access: 'public',
    parameters: z.object({}),
    handle: () => ({ body: { status: 'ok', version: RELAY_VERSION, websocket: '/relay' } }),
  }),
  localRoute({
    method: 'GET',
    path: '/pair/{code}',
    summary: 'The page the module opens while pairing: what to do next',
    access: 'public',
    parameters: z.object({}),
    handle: ({ request, response, services }) => {
      const code = String(request.params.code).toUpperCase();
      const pairRequest = services.pairing.pending().find((candidate) => candidate.code === code);
      const title = pairRequest?.world.worldTitle ?? pairRequest?.world.worldId ?? 'your world';
      response.status(pairRequest ? 200 : 404).type('html').send(pairPage(code, title, pairRequest ? 'waiting for your approval' : 'unknown or no longer waiting'));
      return { body: undefined };
    },
  }),
];
