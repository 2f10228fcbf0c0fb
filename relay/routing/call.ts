import { describeIssue, jsonText } from './parameters.ts';
import type { Caller, Player, Route, StreamRoute, WorldAsk, WorldRoute } from './route.ts';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import type { StreamFilter } from '../events/streams.ts';
import { withoutUndefined } from '../objects.ts';
import type { RelayServices } from '../services.ts';
import type { WorldReply } from '../tabletop/pending-requests.ts';
import type { WorldConnection } from '../tabletop/world-connection.ts';
import { HttpError } from '../errors.ts';
import { resolveUserId } from './world-resolution.ts';
import { askingAsGm, hasError } from '../tabletop/world-ask.ts';
import { WorldDocuments } from '../journal/world-documents.ts';

// What a route call means whatever carries it (HTTP or /ws/api): parameters, the world, the user, the request.

const DEFAULT_TIMEOUT_MS = 10_000;

export type Fields = Record<string, unknown>;

/** Takes `clientId` and `userId` out of the raw parameters; a key bound to a user acts as its user. */
export function takeCaller(raw: Fields, clientId: unknown, key: ApiKeyRecord | undefined): Caller {
  const requested = raw.userId;
  // Cleared, not deleted: a deleted property makes the object slow for the schema that reads it next.
  raw.clientId = undefined;
  raw.userId = undefined;
  const { userId, asked } = resolveUserId(textOrUndefined('userId', requested), key);
  const caller: Caller = { clientId: textOrUndefined('clientId', clientId), userId, key };
  if (asked !== undefined) caller.askedUserId = asked;
  return caller;
}

function textOrUndefined(name: string, value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new HttpError(400, `'${name}' must be a string`);
  return value.trim() || undefined;
}

/** Parses, defaults and checks the route's own parameters; an empty value counts as absent. */
export function parseParameters(route: Route, raw: Fields): Fields {
  const prototypeKey = prototypeKeyIn(raw);
  if (prototypeKey !== undefined) {
    throw new HttpError(
      400,
      `'${prototypeKey}' is not allowed: no key, or part of a dotted key, may be __proto__, constructor or prototype`,
    );
  }
  for (const name of Object.keys(raw)) if (raw[name] === '') delete raw[name];
  const result = route.parameters.safeParse(raw);
  if (!result.success) throw new HttpError(400, describeIssue(result.error.issues[0]!, raw));
  return result.data;
}

/**
 * Parses, defaults and checks the headers the route declares, read by `header` (a request header over HTTP, the message
 * field of the same name over /ws/api); an empty value counts as absent, a missing or bad one is a 400 naming it.
 */
export function parseHeaders(route: Route, header: (name: string) => unknown): Fields {
  if (!route.headers) return {};
  const raw: Fields = {};
  for (const name of Object.keys(route.headers.shape)) {
    const value = header(name);
    if (value !== undefined && value !== '') raw[name] = value;
  }
  const result = route.headers.safeParse(raw);
  if (!result.success) throw new HttpError(400, `Header ${describeIssue(result.error.issues[0]!, raw)}`);
  return result.data;
}

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAY_NAME_PROTOTYPE = /__proto__|constructor|prototype/;

/**
 * The path of the first key, at any depth, that is or has a dotted segment naming an object's prototype: worlds
 * apply dotted keys as paths, so such a key could change every object of the world's process. JSON text is looked into
 * as the parameter schemas will parse it (`"data": "{…}"`): checking the parsed parameters instead would miss
 * `{"__proto__": …}`, which parsing turns into the object's prototype rather than a key, and an object parameter's
 * schema then copies it without that key.
 */
function prototypeKeyIn(raw: Fields): string | undefined {
  const stack: Array<[object, string]> = [[raw, '']];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (Array.isArray(current)) {
      current.forEach((value: unknown, index) => {
        const item = asParsed(value);
        if (typeof item === 'object' && item !== null) stack.push([item, `${path}.${index}`]);
      });
      continue;
    }
    for (const key of Object.keys(current)) {
      const keyPath = path === '' ? key : `${path}.${key}`;
      if (MAY_NAME_PROTOTYPE.test(key) && key.split('.').some((segment) => PROTOTYPE_KEYS.has(segment))) return keyPath;
      const child = asParsed((current as Fields)[key]);
      if (typeof child === 'object' && child !== null) stack.push([child, keyPath]);
    }
  }
  return undefined;
}

/** A parameter as the schemas see it: JSON text of an object or an array is that object or array. */
function asParsed(value: unknown): unknown {
  return typeof value === 'string' ? (jsonText(value) ?? value) : value;
}

/**
 * A refusal of the route's parameters, unless the world does not know the user the caller acts as: the module checks
 * the user before any parameter ("User not found: <id>", 400), so that answer comes first, as the reference's does. The
 * world is asked only on this failing path, with `players`, which checks the user and changes nothing.
 */
export async function userRefusalBefore(
  refusal: unknown,
  world: WorldConnection,
  caller: Caller,
  services: RelayServices,
): Promise<never> {
  if (caller.userId !== undefined) {
    const error = await services.tabletop
      .request(world, 'players', { userId: caller.userId }, DEFAULT_TIMEOUT_MS)
      .then((reply) => reply.message.error)
      .catch(() => undefined);
    if (typeof error === 'string' && error.startsWith('User not found')) throw new HttpError(400, error);
  }
  throw refusal;
}

/**
 * Sends the route's operation to the caller's world and waits for the answer; for a key bound to a `player`, a route
 * whose answer the relay sorts has it sorted before any other revision.
 */
export async function callWorld(
  route: WorldRoute,
  parameters: Fields,
  caller: Caller,
  world: WorldConnection,
  services: RelayServices,
  player?: Player,
): Promise<{ world: WorldConnection; reply: WorldReply }> {
  const message: Fields = withoutUndefined(route.message ? route.message(parameters) : parameters);
  if (caller.userId !== undefined) message.userId = caller.userId;
  if (route.forwardsScopes && caller.key) message._scopes = caller.key.scopes;
  const timeoutMs = services.timeoutOverrideMs ?? route.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const sentAt = performance.now();
  const reply = await services.tabletop.request(world, route.operation, message, timeoutMs);
  if (hasError(reply.message)) return { world, reply };
  let revised: Fields = reply.message;
  const view = route.playerView;
  if (player && view && 'sort' in view)
    revised = await view.sort(revised, {
      player,
      parameters,
      clientId: world.clientId,
      services,
      askWorld: askWorldAsGm(world, services),
    });
  if (route.reviseReply)
    revised = route.reviseReply(revised, { parameters, clientId: world.clientId, sentAt, services });
  return {
    world,
    reply:
      revised === reply.message ? reply : { message: revised as WorldReply['message'], text: JSON.stringify(revised) },
  };
}

/** The world's documents as the change journal reads and writes them: as the GM, or as `userId` for a dry run. */
export function worldDocumentsOf(world: WorldConnection, services: RelayServices, userId?: string): WorldDocuments {
  return new WorldDocuments(services.tabletop, world, services.timeoutOverrideMs ?? DEFAULT_TIMEOUT_MS, userId);
}

/** `askingAsGm` with the call's timeout: for the relay's own questions to the caller's world. */
export function askWorldAsGm(world: WorldConnection, services: RelayServices): WorldAsk {
  return askingAsGm(services.tabletop, world, services.timeoutOverrideMs ?? DEFAULT_TIMEOUT_MS);
}

/**
 * Refuses with 429 (`tooMany` says why, given the cap) when `ownerId` would hold more event subscriptions than the
 * per-key cap of the settings with `more` new ones.
 */
export function requireStreamRoom(
  services: RelayServices,
  ownerId: string,
  more: number,
  tooMany: (cap: number) => string,
): void {
  const cap = services.settings.get().streamsPerKey;
  if (cap > 0 && services.events.countOwnedBy(ownerId) + more > cap) throw new HttpError(429, tooMany(cap));
}

/** The stream's world, filter and owner, once the key's stream allowance is checked. */
export function prepareStream(
  route: StreamRoute,
  parameters: Fields,
  caller: Caller,
  world: WorldConnection,
  services: RelayServices,
): { clientId: string; filter: StreamFilter; ownerId: string } {
  const ownerId = caller.key?.id ?? 'anonymous';
  requireStreamRoom(
    services,
    ownerId,
    1,
    (cap) =>
      `This API key already holds ${cap} open event streams, the most it may; close one, or raise the limit in the settings`,
  );
  return {
    clientId: world.clientId,
    filter: withoutUndefined({ ...route.filter(parameters), userId: caller.userId }),
    ownerId,
  };
}
