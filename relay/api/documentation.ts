import { z } from 'zod';
import { openApiDocument } from './openapi.ts';
import { localRoute, type Route, type RouteGroup } from '../routing/route.ts';
import { escapeHtml } from '../http/html.ts';

interface DocumentedOperation {
  summary?: string;
  description?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string }>;
  requestBody?: {
    content: {
      'application/json': { schema: { properties: Record<string, { description?: string }>; required: string[] } };
    };
  };
  responses: { '200': { content: Record<string, unknown> } };
}

/** The media types of a success that is not JSON, e.g. a page or an image. */
function answerNote(operation: DocumentedOperation): string {
  const mediaTypes = Object.keys(operation.responses['200'].content);
  if (mediaTypes.includes('application/json')) return '';
  return `<p class="note">Answers with ${mediaTypes.map((type) => `<code>${escapeHtml(type)}</code>`).join(' or ')}.</p>`;
}

function parameterRows(operation: DocumentedOperation): string {
  const rows = (operation.parameters ?? []).map(
    (parameter) => [parameter.name, parameter.in, parameter.required === true, parameter.description ?? ''] as const,
  );
  const body = operation.requestBody?.content['application/json'].schema;
  for (const [name, schema] of Object.entries(body?.properties ?? {}))
    rows.push([name, 'body', body!.required.includes(name), schema.description ?? '']);
  if (rows.length === 0) return '';
  const cells = rows.map(
    ([name, place, required, description]) =>
      `<tr><td><code>${escapeHtml(name)}</code>${required ? ' <em>required</em>' : ''}</td><td>${place}</td><td>${escapeHtml(description)}</td></tr>`,
  );
  return `<table><tr><th>Parameter</th><th>In</th><th>Meaning</th></tr>${cells.join('')}</table>`;
}

/** How a tool gets its key without anyone copying one: the routes' own entries are under Auth and Admin. */
const KEY_REQUEST_FLOW = `<h2 id="key-requests">Getting a key: key requests</h2>
<p>A tool need not ask its user to paste a key. It sends <code>POST /auth/key-request</code> with its <code>appName</code> and the
<code>scopes</code> it needs (no key), and gets a short <code>code</code> such as <code>K7P-4QX</code>, a <code>pollUrl</code>
and an <code>interval</code>. It shows the code and asks its user to approve it in Tabletop Relay's settings on the GM's
computer, where the GM checks the code, may grant fewer scopes, bind a player or worlds, then approves or denies
(<code>/admin/key-requests</code>). Meanwhile the tool polls <code>pollUrl</code> every <code>interval</code> seconds: it
answers <code>pending</code>, then once <code>approved</code> with <code>apiKey</code>, <code>scopes</code>,
<code>clientIds</code> and <code>userId</code>, or once <code>denied</code>, and the request is then gone (404); one
left waiting for 10 minutes answers <code>410 expired</code>. Only the secret in <code>pollUrl</code> collects the key, never the code.
<code>examples/key-request.mjs</code> in the repository does all of this in one small script.</p>`;

/** A readable page of the API, made from the same document as /openapi.json. */
function apiPage(document: ReturnType<typeof openApiDocument>): string {
  const paths = document.paths as Record<string, Record<string, DocumentedOperation & { tags: string[] }>>;
  const sections = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const entry = `<article><h3><span class="method">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3><p>${escapeHtml(operation.summary ?? '')}</p><p class="note">${escapeHtml(operation.description ?? '')}</p>${answerNote(operation)}${parameterRows(operation)}</article>`;
      const tag = operation.tags[0]!;
      sections.set(tag, [...(sections.get(tag) ?? []), entry]);
    }
  }
  const body = [...sections]
    .map(
      ([tag, entries]) => `<section id="${escapeHtml(tag)}"><h2>${escapeHtml(tag)}</h2>${entries.join('')}</section>`,
    )
    .join('');
  const index = [...sections.keys()].map((tag) => `<a href="#${escapeHtml(tag)}">${escapeHtml(tag)}</a>`).join(' · ');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Tabletop Relay API</title><meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}h2{border-bottom:2px solid #ddd;margin-top:2.5rem}
article{margin:1.2rem 0}.method{display:inline-block;min-width:4.5rem;font-size:.8rem;background:#2c3e50;color:#fff;border-radius:3px;padding:.1rem .4rem;text-align:center}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left;vertical-align:top}.note{color:#555;font-size:.9rem}nav{line-height:2}</style></head>
<body><h1>Tabletop Relay API</h1><p>Version ${escapeHtml(String((document.info as { version: string }).version))}. Send the API key in the <code>x-api-key</code> header, or as <code>Authorization: Bearer</code> followed by the key. The machine-readable document is <a href="/openapi.json">/openapi.json</a>.</p>${KEY_REQUEST_FLOW}<nav>${index}</nav>${body}</body></html>`;
}

/** Stands for the caller's origin in the document until a request names it. */
const ORIGIN_PLACEHOLDER = '{relay origin}';

/**
 * What /openapi.json and /docs send, made at the first request that needs it and kept: it comes from the route tables
 * and the version, which never change while the relay runs, and making it takes tens of milliseconds, which twenty
 * callers at once turned into seconds of waiting for every other call. The one part that differs between callers is
 * `servers`, the origin each reached the relay by (loopback, a LAN address, an allowed name), spliced into the text.
 */
interface Documentation {
  /** The OpenAPI document as JSON text, cut where the server's origin goes. */
  openApiAround: [string, string];
  page: string;
}

function documentation(groups: readonly RouteGroup[]): Documentation {
  const document = openApiDocument(groups, ORIGIN_PLACEHOLDER);
  const [before, after] = JSON.stringify(document).split(JSON.stringify(ORIGIN_PLACEHOLDER)) as [string, string];
  return { openApiAround: [before, after], page: apiPage(document) };
}

export function documentationRoutes(groups: readonly RouteGroup[]): Route[] {
  let made: Documentation | undefined;
  const madeOnce = () => (made ??= documentation(groups));
  return [
    localRoute({
      method: 'GET',
      path: '/openapi.json',
      summary: 'The OpenAPI 3.1 document of every route',
      access: 'public',
      parameters: z.object({}),
      handle: ({ call }) => {
        const [before, after] = madeOnce().openApiAround;
        return {
          kind: 'bytes',
          bytes: Buffer.from(before + JSON.stringify(call.relayOrigin) + after),
          headers: { 'Content-Type': 'application/json; charset=utf-8' },
        };
      },
    }),
    localRoute({
      method: 'GET',
      path: '/docs',
      summary: 'A readable page of the API',
      access: 'public',
      parameters: z.object({}),
      produces: 'text/html',
      handle: () => ({ kind: 'html', html: madeOnce().page }),
    }),
  ];
}
