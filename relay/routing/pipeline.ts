import {
  parameterSourceOf,
  type Answer,
  type CallContext,
  type Caller,
  type ParameterSource,
  type Player,
  type Route,
  type StreamRoute,
  type WorldAsk,
  type WorldRoute,
} from './route.ts';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import type { OverlayLinkRecord } from '../auth/overlay-links.ts';
import type { OverlayName } from '../../contracts/overlays.ts';
import type { RelayServices } from '../services.ts';
import { answeredCall, callerNamed, refusedCall, type ActivityRecord } from '../activity/activity-log.ts';
import { HttpError } from '../errors.ts';
import { checkAdmin, keyOfLink, requireScope, verifiedKey, verifiedLink } from './access.ts';
import {
  askWorldAsGm,
  callWorld,
  parseHeaders,
  parseParameters,
  prepareStream,
  takeCaller,
  userRefusalBefore,
  type Fields,
} from './call.ts';
import { resolveWorld } from './world-resolution.ts';
import { playerOf, refuseToPlayer } from './player-view.ts';
import type { WorldConnection } from '../tabletop/world-connection.ts';
import { tooManyRequests, type RateDecision } from './rate-limit.ts';
import { worldAnswer, type WorldJsonAnswer } from './world-answer.ts';
import { changeWorld, dryRunOf } from './world-change.ts';

export type { WorldJsonAnswer };

/** What a call answers with: a local route's typed answer, or the world's JSON as it sent it. */
export type CallAnswer = Answer | WorldJsonAnswer;

/**
 * One call of a route, as a transport hands it over. HTTP fills it from the request (`x-api-key`, the query string,
 * the path's `{name}` segments, a body reader); /ws/api from the socket's key and the message's fields.
 */
export interface CallInput {
  route: Route;
  call: CallContext;
  /** How the activity log names the call: the HTTP method and path, or `WS` and the message type. */
  logged: { method: string; path: string };
  /** The API key as the caller presented it, whatever it is; only keyed routes look at it. */
  presentedKey: unknown;
  /** The `clientId` the caller asked for (HTTP: the query's); undefined picks the only world or the key's. */
  clientId: unknown;
  query: Fields;
  pathParameters?: Fields;
  /** Reads the body's fields; called only once the caller is let in, and only for routes that take a body. */
  readBody?: () => Promise<Fields>;
  /** Told the key's rate-limit figures as soon as they are known, even when the call then fails (HTTP's RateLimit-*). */
  onRateLimit?: (decision: RateDecision) => void;
  /** Whether the caller asked for a dry run (HTTP's `X-Dry-Run`, /ws/api's `dryRun`), as it sent it. */
  dryRun?: unknown;
}

/**
 * Runs one call of any route, for any transport, in the one order every call takes: access (key and scope, overlay
 * link, admin, or a public route's own admission) → pause → rate limit → body → caller and bindings → parameters and
 * declared headers → the world's, the stream's or the local handler's answer → the activity log. Resolves with the
 * answer for the adapter to write, or throws the HttpError to answer with. A call of a keyed route is logged answered or refused, with the refusal's reason.
 *
 * An adapter turns its input into a `CallInput`, awaits `runCall`, then writes the `CallAnswer` (JSON, HTML, bytes,
 * redirect, events, or the world's JSON text) or the thrown error's `{error}` in its own terms.
 */
export async function runCall(input: CallInput, services: RelayServices): Promise<CallAnswer> {
  const { access } = input.route;
  if (typeof access !== 'object') {
    if (access === 'admin')
      checkAdmin({ method: input.route.method, call: input.call, hasQuery: hasFields(input.query) }, services);
    else input.route.admit?.(input.call, services);
    return answer(input, undefined, services);
  }
  const started = performance.now();
  const note: ActivityNote = {};
  let key: ApiKeyRecord | undefined;
  let link: OverlayLinkRecord | undefined;
  let result: CallAnswer;
  try {
    if ('scope' in access) {
      key = verifiedKey(input.presentedKey, services);
      requireScope(key, access.scope);
    } else {
      link = overlayLinkOf(input, access.overlay, services);
      key = keyOfLink(link);
    }
    if (services.network.paused()) throw new HttpError(503, 'Tabletop Relay is paused; resume it from the tray menu');
    applyRateLimit(key, services, input.onRateLimit);
    result = await (link
      ? answer(withoutLink(input), key, services, note, { record: link, secret: input.query.link as string })
      : answer(input, key, services, note));
  } catch (error) {
    const refused = refusedCall(
      callerNamed(key, 'scope' in access ? input.presentedKey : input.query.link),
      input.logged.method,
      input.logged.path,
      error,
      started,
    );
    services.activity.record(withNote(refused, note));
    throw error;
  }
  services.activity.record(withNote(activityOf(result, { keyName: key.name }, input.logged, started), note));
  return result;
}

/**
 * Notes a call that found no route (a wrong path, method or message type) when it carries an API key: a tool's typo
 * explains a button that does nothing as much as a refusal does. Calls without a key (browsers, scanners) are not noted.
 */
export function recordMiss(
  presentedKey: unknown,
  logged: { method: string; path: string },
  error: unknown,
  services: RelayServices,
): void {
  if (presentedKey === undefined) return;
  const key = typeof presentedKey === 'string' && presentedKey !== '' ? services.keys.verify(presentedKey) : undefined;
  services.activity.record(
    refusedCall(callerNamed(key, presentedKey), logged.method, logged.path, error, performance.now()),
  );
}

/**
 * The overlay link of a call of an overlay's route: from the query's `link` and nowhere else (an overlay in OBS cannot
 * send headers, and an API key is not let in), over HTTP only.
 */
function overlayLinkOf(input: CallInput, overlay: OverlayName, services: RelayServices): OverlayLinkRecord {
  if (input.call.transport !== 'http')
    throw new HttpError(400, "Overlay routes answer over HTTP only: open the overlay's URL in a browser source");
  return verifiedLink(input.query.link, overlay, services);
}

/**
 * An overlay link that let a call in, and its secret as presented: only the handler of an overlay's page reads the
 * secret, to write it into the URLs the page reads next.
 */
interface PresentedLink {
  record: OverlayLinkRecord;
  secret: string;
}

/** The call without its link among the parameters: no parameter schema or world request sees the secret. */
function withoutLink(input: CallInput): CallInput {
  const { link: _link, ...query } = input.query;
  return { ...input, query };
}

function withNote(record: ActivityRecord, note: ActivityNote): ActivityRecord {
  return note.text === undefined ? record : { ...record, note: note.text };
}

function activityOf(
  result: CallAnswer,
  caller: { keyName: string },
  logged: { method: string; path: string },
  started: number,
) {
  if (result.kind === 'world-json' && result.status !== 200) {
    const error = typeof result.message.error === 'string' ? result.message.error : 'The world refused the call';
    return refusedCall(caller, logged.method, logged.path, new HttpError(result.status, error), started);
  }
  return answeredCall(caller, logged.method, logged.path, statusOf(result), started);
}

function statusOf(result: CallAnswer): number {
  switch (result.kind) {
    case 'events':
      return 200;
    case 'redirect':
      return result.status ?? 302;
    default:
      return result.status ?? 200;
  }
}

/** Counts the call against its key; over the limit it is a 429 that says when to come back. */
function applyRateLimit(key: ApiKeyRecord, services: RelayServices, onRateLimit: CallInput['onRateLimit']): void {
  const decision = services.rateLimiter.take(key.id);
  if (!decision) return;
  onRateLimit?.(decision);
  if (!decision.allowed) throw tooManyRequests(decision);
}

/** Reads the body (only a route that takes one) and answers; a call without a body never waits for one. */
function answer(
  input: CallInput,
  key: ApiKeyRecord | undefined,
  services: RelayServices,
  note: ActivityNote = {},
  link?: PresentedLink,
): CallAnswer | Promise<CallAnswer> {
  const from = parameterSourceOf(input.route);
  if (from === 'query' || !input.readBody)
    return answerWith(input, rawParameters(input, from, NO_FIELDS), key, services, note, link);
  return input
    .readBody()
    .then((body) => answerWith(input, rawParameters(input, from, body), key, services, note, link));
}

function answerWith(
  input: CallInput,
  raw: Fields,
  key: ApiKeyRecord | undefined,
  services: RelayServices,
  note: ActivityNote,
  link: PresentedLink | undefined,
): CallAnswer | Promise<CallAnswer> {
  const { route } = input;
  const dryRun = dryRunOf(input.dryRun, route);
  if (route.kind === 'local')
    return route.handle({
      parameters: parseParameters(route, raw),
      headers: parseHeaders(route, input.call.header),
      key,
      link: link?.record,
      linkSecret: link?.secret,
      call: input.call,
      services,
    });
  const caller = takeCaller(raw, input.clientId, key);
  if (caller.askedUserId !== undefined) note.text = `acted as ${caller.userId} (asked ${caller.askedUserId})`;
  let parameters: Fields;
  try {
    parameters = parseParameters(route, raw);
  } catch (refusal) {
    // Refused parameters come after the world's and the user's refusals, the order the reference relay answers in.
    return userRefusalBefore(refusal, resolveWorld(services.tabletop, caller.clientId, key), caller, services);
  }
  if (route.kind === 'world' && route.alsoRequires && key)
    return requireAlso(route.alsoRequires, parameters, caller, key, services).then(() =>
      answerInWorld(route, parameters, caller, key, services, dryRun),
    );
  return answerInWorld(route, parameters, caller, key, services, dryRun);
}

/** Refuses the call when the key lacks a scope its parameters need besides the route's own. */
async function requireAlso(
  alsoRequires: NonNullable<WorldRoute['alsoRequires']>,
  parameters: Fields,
  caller: Caller,
  key: ApiKeyRecord,
  services: RelayServices,
): Promise<void> {
  const askWorld: WorldAsk = (operation, fields) =>
    askWorldAsGm(resolveWorld(services.tabletop, caller.clientId, key), services)(operation, fields);
  const extraScope = await alsoRequires(parameters, askWorld);
  if (extraScope) requireScope(key, extraScope);
}

/** The answer of a world or stream route, once the caller may have it: the world's, sorted for a player, or its events. */
function answerInWorld(
  route: WorldRoute | StreamRoute,
  parameters: Fields,
  caller: Caller,
  key: ApiKeyRecord | undefined,
  services: RelayServices,
  dryRun: boolean,
): CallAnswer | Promise<CallAnswer> {
  const world = resolveWorld(services.tabletop, caller.clientId, key);
  const player = playerOf(key, world);
  if (player) refuseToPlayer(route.playerView, player, `${route.method} ${route.path}`);
  if (route.kind === 'stream') return streamAnswer(route, parameters, caller, world, services);
  return answerFromWorld(route, parameters, caller, world, services, player, dryRun);
}

/** What the activity entry of a call notes besides its answer (a bound key acting as its user instead of another). */
interface ActivityNote {
  text?: string;
}

const NO_FIELDS: Fields = Object.freeze({}) as Fields;

/** The query, the body and the path's parameters, merged as the route's parameter source says (the path wins). */
function rawParameters(input: CallInput, from: ParameterSource, body: Fields): Fields {
  const { query } = input;
  const path = input.pathParameters ?? NO_FIELDS;
  if (from === 'query') return { ...query, ...path };
  return from === 'body' ? { ...body, userId: body.userId ?? query.userId, ...path } : { ...query, ...body, ...path };
}

async function answerFromWorld(
  route: WorldRoute,
  parameters: Fields,
  caller: Caller,
  world: WorldConnection,
  services: RelayServices,
  player: Player | undefined,
  dryRun: boolean,
): Promise<CallAnswer> {
  if (route.answerInRelay) {
    const own = await route.answerInRelay(parameters, caller, services);
    if (own) return own;
  }
  const send = () => callWorld(route, parameters, caller, world, services, player).then(({ reply }) => reply);
  const { changes } = route;
  if (!changes || !caller.key) return worldAnswer(route, world, await send(), parameters);
  const changed = await changeWorld(
    { ...route, changes },
    parameters,
    { ...caller, key: caller.key },
    world,
    services,
    {
      dryRun,
      send,
    },
  );
  return 'dryRun' in changed ? { body: changed.dryRun } : worldAnswer(route, world, changed, parameters);
}

/** Events of one world, from the moment the adapter opens the stream until the caller hangs up or the relay stops. */
function streamAnswer(
  route: StreamRoute,
  parameters: Fields,
  caller: Caller,
  world: WorldConnection,
  services: RelayServices,
): Answer {
  const { clientId, filter, ownerId } = prepareStream(route, parameters, caller, world, services);
  const connected = JSON.stringify(
    route.stream === 'actor' ? { clientId, actorUuid: filter.actorUuid ?? '' } : { clientId },
  );
  return {
    kind: 'events',
    open: (stream) => {
      stream.send('connected', connected);
      const unsubscribe = services.events.subscribe({
        clientId,
        kind: route.stream,
        filter,
        ownerId,
        deliver: (event, payloadJson) => stream.send(event.name, payloadJson),
        close: () => stream.end(),
      });
      stream.onClose(unsubscribe);
    },
  };
}

function hasFields(fields: Fields): boolean {
  for (const _name in fields) return true;
  return false;
}
