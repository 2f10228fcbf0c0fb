import type { z } from 'zod';
import type { Scope } from '../auth/scopes.ts';
import type { ApiKeyRecord } from '../auth/api-keys.ts';
import type { OverlayLinkRecord } from '../auth/overlay-links.ts';
import type { OverlayName } from '../../contracts/overlays.ts';
import type { EventStream } from '../events/event-stream.ts';
import type { StreamFilter } from '../events/streams.ts';
import { STREAMS, type GmOnlyStreamKind, type StreamKind } from '../../contracts/streams.ts';
import type { RelayOperation, WorldOperation } from '../../contracts/operations.ts';
import type { RelayServices } from '../services.ts';
import type { WorldAsk } from '../tabletop/world-ask.ts';
import type { WorldChanges } from '../journal/changes.ts';

/** Who calls and for which world and user: the parameters every tabletop route shares. */
export interface Caller {
  clientId: string | undefined;
  userId: string | undefined;
  key: ApiKeyRecord | undefined;
  /** The other user a caller named when its key, bound to `userId`, acted as that user instead. */
  askedUserId?: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route: holders of a key with the scope; holders of an overlay link for that overlay (`?link=`, HTTP
 * only); anyone; or the admin (loopback plus admin token).
 */
export type Access = { scope: Scope } | { overlay: OverlayName } | 'public' | 'admin';

/** The scope a keyed route needs; undefined for overlay, public and admin routes. */
export function scopeOf(route: Route): Scope | undefined {
  const { access } = route;
  return typeof access === 'object' && 'scope' in access ? access.scope : undefined;
}

/**
 * Whether a route's calls change a world, as its `changes` declare: the journal records them, and a dry run (HTTP's
 * X-Dry-Run, `dryRun` over /ws/api and MCP) tries one first.
 */
export function changesWorld(route: Route): route is WorldRoute & { changes: WorldChanges } {
  return route.kind === 'world' && route.changes !== undefined;
}

/** Where a route reads its parameters: the query string, the JSON body, or both (body first). */
export type ParameterSource = 'query' | 'body' | 'body+query';

export type ParameterSchema = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/** Request headers a route reads, by lower-case name; over /ws/api they are message fields of the same name. */
export type HeaderSchema = z.ZodObject;

/** What a route answers with besides JSON, for the documentation: e.g. `text/html`, `image/png`, `text/event-stream`. */
export type MediaType = string;

interface RouteBase<S extends ParameterSchema, H extends HeaderSchema = HeaderSchema> {
  method: HttpMethod;
  path: string;
  summary: string;
  access: Access;
  /** Parses, defaults and documents the parameters; a bad one is a 400 that names it. */
  parameters: S;
  /** Defaults to the query for GET, the JSON body for admin changes, and body then query for everything else. */
  from?: ParameterSource;
  /** Carries file bytes: the body may be as large as the relay's upload limit; other bodies stop at 1 MiB (public routes 64 KiB). */
  takesUploads?: boolean;
  /** Parameters that hold a dice formula: in a form body, a `+` between two of its terms is a plus sign (relay/http/body.ts). */
  formulaFields?: readonly string[];
  /** Parses, defaults and documents the request headers the route reads; a missing or bad one is a 400 that names it. */
  headers?: H;
  /** The media type of a successful answer when it is not JSON. */
  produces?: MediaType;
  /**
   * Undoes what cannot be had back (a kill, a script that may do anything): told to AI assistants as a destructive
   * tool. A DELETE route is one by its method.
   */
  destructive?: true;
  /** Calling it again with the same parameters changes nothing more; GET, PUT and DELETE routes are so by their method. */
  idempotent?: true;
  /**
   * A public route's own check of who may call it and how often (a web page's origin, a per-address rate), run before
   * its body is read: a refused caller costs the relay no body.
   */
  admit?: (call: CallContext, services: RelayServices) => void;
}

/** A route answered by the world: its parameters become a request message and the world's result the answer. */
export interface WorldRoute<S extends ParameterSchema = ParameterSchema> extends RouteBase<S> {
  kind: 'world';
  operation: WorldOperation;
  timeoutMs?: number;
  /** The fields sent to the world, when they are not the parameters as they are. */
  message?: (parameters: z.output<S>) => Record<string, unknown>;
  /**
   * `image`: the world answers with a data URL that goes out as an image answer (GET /sheet); `file`: as bytes, for a
   * download with its name, unless the caller asks for `format=base64`.
   */
  reply?: 'json' | 'image' | 'file';
  /** Headers added to a byte answer, e.g. which path rendered a sheet. */
  replyHeaders?: Record<string, string>;
  /**
   * Lets the relay answer itself instead of the world, when it can (GET /sheet from the browser capture session):
   * resolves with the image to send, or undefined to ask the world.
   */
  answerInRelay?: (
    parameters: z.output<S>,
    caller: Caller,
    services: RelayServices,
  ) => Promise<ImageAnswer | undefined>;
  /**
   * A scope needed on top of the route's own for some parameters (creating or changing a Macro needs `macro:write`);
   * where the parameters alone cannot tell, it may ask the world as the GM (`askWorld`) before the call is sent.
   */
  alsoRequires?: (parameters: z.output<S>, askWorld: WorldAsk) => Scope | undefined | Promise<Scope | undefined>;
  /** Send the key's scopes as `_scopes`: the module reads them only to guard macro writes, so only those routes do. */
  forwardsScopes?: boolean;
  /** A body that is not JSON is taken as file bytes and handed to the schema as `fileData`, a data URL. */
  rawBodyAsFileData?: boolean;
  /** What a key bound to a player gets (relay/routing/player-view.ts): every keyed route says. */
  playerView?: PlayerView;
  /**
   * Where the unmodified module fails because Foundry changed under it (module 3.4.1 on Foundry 14): a refusal of the
   * world that matches is answered with the status and the words given here, the world's own words kept after them.
   */
  moduleFailures?: readonly ModuleFailure[];
  /**
   * What a call does to the world, for the change journal (relay/journal/): the documents it touches, read before and
   * after it so that it can be undone, or why it cannot be. Every route that is not a GET says which; any of them
   * takes a dry run (`X-Dry-Run: 1`, `dryRun` over /ws/api).
   */
  changes?: WorldChanges<z.output<S>>;
  /** Rewrites a successful answer of the world; `sentAt` is `performance.now()` when the request left. */
  reviseReply?: (
    message: Record<string, unknown>,
    call: { parameters: z.output<S>; clientId: string; sentAt: number; services: RelayServices },
  ) => Record<string, unknown>;
}

/** A known failure of the module, by the error it answers with, and what the relay says of it instead. */
export interface ModuleFailure {
  /** The module's error, as the world answers it. */
  error: RegExp;
  /** 400 when the caller can ask another way, 501 when no call gets this from such a world. */
  status: 400 | 501;
  /** Why it failed, in the world's terms, and what to do instead. */
  explanation: string;
}

export type { WorldAsk };

// What a key bound to a player gets from a keyed route (relay/routing/player-view.ts applies it).

/** A user of the world who is not a GM, as a key bound to them acts. */
export interface Player {
  id: string;
  name: string;
}

/** What a sort may use: the player, the call's parameters, and the world, asked as the GM for what the sort needs. */
export interface PlayerSortContext {
  player: Player;
  parameters: Record<string, unknown>;
  clientId: string;
  services: RelayServices;
  askWorld: WorldAsk;
}

export type PlayerSort = (
  answer: Record<string, unknown>,
  context: PlayerSortContext,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/**
 * A keyed route's answer to a key bound to a player: `passes` as the world or the relay gives it (why: the world
 * applies the user's permissions, or it holds nothing the GM hides); `refused` with a 403 that says why; or `sorted`
 * by the relay before it goes out (a world route's answer only).
 */
export type PlayerView = PlayerDecision | { sorted: string; sort: PlayerSort };

/** What a stream's or a local route's answer can be to a player: it passes, or it is refused. */
export type PlayerDecision = { passes: string } | { refused: string };

/** A Server-Sent Events stream of one world's pushes. */
export interface StreamRoute<S extends ParameterSchema = ParameterSchema> extends RouteBase<S> {
  kind: 'stream';
  stream: StreamKind;
  filter: (parameters: z.output<S>) => StreamFilter;
  /** Whether a key bound to a player may open the stream (relay/routing/player-view.ts): every keyed route says. */
  playerView?: PlayerDecision;
}

/** The call as its transport received it, told without any of the transport's own objects. */
export interface CallContext {
  transport: 'http' | 'ws' | 'mcp';
  /** The caller's address, normalised (see relay/gate/addresses.ts normalisedAddress). */
  remoteAddress: string;
  /** `protocol://host` as the caller reached the relay. */
  relayOrigin: string;
  /** A request header by its lower-case name. */
  header(name: string): string | undefined;
}

export interface LocalContext<P, H = Record<string, unknown>> {
  parameters: P;
  /** The headers the route declares, parsed. */
  headers: H;
  key: ApiKeyRecord | undefined;
  /** The overlay link of a route with overlay access; `key` then stands for it, holding the overlay's scopes. */
  link?: OverlayLinkRecord;
  /** The overlay link as the caller sent it, for a page that writes its own URLs with it; never to be logged. */
  linkSecret?: string;
  call: CallContext;
  services: RelayServices;
}

export type AnswerHeaders = Record<string, string | string[]>;

/**
 * An image and its size in pixels, whoever made it (the world, the capture browser): HTTP sends the bytes with the
 * size in headers of its own, /ws/api a data URL with `width` and `height`.
 */
export interface ImageAnswer {
  kind: 'image';
  status?: number;
  bytes: Uint8Array;
  mimeType: string;
  /** Unknown when a world does not say. */
  width?: number;
  height?: number;
  headers?: AnswerHeaders;
}

/** What a local route answers with; the transport writes it. Cookies go out as `Set-Cookie` in `headers`. */
export type Answer =
  | { kind?: 'json'; status?: number; body: unknown; headers?: AnswerHeaders }
  | { kind: 'html'; status?: number; html: string; headers?: AnswerHeaders }
  | { kind: 'bytes'; status?: number; bytes: Uint8Array; headers: AnswerHeaders }
  | ImageAnswer
  | { kind: 'redirect'; location: string; status?: 302 | 303; headers?: AnswerHeaders }
  | { kind: 'events'; open(stream: EventStream): void };

/** A route the relay answers itself. */
export interface LocalRoute<
  S extends ParameterSchema = ParameterSchema,
  H extends HeaderSchema = HeaderSchema,
> extends RouteBase<S, H> {
  kind: 'local';
  /** The /ws/api message type that calls it: every keyed route is reachable there too (test/contract/reachability.test.ts). */
  operation?: RelayOperation;
  /** Whether a key bound to a player may call it (relay/routing/player-view.ts): every keyed route says. */
  playerView?: PlayerDecision;
  handle: (context: LocalContext<z.output<S>, z.output<H>>) => Answer | Promise<Answer>;
}

export type Route = WorldRoute | StreamRoute | LocalRoute;

/** Routes under the name the documentation files them under. */
export interface RouteGroup {
  name: string;
  routes: Route[];
}

/**
 * Where a route reads its parameters when its entry does not say: the query for GET; for admin changes the JSON body
 * alone (a change taken from the query string is what a cross-site link would send); body then query otherwise.
 */
export function parameterSourceOf(route: Route): ParameterSource {
  if (route.from) return route.from;
  if (route.method === 'GET') return 'query';
  return route.access === 'admin' ? 'body' : 'body+query';
}

// These keep each entry's parameter type for its callbacks while the tables hold plain `Route`s.
export function worldRoute<S extends ParameterSchema>(route: Omit<WorldRoute<S>, 'kind'>): Route {
  return { ...route, kind: 'world' } as unknown as Route;
}

/**
 * A stream route as its table writes it. A stream that is the GM's only (`gmOnly` in contracts/streams.ts) says nothing
 * of players, as it is refused to them; any other keyed stream says why its events may pass to a player.
 */
export type StreamRouteEntry<S extends ParameterSchema> = Omit<StreamRoute<S>, 'kind' | 'stream' | 'playerView'> &
  (
    | { stream: GmOnlyStreamKind; playerView?: never }
    | { stream: Exclude<StreamKind, GmOnlyStreamKind>; playerView?: PlayerDecision }
  );

const GM_ONLY_STREAM: PlayerDecision = {
  refused:
    'carries what the GM sees (every actor, hidden tokens and combatants, secret doors), which the relay cannot sort by what a user may see: a key bound to a player may open the chat and roll streams only',
};

export function streamRoute<S extends ParameterSchema>(route: StreamRouteEntry<S>): Route {
  const playerView = STREAMS[route.stream].gmOnly ? GM_ONLY_STREAM : route.playerView;
  return { ...route, playerView, kind: 'stream' } as unknown as Route;
}

export function localRoute<S extends ParameterSchema, H extends HeaderSchema = z.ZodObject<Record<never, never>>>(
  route: Omit<LocalRoute<S, H>, 'kind'>,
): Route {
  return { ...route, kind: 'local' } as unknown as Route;
}
