// The relay as its own OAuth 2.1 authorization server for /mcp, on this computer: an assistant registers itself
// (dynamic client registration), sends the GM's browser to /oauth/authorize with a PKCE challenge, the GM approves its
// key request in the settings (the same approval card as any tool's, with toolsets), and the assistant trades the
// one-time code for an ordinary API key, its access token. Everything is in memory: a restart asks the GM again.
import { createHash, randomUUID } from 'node:crypto';
import { HttpError, RetryLater } from '../errors.ts';
import { randomSecret, sameSecret } from '../auth/secrets.ts';
import type { KeyRequests } from '../auth/key-requests.ts';
import type { ApiKeys } from '../auth/api-keys.ts';
import type { ToolsetName } from '../../contracts/assistants.ts';

/** Registered assistants kept at once; the oldest registration goes first. */
const MAX_CLIENTS = 64;
/** How long an authorization code may wait for its token request (RFC 6749 says at most 10 minutes). */
const CODE_LIFETIME_MS = 60_000;

export interface OAuthClient {
  clientId: string;
  name: string;
  redirectUris: string[];
  issuedAt: number;
}

/** One sign-in of an assistant: its key request, and what the code it ends with is bound to. */
interface Authorization {
  client: OAuthClient;
  redirectUri: string;
  codeChallenge: string;
  state: string | undefined;
  /** The key request's poll secret: only the relay polls it, for the waiting page. */
  requestSecret: string;
  code: string;
}

interface IssuedCode {
  client: OAuthClient;
  redirectUri: string;
  codeChallenge: string;
  apiKey: string;
  keyId: string;
  toolsets: ToolsetName[];
  expiresAt: number;
  /** Kept after its use until it expires, so that a second use is seen (and revokes the key). */
  used: boolean;
}

/** What the waiting page shows while the GM decides, or where it sends the browser once the GM did. */
export type AuthorizationOutcome =
  | { status: 'waiting'; code: string; appName: string }
  | { status: 'redirect'; location: string }
  | { status: 'expired' };

export class OAuthServer {
  private readonly clients = new Map<string, OAuthClient>();
  private readonly authorizations = new Map<string, Authorization>();
  private readonly codes = new Map<string, IssuedCode>();
  private readonly keyRequests: KeyRequests;
  private readonly keys: ApiKeys;

  constructor(keyRequests: KeyRequests, keys: ApiKeys) {
    this.keyRequests = keyRequests;
    this.keys = keys;
  }

  register(name: string, redirectUris: string[], now = Date.now()): OAuthClient {
    for (const uri of redirectUris) refuseRemoteRedirect(uri);
    if (this.clients.size >= MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
    const client = { clientId: `ttr-client-${randomUUID()}`, name, redirectUris, issuedAt: now };
    this.clients.set(client.clientId, client);
    return client;
  }

  /**
   * Checks an authorization request before anything goes back to its redirect URI: an unknown client or a redirect URI
   * it did not register is told to the browser, never to the URI (RFC 6749 §4.1.2.1).
   */
  client(clientId: string, redirectUri: string): OAuthClient {
    const client = this.clients.get(clientId);
    if (!client) throw new HttpError(400, 'Unknown client: the assistant must register first (POST /oauth/register)');
    if (!client.redirectUris.includes(redirectUri))
      throw new HttpError(400, `The redirect URI ${redirectUri} was not registered by this assistant`);
    return client;
  }

  /** Files the key request the GM will see, and answers the id of the page that waits for the decision. */
  authorize(
    client: OAuthClient,
    asked: { redirectUri: string; codeChallenge: string; state?: string; toolsets: ToolsetName[] },
    source: string,
  ): string {
    const { request, secret } = this.keyRequests.request(
      {
        appName: client.name,
        appDescription: `An AI assistant connecting over MCP; it signs in through ${new URL(asked.redirectUri).origin}`,
        scopes: [],
        toolsets: asked.toolsets,
        clientIds: [],
      },
      source,
    );
    const id = randomSecret('oaw_');
    this.authorizations.set(id, {
      client,
      redirectUri: asked.redirectUri,
      codeChallenge: asked.codeChallenge,
      state: asked.state,
      requestSecret: secret,
      code: request.code,
    });
    return id;
  }

  /** What the waiting page shows, or where it sends the browser once the GM approved or denied. */
  outcome(id: string, issuer: string, now = Date.now()): AuthorizationOutcome {
    const authorization = this.authorizations.get(id);
    if (!authorization) return { status: 'expired' };
    let poll;
    try {
      poll = this.keyRequests.poll(authorization.requestSecret, now);
    } catch (error) {
      if (error instanceof RetryLater) return this.waiting(authorization);
      this.authorizations.delete(id);
      return { status: 'expired' };
    }
    if (poll.status === 'pending') return this.waiting(authorization);
    this.authorizations.delete(id);
    if (poll.status === 'expired') return { status: 'expired' };
    const target = new URL(authorization.redirectUri);
    if (authorization.state !== undefined) target.searchParams.set('state', authorization.state);
    target.searchParams.set('iss', issuer);
    if (poll.status === 'denied') {
      target.searchParams.set('error', 'access_denied');
      return { status: 'redirect', location: target.toString() };
    }
    const code = randomSecret('oac_');
    const key = this.keys.verify(poll.apiKey);
    if (!key) return { status: 'expired' };
    this.codes.set(code, {
      client: authorization.client,
      redirectUri: authorization.redirectUri,
      codeChallenge: authorization.codeChallenge,
      apiKey: poll.apiKey,
      keyId: key.id,
      toolsets: key.assistant?.toolsets ?? [],
      expiresAt: now + CODE_LIFETIME_MS,
      used: false,
    });
    // A code never traded leaves a key nobody holds: it goes when the code expires.
    setTimeout(() => {
      if (!this.codes.get(code)?.used) this.keys.revoke(key.id);
    }, CODE_LIFETIME_MS).unref();
    target.searchParams.set('code', code);
    return { status: 'redirect', location: target.toString() };
  }

  /**
   * Trades a code for its key, once, for the client and redirect URI it was issued to, with the PKCE verifier of its
   * challenge. A code used twice revokes the key it gave (RFC 6749 §4.1.2): someone else holds it.
   */
  token(request: { code: string; clientId: string; redirectUri: string; codeVerifier: string }, now = Date.now()) {
    this.forgetExpiredCodes(now);
    const issued = this.codes.get(request.code);
    if (!issued) throw new OAuthError('invalid_grant', 'Unknown or used authorization code: sign in again');
    if (issued.used) {
      this.keys.revoke(issued.keyId);
      throw new OAuthError('invalid_grant', 'Unknown or used authorization code: sign in again');
    }
    issued.used = true;
    if (issued.expiresAt <= now) {
      this.keys.revoke(issued.keyId);
      throw new OAuthError('invalid_grant', 'The authorization code expired: sign in again');
    }
    const matches =
      issued.client.clientId === request.clientId &&
      issued.redirectUri === request.redirectUri &&
      sameSecret(pkceChallengeOf(request.codeVerifier), issued.codeChallenge);
    if (!matches) {
      this.keys.revoke(issued.keyId);
      throw new OAuthError('invalid_grant', 'The code was issued to another client, redirect URI or PKCE challenge');
    }
    return { access_token: issued.apiKey, token_type: 'Bearer', scope: issued.toolsets.join(' ') };
  }

  private forgetExpiredCodes(now: number): void {
    for (const [code, issued] of this.codes) if (issued.expiresAt + CODE_LIFETIME_MS <= now) this.codes.delete(code);
  }

  private waiting(authorization: Authorization): AuthorizationOutcome {
    return { status: 'waiting', code: authorization.code, appName: authorization.client.name };
  }
}

/** An OAuth error answer (RFC 6749 §5.2): its code and what to do. */
export class OAuthError extends HttpError {
  readonly code: string;
  constructor(code: string, description: string) {
    super(400, description);
    this.code = code;
  }
}

export function pkceChallengeOf(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The relay signs in programs on this computer only: a redirect goes to a loopback address (Claude Code, the MCP
 * Inspector) or to an app's own scheme (vscode://, cursor://), never to a web site, which could take the code away.
 */
function refuseRemoteRedirect(uri: string): void {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new OAuthError('invalid_redirect_uri', `Not a URL: ${uri}`);
  }
  const web = url.protocol === 'http:' || url.protocol === 'https:';
  if (web && !LOOPBACK_HOSTS.has(url.hostname))
    throw new OAuthError(
      'invalid_redirect_uri',
      `${uri} is not on this computer: Tabletop Relay signs in assistants that listen on a loopback address or an app's own scheme`,
    );
  if (url.protocol === 'javascript:' || url.protocol === 'data:' || url.protocol === 'file:')
    throw new OAuthError('invalid_redirect_uri', `${url.protocol} cannot be a redirect URI`);
}
