// The HTTP router (relay/http/router.ts) on its own: which route a method and path reach, the `{name}` segments it
// decodes, and the 405 and 400 it answers, without a socket. test/api and test/contract cover it behind a listener.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../relay/errors.ts';
import { Router, type RouteMatch } from '../../relay/http/router.ts';
import { allRoutes } from '../../relay/routes.ts';
import { localRoute, type HttpMethod, type Route } from '../../relay/routing/route.ts';

function route(method: HttpMethod, path: string): Route {
  return localRoute({
    method,
    path,
    summary: `${method} ${path}`,
    access: 'public',
    parameters: z.object({}),
    handle: () => ({ body: {} }),
  });
}

function routerOf(...routes: Route[]): Router {
  const router = new Router();
  for (const each of routes) router.add({ route: each, readBody: undefined });
  return router;
}

function reached(match: RouteMatch | undefined): string | undefined {
  return match && `${match.entry.route.method} ${match.entry.route.path}`;
}

function refusal(find: () => unknown): HttpError {
  try {
    find();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return error as HttpError;
  }
  throw new Error('the router answered where it should have refused');
}

describe('router: fixed paths', () => {
  const router = routerOf(route('GET', '/clients'), route('POST', '/roll'), route('GET', '/roll'), route('GET', '/'));

  it('finds a fixed path by its method, with no path parameters', () => {
    expect(reached(router.find('POST', '/roll'))).toBe('POST /roll');
    expect(reached(router.find('GET', '/roll'))).toBe('GET /roll');
    expect(router.find('GET', '/clients')?.pathParameters).toBeUndefined();
  });

  it('takes a path with one trailing slash as the path without it, but keeps the root', () => {
    expect(reached(router.find('GET', '/clients/'))).toBe('GET /clients');
    expect(reached(router.find('GET', '/'))).toBe('GET /');
  });

  it('answers undefined for an unknown path, so the adapter says 404', () => {
    expect(router.find('GET', '/client')).toBeUndefined();
    expect(router.find('GET', '/clients/extra')).toBeUndefined();
    expect(router.find('GET', '/CLIENTS')).toBeUndefined();
  });

  it('refuses another method on a known path with a 405 naming the allowed ones, in words and in Allow', () => {
    const error = refusal(() => router.find('DELETE', '/roll'));
    expect(error.status).toBe(405);
    expect(error.message).toBe('DELETE is not allowed on /roll; use POST or GET');
    expect(error.headers).toEqual({ Allow: 'POST, GET' });
  });
});

describe('router: paths with {name} segments', () => {
  const router = routerOf(
    route('GET', '/macro/{uuid}'),
    route('POST', '/macro/{uuid}/execute'),
    route('DELETE', '/macro/{uuid}'),
    route('GET', '/macros'),
    route('GET', '/world/{clientId}/actor/{actorId}'),
    route('GET', '/files.json/{name}'),
  );

  it('decodes each segment into its parameter', () => {
    expect(router.find('POST', '/macro/Macro.abc123/execute')).toMatchObject({
      entry: { route: { method: 'POST', path: '/macro/{uuid}/execute' } },
      pathParameters: { uuid: 'Macro.abc123' },
    });
    expect(router.find('GET', '/world/fvtt_one/actor/Actor.x')?.pathParameters).toEqual({
      clientId: 'fvtt_one',
      actorId: 'Actor.x',
    });
  });

  it('percent-decodes a segment, a slash included, and accepts one trailing slash', () => {
    expect(router.find('GET', '/macro/Macro.a%20b%2Fc')?.pathParameters).toEqual({ uuid: 'Macro.a b/c' });
    expect(router.find('GET', '/macro/Macro.abc/')?.pathParameters).toEqual({ uuid: 'Macro.abc' });
  });

  it('matches one whole segment, never an empty one or several', () => {
    expect(router.find('GET', '/macro/')).toBeUndefined();
    expect(router.find('POST', '/macro/a/b/execute')).toBeUndefined();
    expect(router.find('GET', '/macro/a/execute/more')).toBeUndefined();
  });

  it('reads the characters of a path literally, not as a pattern', () => {
    expect(reached(router.find('GET', '/files.json/a'))).toBe('GET /files.json/{name}');
    expect(router.find('GET', '/filesXjson/a')).toBeUndefined();
  });

  it('answers a fixed path from its map before trying the patterns', () => {
    expect(reached(router.find('GET', '/macros'))).toBe('GET /macros');
  });

  it('refuses a method no pattern of the path takes with a 405 naming every one that does', () => {
    const error = refusal(() => router.find('PUT', '/macro/Macro.abc'));
    expect(error.status).toBe(405);
    expect(error.message).toBe('PUT is not allowed on /macro/Macro.abc; use GET or DELETE');
    expect(error.headers).toEqual({ Allow: 'GET, DELETE' });
  });

  it('refuses a segment that is not valid percent-encoding with a 400 quoting it', () => {
    const error = refusal(() => router.find('GET', '/macro/Macro.%E0%A4%A'));
    expect(error.status).toBe(400);
    expect(error.message).toBe("The path segment 'Macro.%E0%A4%A' is not valid percent-encoding");
  });
});

describe("router: the relay's catalog", () => {
  const router = routerOf(...allRoutes);

  it('lists every route it was given', () => {
    expect(router.routes()).toHaveLength(allRoutes.length);
    expect(new Set(router.routes())).toEqual(new Set(allRoutes));
  });

  it('reaches every route of the catalog at its own path, none shadowed by another', () => {
    const astray = allRoutes.filter((each) => {
      const path = each.path.replace(/\{(\w+)\}/g, (_whole, name: string) => `sample-${name}`);
      return router.find(each.method, path)?.entry.route !== each;
    });
    expect(astray.map((each) => `${each.method} ${each.path}`)).toEqual([]);
  });
});
