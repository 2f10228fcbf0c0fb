import type { RequestHandler } from 'express';
import type { Route } from '../routing/route.ts';
import { HttpError } from '../errors.ts';

interface Entry {
  route: Route;
  handlers: RequestHandler[];
}

interface PatternEntry extends Entry {
  pattern: RegExp;
  names: string[];
}

/**
 * Finds the route for a request in one step: a map for fixed paths, a short list of patterns for paths with
 * parameters (`{name}`), instead of walking every route in turn. A known path with another method gets a 405.
 */
export class Router {
  private readonly fixed = new Map<string, Map<string, Entry>>();
  private readonly patterns: PatternEntry[] = [];

  add(route: Route, handlers: RequestHandler[]): void {
    const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
    if (names.length === 0) {
      let methods = this.fixed.get(route.path);
      if (!methods) this.fixed.set(route.path, (methods = new Map()));
      methods.set(route.method, { route, handlers });
      return;
    }
    const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '([^/]+)');
    this.patterns.push({ route, handlers, names, pattern: new RegExp(`^${source}/?$`) });
  }

  routes(): Route[] {
    return [...[...this.fixed.values()].flatMap((methods) => [...methods.values()]), ...this.patterns].map((entry) => entry.route);
  }

  readonly dispatch: RequestHandler = (request, response, next) => {
    const path = request.path.length > 1 && request.path.endsWith('/') ? request.path.slice(0, -1) : request.path;
    const methods = this.fixed.get(path);
    if (methods) {
      const entry = methods.get(request.method);
      if (!entry) throw methodNotAllowed(request.method, path, [...methods.keys()]);
      run(entry.handlers, request, response, next);
      return;
    }
    const allowed: string[] = [];
    for (const entry of this.patterns) {
      const match = entry.pattern.exec(path);
      if (!match) continue;
      if (entry.route.method !== request.method) {
        allowed.push(entry.route.method);
        continue;
      }
      request.params = Object.fromEntries(entry.names.map((name, index) => [name, decodeSegment(match[index + 1]!)]));
      run(entry.handlers, request, response, next);
      return;
    }
    if (allowed.length > 0) throw methodNotAllowed(request.method, path, allowed);
    next();
  };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `The path segment '${segment}' is not valid percent-encoding`);
  }
}

function methodNotAllowed(method: string, path: string, allowed: string[]): HttpError {
  return new HttpError(405, `${method} is not allowed on ${path}; use ${allowed.join(' or ')}`, { allowed });
}

/** Runs a route's handlers in order, the way Express runs a route's middleware. */
function run(handlers: RequestHandler[], ...[request, response, next]: Parameters<RequestHandler>): void {
  const step = (index: number) => (error?: unknown) => {
    if (error !== undefined && error !== 'route') {
      next(error);
      return;
    }
    const handler = handlers[index];
    if (!handler) {
      next();
      return;
    }
    Promise.resolve(handler(request, response, step(index + 1))).catch(next);
  };
  step(0)();
}
