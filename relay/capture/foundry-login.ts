// Logging a browser page in to Foundry as a user, as the reference relay's headless login does (module-protocol.md §7.3).
import { LeftFoundryError, type BrowserPage } from './browser.ts';
import { joinFoundry, passAdminPage, waitForGame, type GameFacts, type LoginRefusal } from './page-scripts.ts';

const NAVIGATION_TIMEOUT_MS = 60_000;
const READY_TIMEOUT_MS = 30_000;

export interface FoundryAccount {
  /** The Foundry server, e.g. http://127.0.0.1:30000. */
  foundryUrl: string;
  username: string;
  password: string;
  /** Foundry's administrator password, for the page Foundry shows instead of /join while no world is launched. */
  adminPassword?: string;
}

/**
 * What went wrong in Foundry's terms, for those who must say it in words or decide whether trying again can help:
 * Foundry not answering, no world launched, the administrator password refused, no such user, the user logged in
 * elsewhere, the password refused, the game never ready, a user below Gamemaster, another world running, a world never
 * paired, the module disabled, the module not connecting, a page that sent the browser away from Foundry.
 */
export type FoundryProblem =
  | 'unreachable'
  | 'not-launched'
  | 'admin-password-refused'
  | 'unknown-user'
  | 'user-busy'
  | 'wrong-password'
  | 'not-ready'
  | 'not-gamemaster'
  | 'other-world'
  | 'never-paired'
  | 'module-disabled'
  | 'module-not-connected'
  | 'left-foundry';

const REFUSAL_PROBLEM: Record<LoginRefusal, FoundryProblem> = {
  'no-login-page': 'not-ready',
  'unknown-user': 'unknown-user',
  'user-busy': 'user-busy',
  refused: 'wrong-password',
};

/** A capture or session failure with the HTTP status it answers with, and Foundry's problem when it was one. */
export class CaptureFailure extends Error {
  readonly status: number;
  readonly problem: FoundryProblem | undefined;

  constructor(status: number, message: string, problem?: FoundryProblem) {
    super(message);
    this.status = status;
    this.problem = problem;
  }
}

export function foundryBase(foundryUrl: string): string {
  return foundryUrl.replace(/\/+$/, '').replace(/\/(join|game)$/, '');
}

/** Opens /join, posts the login from inside the page, follows the redirect and waits until the game is ready. */
export async function logIn(page: BrowserPage, account: FoundryAccount): Promise<GameFacts> {
  const base = foundryBase(account.foundryUrl);
  await page.goto(`${base}/join`, NAVIGATION_TIMEOUT_MS).catch((error: unknown) => {
    if (error instanceof LeftFoundryError) throw error;
    throw new CaptureFailure(
      502,
      `Foundry at ${base} could not be reached: ${error instanceof Error ? error.message : String(error)}`,
      'unreachable',
    );
  });
  let outcome = await page.evaluate(joinFoundry, { username: account.username, password: account.password });
  if (outcome.state === 'admin-password') {
    await passAdministratorPage(page, base, account.adminPassword);
    await page.goto(`${base}/join`, NAVIGATION_TIMEOUT_MS);
    outcome = await page.evaluate(joinFoundry, { username: account.username, password: account.password });
  }
  if (outcome.state === 'admin-password')
    throw new CaptureFailure(
      502,
      `Foundry at ${base} still shows its administrator page after the password was accepted`,
      'not-launched',
    );
  if (outcome.state === 'failed')
    throw new CaptureFailure(
      502,
      `Could not log in to Foundry as '${account.username}': ${outcome.error}`,
      REFUSAL_PROBLEM[outcome.reason],
    );
  if (outcome.state === 'joined') await page.goto(withinFoundry(outcome.redirect, base), NAVIGATION_TIMEOUT_MS);
  return waitUntilReady(page);
}

/** Where Foundry sends the page after the login, refused when it leaves Foundry: the relay's pages go nowhere else. */
function withinFoundry(redirect: string, base: string): string {
  const target = new URL(redirect, `${base}/`);
  if (target.origin !== new URL(base).origin) {
    throw new CaptureFailure(
      502,
      `Foundry at ${base} sent the login to ${target.origin}, which the relay does not open: check the Foundry address`,
      'left-foundry',
    );
  }
  return target.toString();
}

async function passAdministratorPage(
  page: BrowserPage,
  base: string,
  adminPassword: string | undefined,
): Promise<void> {
  if (!adminPassword) {
    throw new CaptureFailure(
      409,
      `Foundry at ${base} shows its administrator password page: no world is launched. Launch the world in Foundry, or give its administrator password sealed as encryptedAdminPassword`,
      'not-launched',
    );
  }
  const passed = await page.evaluate(passAdminPage, adminPassword);
  if (!passed.ok)
    throw new CaptureFailure(
      401,
      `Foundry at ${base} refused the administrator password: ${passed.error}`,
      'admin-password-refused',
    );
}

export async function waitUntilReady(page: BrowserPage): Promise<GameFacts> {
  const facts = await page.evaluate(waitForGame, READY_TIMEOUT_MS);
  if (!facts) throw new CaptureFailure(502, 'The Foundry game did not become ready within 30 s', 'not-ready');
  return facts;
}
