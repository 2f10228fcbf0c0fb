// What a keeper's failed start means to the GM: words for the tray and the settings, and whether trying again can help
// (Foundry down, no world launched) or only the GM can mend it (a wrong password, a user who is not a Gamemaster).
import { CaptureFailure, type FoundryProblem } from '../capture/foundry-login.ts';
import { LeftFoundryError } from '../capture/browser.ts';
import { ChromeNotFoundError } from '../capture/puppeteer-browser.ts';

export interface KeeperFailure {
  /** True when trying again cannot help until the GM changes something. */
  final: boolean;
  /** Short words for the tray and the Status page. */
  words: string;
  /** The whole message, for the log and the Test button. */
  detail: string;
  problem?: FoundryProblem | 'no-browser';
}

const PROBLEMS: Record<FoundryProblem, { final: boolean; words: string }> = {
  unreachable: { final: false, words: 'Foundry is not reachable' },
  'not-launched': { final: false, words: 'the world is not launched in Foundry' },
  'admin-password-refused': { final: true, words: 'Foundry refused the administrator password' },
  'unknown-user': { final: true, words: 'Foundry has no user of that name' },
  'user-busy': { final: false, words: "the keeper's user is logged in elsewhere" },
  'wrong-password': { final: true, words: "Foundry refused the keeper's user or password" },
  'not-ready': { final: false, words: 'the Foundry game did not start' },
  'not-gamemaster': { final: true, words: "the keeper's user is not a Gamemaster" },
  'other-world': { final: false, words: 'Foundry runs another world' },
  'never-paired': { final: true, words: 'the world was never paired with this relay' },
  'module-disabled': { final: true, words: 'the Foundry REST API module is not enabled in the world' },
  'module-not-connected': { final: false, words: 'the module did not connect to the relay' },
  'left-foundry': { final: true, words: 'the Foundry address sent the page elsewhere' },
};

export function describeFailure(error: unknown): KeeperFailure {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof ChromeNotFoundError)
    return { final: true, words: 'no Chrome or Chromium was found', detail, problem: 'no-browser' };
  if (error instanceof LeftFoundryError) return { ...PROBLEMS['left-foundry'], detail, problem: 'left-foundry' };
  if (error instanceof CaptureFailure && error.problem !== undefined)
    return { ...PROBLEMS[error.problem], detail, problem: error.problem };
  return { final: false, words: 'the keeper could not start', detail };
}
