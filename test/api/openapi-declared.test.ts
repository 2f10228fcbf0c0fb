// The route table declares everything a call reads: path parameters in each route's schema, request headers in the
// route's header schema, and what a non-JSON answer is; the OpenAPI document and /docs show all of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { call } from '../harness/http.ts';
import { startTestRelay, type TestRelay } from '../harness/relay.ts';
import { allRoutes } from '../../relay/routes.ts';

interface DocumentedParameter {
  name: string;
  in: string;
  required?: boolean;
}

let harness: TestRelay;
let paths: Record<
  string,
  Record<
    string,
    { parameters: DocumentedParameter[]; responses: Record<string, { content?: Record<string, unknown> }> }
  >
>;
beforeAll(async () => {
  harness = await startTestRelay();
  paths = (await call(harness.baseUrl, 'GET', '/openapi.json')).body.paths;
});
afterAll(() => harness.close());

const pathNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);

describe('the route table and its OpenAPI document', () => {
  it("declares every {name} of a path in the route's parameters, required, and documents it in: path", () => {
    const withNames = allRoutes.filter((route) => pathNames(route.path).length > 0);
    expect(withNames.length).toBeGreaterThan(20);
    for (const route of withNames) {
      const schema = z.toJSONSchema(route.parameters, { io: 'input', unrepresentable: 'any' }) as {
        properties?: object;
        required?: string[];
      };
      const documented = paths[route.path]![route.method.toLowerCase()]!.parameters.filter(
        (parameter) => parameter.in === 'path',
      );
      for (const name of pathNames(route.path)) {
        expect(Object.keys(schema.properties ?? {}), `${route.method} ${route.path}`).toContain(name);
        expect(schema.required, `${route.method} ${route.path}`).toContain(name);
      }
      expect(
        documented.map((parameter) => [parameter.name, parameter.required]),
        `${route.method} ${route.path}`,
      ).toEqual(pathNames(route.path).map((name) => [name, true]));
    }
  });

  it('documents the headers POST /session-handshake reads as header parameters', () => {
    const headers = paths['/session-handshake']!.post!.parameters.filter((parameter) => parameter.in === 'header');
    expect(headers.map(({ name, required }) => ({ name, required }))).toEqual([
      { name: 'x-foundry-url', required: true },
      { name: 'x-username', required: true },
      { name: 'x-world-name', required: false },
    ]);
  });

  it('gives the media type of each answer that is not JSON', () => {
    const mediaTypes = (path: string, method = 'get') =>
      Object.keys(paths[path]![method]!.responses['200']!.content ?? {});
    expect(mediaTypes('/docs')).toEqual(['text/html']);
    expect(mediaTypes('/pair/{code}')).toEqual(['text/html']);
    expect(mediaTypes('/admin/events')).toEqual(['text/event-stream']);
    expect(mediaTypes('/admin/capture/test', 'post')).toEqual(['image/png']);
    expect(mediaTypes('/pair/{code}/state')).toEqual(['application/json']);
  });

  it('shows header parameters and non-JSON answers on /docs', async () => {
    const page = (await call(harness.baseUrl, 'GET', '/docs')).text;
    expect(page).toContain('<td><code>x-foundry-url</code> <em>required</em></td><td>header</td>');
    expect(page).toContain('Answers with <code>text/event-stream</code>');
  });
});
