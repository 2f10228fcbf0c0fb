// Browser capture as the relay uses it: the shared browser, the configured capture session (GET /sheet) and the
// GM sessions that keep worlds online. Settings live in <dataDir>/capture.json with the password sealed.
import { join } from 'node:path';
import type { CaptureSettingsView } from '../../contracts/admin-api.ts';
import type { LaunchBrowser } from './browser.ts';
import { BrowserHost } from './browser-host.ts';
import { CaptureFailure } from './foundry-login.ts';
import { GmSessions, type GmSessionDependencies } from './gm-sessions.ts';
import { ChromeNotFoundError, puppeteerLauncher } from './puppeteer-browser.ts';
import { keyFileSecrets, type SecretStore } from './secrets.ts';
import { SheetCapture, type SheetImage, type SheetRequest } from './sheet-capture.ts';
import { JsonFile } from '../storage/json-file.ts';
import { consoleLog, type RelayLog } from '../log.ts';

export interface CaptureOptions {
  /** The browser to drive; defaults to puppeteer-core over the system Chrome/Chromium. */
  launchBrowser?: LaunchBrowser;
  /** Path of Chrome/Chromium for the default launcher; found automatically when absent. */
  chromePath?: string;
  /** Runs the default launcher's Chromium without its sandbox; it is off anyway for root on Linux. */
  chromeNoSandbox?: boolean;
  /** Where the capture password is sealed; defaults to a key file in the data directory. */
  secrets?: SecretStore;
  /** GM sessions with no API call for this long are ended; 0 never. Default 10 minutes. */
  sessionIdleTimeoutMs?: number;
}

export interface CaptureSettingsInput {
  foundryUrl: string;
  username: string;
  /** Absent keeps the stored password; '' stores an empty one. */
  password?: string;
}

interface StoredCaptureSettings {
  foundryUrl: string;
  username: string;
  sealedPassword?: string;
}

export class CaptureService {
  readonly host: BrowserHost;
  readonly sessions: GmSessions;
  readonly #file: JsonFile<StoredCaptureSettings | null>;
  /** Seals the passwords the relay keeps: the capture user's here, the world keepers' users' in their settings. */
  readonly secrets: SecretStore;
  #stored: StoredCaptureSettings | null;
  #session: SheetCapture | undefined;
  #browserMissing = false;
  readonly #log: RelayLog;

  constructor(dataDir: string, dependencies: GmSessionDependencies, options: CaptureOptions = {}) {
    this.#log = dependencies.log ?? consoleLog;
    this.host = new BrowserHost(
      options.launchBrowser ?? puppeteerLauncher(options.chromePath, options.chromeNoSandbox),
    );
    this.secrets = options.secrets ?? keyFileSecrets(dataDir, this.#log);
    this.#file = new JsonFile(join(dataDir, 'capture.json'), { log: dependencies.log });
    this.#stored = this.#file.read(null);
    this.sessions = new GmSessions(
      this.host,
      dependencies,
      options.sessionIdleTimeoutMs ?? 600_000,
      () => this.view().foundryUrl,
    );
  }

  view(): CaptureSettingsView {
    const stored = this.#stored;
    return {
      foundryUrl: stored?.foundryUrl ?? '',
      username: stored?.username ?? '',
      passwordSet: stored?.sealedPassword !== undefined,
    };
  }

  /** Stores new settings and replaces the capture session; the next capture logs in with them. A failed write changes nothing. */
  async configure(input: CaptureSettingsInput): Promise<CaptureSettingsView> {
    const sealedPassword =
      input.password !== undefined ? this.secrets.seal(input.password) : this.#stored?.sealedPassword;
    const next = {
      foundryUrl: input.foundryUrl,
      username: input.username,
      ...(sealedPassword !== undefined ? { sealedPassword } : {}),
    };
    this.#file.write(next);
    this.#stored = next;
    await this.#session?.close();
    this.#session = undefined;
    this.#browserMissing = false;
    return this.view();
  }

  /** True when GET /sheet should be served here: settings are complete and a browser is there to drive. */
  usable(): boolean {
    return (
      this.#stored !== null && this.#stored.foundryUrl !== '' && this.#stored.username !== '' && !this.#browserMissing
    );
  }

  /** The client id of the world the capture session is logged in to, once it has logged in. */
  async worldClientId(): Promise<string | undefined> {
    return (await this.#session?.facts())?.clientId || undefined;
  }

  capture(request: SheetRequest): Promise<SheetImage> {
    return this.#withBrowser(() => this.#sheets().capture(request));
  }

  /** A capture of the first sheet the capture user can see, for the settings UI's Test button. */
  testCapture(): Promise<SheetImage> {
    if (!this.usable())
      throw new CaptureFailure(400, 'Browser capture is not configured: set the Foundry URL, user and password first');
    return this.capture({ anyActor: true, format: 'png', quality: 0.9, scale: 1 });
  }

  /** Logs the capture session in ahead of the first /sheet. */
  async warm(): Promise<void> {
    await this.#withBrowser(() => this.#sheets().warm());
  }

  async close(): Promise<void> {
    await this.sessions.close();
    await this.#session?.close();
    this.#session = undefined;
    await this.host.close();
  }

  #sheets(): SheetCapture {
    if (this.#session) return this.#session;
    const stored = this.#stored;
    if (!stored) throw new CaptureFailure(400, 'Browser capture is not configured');
    const password = stored.sealedPassword !== undefined ? this.secrets.open(stored.sealedPassword) : '';
    this.#session = new SheetCapture(this.host, { foundryUrl: stored.foundryUrl, username: stored.username, password });
    return this.#session;
  }

  async #withBrowser<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ChromeNotFoundError && !this.#browserMissing) {
        this.#browserMissing = true;
        this.#log.warn(`Browser capture is off: ${error.message}. GET /sheet asks the world instead.`);
      }
      throw error;
    }
  }
}
