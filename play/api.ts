// The relay's API as the page calls it: its own origin, the key in a header (never in an address), JSON both ways.

/** Why a call failed, in the terms the page acts on. */
export type Failure =
  /** The key is no longer valid: revoked or rotated by the GM. */
  | 'signed-out'
  /** The world is not connected to the relay. */
  | 'world-away'
  /** The relay did not answer at all. */
  | 'unreachable'
  /** The relay or the world refused this one call; its words say why. */
  | 'refused';

export class ApiError extends Error {
  readonly status: number;
  readonly failure: Failure;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
    this.failure = failureOf(status, message);
  }
}

function failureOf(status: number, message: string): Failure {
  if (status === 0) return 'unreachable';
  if (status === 401) return 'signed-out';
  if (status === 404 && /^(No connected Foundry clients found|Invalid client ID)$/.test(message)) return 'world-away';
  return 'refused';
}

type Query = Record<string, string | undefined>;

export interface Api {
  get<T>(path: string, query?: Query): Promise<T>;
  post<T>(path: string, body: Record<string, unknown>): Promise<T>;
  /** A binary answer (a sheet image). */
  bytes(path: string, query?: Query): Promise<Blob>;
  /** The key's header, for the page's stream. */
  headers(): Record<string, string>;
}

export function apiWith(key: string): Api {
  const headers = () => ({ 'x-api-key': key });
  const send = async (path: string, init: RequestInit, query: Query = {}): Promise<Response> => {
    const url = new URL(path, location.origin);
    for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
    let response: Response;
    try {
      response = await fetch(url, { ...init, cache: 'no-store', referrerPolicy: 'no-referrer' });
    } catch {
      throw new ApiError(0, 'The relay did not answer');
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { error?: unknown };
      throw new ApiError(response.status, typeof body.error === 'string' ? body.error : `HTTP ${response.status}`);
    }
    return response;
  };
  return {
    get: async (path, query) => (await send(path, { headers: headers() }, query)).json(),
    post: async (path, body) =>
      (
        await send(path, {
          method: 'POST',
          headers: { ...headers(), 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json(),
    bytes: async (path, query) => (await send(path, { headers: headers() }, query)).blob(),
    headers,
  };
}

/** A world's answer that carries its own `error` (answered 400 by the relay) arrives as an ApiError already. */
export function dataOf<T>(answer: { data?: T }): T {
  if (answer.data === undefined) throw new ApiError(502, 'The world answered without data');
  return answer.data;
}
