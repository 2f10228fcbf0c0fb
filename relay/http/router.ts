import type { Route } from '../routing/route.ts';
import type { Fields } from '../routing/call.ts';
import { HttpError } from '../errors.ts';
import type { BodyReader } from './body.ts';

/** A route with the body reader its calls use. */
export interface RouteEntry {
  route: Route;
  readBody: BodyReader | undefined;
}

interface PatternEntry extends RouteEntry {
  pattern: RegExp;
  names: string[];
}

/** The route a request goes to, with the `{name}` segments of its path decoded. */
export interface RouteMatch {
  entry: RouteEntry;
  pathParameters: Fields | undefined;
}

/**
 * Finds the route for a request in one step: a map for fixed paths, a short list of patterns for paths with
 * parameters (`{name}`), instead of walking every route in turn. A known path with another method is a 405.
 */
export class Router {
  private readonly fixed = new Map<string, Map<string, RouteEntry>>();
  private readonly patterns: PatternEntry[] = [];

  add(entry: RouteEntry): void {
    const { route } = entry;
    const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
    if (names.length === 0) {
      let methods = this.fixed.get(route.path);
      if (!methods) this.fixed.set(route.path, (methods = new Map()));
      methods.set(route.method, entry);
      return;
    }
    const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{\w+\\?\}/g, '([^/]+)');
    this.patterns.push({ ...entry, names, pattern: new RegExp(`^${source}/?$`) });
  }

  routes(): Route[] {
    return [...[...this.fixed.values()].flatMap((methods) => [...methods.values()]), ...this.patterns].map(
      (entry) => entry.route,
    );
  }

  /** The route for this method and path; undefined for an unknown path, a 405 that names the methods for a known one. */
  find(method: string, rawPath: string): RouteMatch | undefined {
    const path = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
    const methods = this.fixed.get(path);
    if (methods) {
      const entry = methods.get(method);
      if (!entry) throw methodNotAllowed(method, path, [...methods.keys()]);
      return { entry, pathParameters: undefined };
    }
    const allowed: string[] = [];
    for (const entry of this.patterns) {
      const match = entry.pattern.exec(path);
      if (!match) continue;
      if (entry.route.method !== method) {
        allowed.push(entry.route.method);
        continue;
      }
      const pathParameters: Fields = {};
      entry.names.forEach((name, index) => (pathParameters[name] = decodeSegment(match[index + 1]!)));
      return { entry, pathParameters };
    }
    if (allowed.length > 0) throw methodNotAllowed(method, path, allowed);
    return undefined;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, `The path segment '${segment}' is not valid percent-encoding`);
  }
}

function methodNotAllowed(method: string, path: string, allowed: string[]): HttpError {
  return new HttpError(405, `${method} is not allowed on ${path}; use ${allowed.join(' or ')}`, undefined, {
    Allow: allowed.join(', '),
  });
}
