import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { buildRouter } from '../../relay/http/app.ts';
import { allRoutes } from '../../relay/routes.ts';
import { openApiDocument } from '../../relay/api/openapi.ts';
import { localRoute } from '../../relay/routing/route.ts';
import { z } from 'zod';

let harness: TestRelay;
beforeAll(async () => {
  harness = await startTestRelay();
});
afterAll(() => harness.close());

/** What the relay's router really dispatches to. */
function servedRoutes(): string[] {
  return buildRouter(allRoutes)
    .routes()
    .map((route) => `${route.method} ${route.path}`)
    .sort();
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI document', async () => {
    const answer = await call(harness.baseUrl, 'GET', '/openapi.json');
    expect(answer.status).toBe(200);
    const result = await new Validator().validate(answer.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(answer.body.openapi).toBe('3.1.0');
    expect(answer.body.servers[0].url).toBe(harness.baseUrl);
  });

  it('lists exactly the routes the router serves', async () => {
    const document = (await call(harness.baseUrl, 'GET', '/openapi.json')).body;
    const documented = Object.entries(document.paths as Record<string, object>)
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const served = servedRoutes();
    expect(served.length).toBeGreaterThan(90);
    expect(documented).toEqual(served);
  });

  it("documents each route's scope, parameters, defaults and requirements", async () => {
    const document = (await call(harness.baseUrl, 'GET', '/openapi.json')).body;
    const search = document.paths['/search'].get;
    expect(search['x-required-scope']).toBe('search');
    expect(search.tags).toEqual(['Search']);
    const limit = search.parameters.find((parameter: { name: string }) => parameter.name === 'limit');
    expect(limit).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', default: 200, minimum: 1, maximum: 500 },
    });
    const roll = document.paths['/roll'].post;
    expect(roll.requestBody.content['application/json'].schema.required).toEqual(['formula']);
    expect(document.paths['/chat/{messageId}'].delete.parameters[0]).toMatchObject({
      name: 'messageId',
      in: 'path',
      required: true,
    });
    expect(document.paths['/admin/keys'].post.security).toEqual([{ adminToken: [] }]);
    expect(document.paths['/sheet'].get.responses['200'].content).toHaveProperty('image/png');
  });

  it('tells a tool which routes change the world, whether their changes can be undone, and how to try them first', async () => {
    const document = (await call(harness.baseUrl, 'GET', '/openapi.json')).body;
    const dryRun = (operation: { parameters: { name: string }[] }) =>
      operation.parameters.find((parameter) => parameter.name === 'X-Dry-Run');
    const update = document.paths['/update'].put;
    expect(dryRun(update)).toMatchObject({ in: 'header', required: false });
    expect(update.description).toContain('recorded in the change journal, and the GM can undo it');
    const roll = document.paths['/roll'].post;
    expect(dryRun(roll)).toBeDefined();
    expect(roll.description).toMatch(/cannot be undone: a roll is settled once made/);
    expect(dryRun(document.paths['/get'].get)).toBeUndefined();
    expect(document.paths['/get'].get.description).not.toContain('Changes the world');
  });
});

describe('overlay access in the OpenAPI document', () => {
  const overlayState = localRoute({
    method: 'GET',
    path: '/overlays/dice/state',
    summary: 'What the dice overlay shows now',
    access: { overlay: 'dice' },
    parameters: z.object({}),
    handle: () => ({ body: [] }),
  });

  it('is the overlayLink scheme (the query parameter link), valid OpenAPI, never the API key', async () => {
    const document = openApiDocument([{ name: 'Overlays', routes: [overlayState] }], harness.baseUrl) as any;
    expect(document.components.securitySchemes.overlayLink).toMatchObject({
      type: 'apiKey',
      in: 'query',
      name: 'link',
    });
    const operation = document.paths['/overlays/dice/state'].get;
    expect(operation.security).toEqual([{ overlayLink: [] }]);
    expect(operation['x-overlay']).toBe('dice');
    expect(operation['x-required-scope']).toBeUndefined();
    expect(operation.description).toContain('overlay link for the `dice` overlay');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
  });

  it("the relay's own document gives every route with overlay access that scheme and no other", async () => {
    const document = (await call(harness.baseUrl, 'GET', '/openapi.json')).body;
    for (const route of allRoutes) {
      const security = document.paths[route.path][route.method.toLowerCase()].security;
      const overlay = typeof route.access === 'object' && 'overlay' in route.access;
      expect(JSON.stringify(security ?? []).includes('overlayLink'), `${route.method} ${route.path}`).toBe(overlay);
    }
  });
});

describe('GET /docs', () => {
  it('is a readable page with every path', async () => {
    const answer = await call(harness.baseUrl, 'GET', '/docs');
    expect(answer.headers.get('content-type')).toContain('text/html');
    for (const route of allRoutes) expect(answer.text).toContain(`<code>${route.path}</code>`);
  });
});
