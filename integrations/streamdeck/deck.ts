import streamDeck, { type Action, type FeedbackPayload } from '@elgato/streamdeck';
import {
  DECK_SCOPES,
  DEFAULT_RELAY_URL,
  RelayClient,
  WorldWatcher,
  requestKey,
  type CallResult,
  type ClientLogger,
  type WorldSnapshot,
} from '../client/index.ts';
import { approvalImage, OFFLINE_IMAGE } from './images.ts';

/** The plugin's global settings: which relay, and the key the GM approved. */
export type GlobalSettings = {
  relayUrl?: string;
  apiKey?: string;
};

/** What one key or dial shows. Absent fields leave the manifest's default (title, image) or are not sent. */
export interface KeyView {
  title?: string;
  image?: string;
  state?: 0 | 1;
  feedback?: FeedbackPayload;
}

/** How the setup stands: a key in use, a key request waiting for the GM, or neither yet. */
export type Setup =
  | { phase: 'starting' }
  | { phase: 'ready' }
  | { phase: 'approving'; code: string }
  | { phase: 'relay-off' }
  | { phase: 'refused'; reason: string };

/** An action kind's part in drawing its keys. */
export interface KeyDrawer {
  view(settings: Record<string, unknown>, snapshot: WorldSnapshot, deck: Deck): KeyView;
  /** The status key tells the relay is off in its own way; every other key shows the offline image. */
  offlineView?(): KeyView;
}

interface Visible {
  action: Action;
  settings: Record<string, unknown>;
  drawer: KeyDrawer;
  flash?: { view: KeyView; timer: ReturnType<typeof setTimeout> };
}

export const APP_NAME = 'Stream Deck';
const APP_DESCRIPTION = 'Stream Deck buttons: roll, turns and rounds, playlists, macros, hit points, world status';
/** A refused or failed key request is asked again after this long (a key press asks at once). */
const RETRY_REQUEST_MS = 30_000;
const RETRY_UNREACHABLE_MIN_MS = 2_000;

const APPROVE_TITLE = 'Approve in\nTabletop\nRelay';

function logger(): ClientLogger {
  return {
    info: (message) => streamDeck.logger.info(message),
    warn: (message) => streamDeck.logger.warn(message),
  };
}

/**
 * The plugin's one connection to the relay: the client, the world state its keys show, the setup (global settings,
 * key request) and every visible key's drawing, sent only when it changed.
 */
export class Deck {
  readonly client = new RelayClient({ logger: logger() });
  readonly watcher = new WorldWatcher(this.client);
  readonly #visible = new Map<string, Visible>();
  readonly #sent = new Map<string, KeyView>();
  #setup: Setup = { phase: 'starting' };
  #requestAbort: AbortController | undefined;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #configured = false;

  constructor() {
    let relayWasUp = false;
    this.watcher.onChange((snapshot) => {
      // A failure shown on a key is stale once the relay is back.
      if (snapshot.relayUp && !relayWasUp) this.#dropFlashes();
      relayWasUp = snapshot.relayUp;
      this.redrawAll();
    });
  }

  #dropFlashes(): void {
    for (const visible of this.#visible.values()) {
      if (visible.flash) clearTimeout(visible.flash.timer);
      visible.flash = undefined;
    }
  }

  get setup(): Setup {
    return this.#setup;
  }

  get snapshot(): WorldSnapshot {
    return this.watcher.snapshot;
  }

  /** Reads the global settings and starts: with a key, the world's streams; without one, a key request. */
  async start(): Promise<void> {
    streamDeck.settings.onDidReceiveGlobalSettings<GlobalSettings>((event) => this.applySettings(event.settings));
    this.applySettings(await streamDeck.settings.getGlobalSettings<GlobalSettings>());
  }

  applySettings(settings: GlobalSettings): void {
    const relayUrl = settings.relayUrl || DEFAULT_RELAY_URL;
    const apiKey = settings.apiKey || undefined;
    const changed = relayUrl !== this.client.relayUrl || apiKey !== this.client.apiKey;
    // The SDK hands the answer to getGlobalSettings to the settings listener as well: the second sight changes nothing.
    if (!changed && this.#configured) return;
    this.#configured = true;
    this.client.configure({ relayUrl, apiKey });
    if (apiKey) {
      this.#cancelRequest();
      this.#setSetup({ phase: 'ready' });
      if (this.watcher.running) this.watcher.restart();
      else this.watcher.start();
    } else {
      this.watcher.stop();
      this.askForKey();
    }
  }

  /** Runs the key-request flow with exactly the scopes the deck's actions need; approval saves the key. */
  askForKey(): void {
    this.#cancelRequest();
    const abort = new AbortController();
    this.#requestAbort = abort;
    void this.#requestUntilDecided(abort.signal, RETRY_UNREACHABLE_MIN_MS);
  }

  async #requestUntilDecided(signal: AbortSignal, retryMs: number): Promise<void> {
    const outcome = await requestKey({
      relayUrl: this.client.relayUrl,
      appName: APP_NAME,
      appDescription: APP_DESCRIPTION,
      scopes: DECK_SCOPES,
      logger: this.client.log,
      signal,
      // A request given up for a newer one must not put its code on the keys.
      onPending: ({ code }) => {
        if (!signal.aborted) this.#setSetup({ phase: 'approving', code });
      },
    });
    if (signal.aborted || outcome.status === 'cancelled') return;
    switch (outcome.status) {
      case 'approved': {
        const settings: GlobalSettings = { relayUrl: this.client.relayUrl, apiKey: outcome.apiKey };
        await streamDeck.settings.setGlobalSettings(settings);
        this.applySettings(settings);
        return;
      }
      case 'expired':
        void this.#requestUntilDecided(signal, RETRY_UNREACHABLE_MIN_MS);
        return;
      case 'denied':
        this.#setSetup({ phase: 'refused', reason: 'Denied' });
        this.#retryLater(signal, RETRY_REQUEST_MS, RETRY_UNREACHABLE_MIN_MS);
        return;
      case 'failed':
        if (outcome.failure.kind === 'relay-off') {
          this.#setSetup({ phase: 'relay-off' });
          this.#retryLater(signal, retryMs, Math.min(retryMs * 2, RETRY_REQUEST_MS));
        } else {
          this.#setSetup({ phase: 'refused', reason: outcome.failure.short });
          this.#retryLater(signal, RETRY_REQUEST_MS, RETRY_UNREACHABLE_MIN_MS);
        }
    }
  }

  #retryLater(signal: AbortSignal, waitMs: number, nextRetryMs: number): void {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = setTimeout(() => {
      if (!signal.aborted) void this.#requestUntilDecided(signal, nextRetryMs);
    }, waitMs);
  }

  #cancelRequest(): void {
    clearTimeout(this.#retryTimer);
    this.#requestAbort?.abort();
    this.#requestAbort = undefined;
  }

  #setSetup(setup: Setup): void {
    this.#setup = setup;
    this.redrawAll();
  }

  /**
   * Whether a press may act: with the setup done. Otherwise the key alerts, and a refused or unreachable setup is
   * asked again at once.
   */
  readyForPress(action: Action): boolean {
    if (this.#setup.phase === 'ready') return true;
    void action.showAlert();
    if (this.#setup.phase === 'refused' || this.#setup.phase === 'relay-off') this.askForKey();
    return false;
  }

  appear(action: Action, settings: Record<string, unknown>, drawer: KeyDrawer): void {
    this.#visible.set(action.id, { action, settings, drawer });
    this.#sent.delete(action.id);
    this.redraw(action.id);
  }

  disappear(id: string): void {
    const visible = this.#visible.get(id);
    if (visible?.flash) clearTimeout(visible.flash.timer);
    this.#visible.delete(id);
    this.#sent.delete(id);
  }

  settingsChanged(action: Action, settings: Record<string, unknown>, drawer: KeyDrawer): void {
    const visible = this.#visible.get(action.id);
    if (visible) visible.settings = settings;
    else this.#visible.set(action.id, { action, settings, drawer });
    this.redraw(action.id);
  }

  /** Shows `view` on the key for `ms`, then its usual drawing again. */
  flash(action: Action, view: KeyView, ms: number): void {
    const visible = this.#visible.get(action.id);
    if (!visible) return;
    if (visible.flash) clearTimeout(visible.flash.timer);
    visible.flash = {
      view,
      timer: setTimeout(() => {
        visible.flash = undefined;
        this.redraw(action.id);
      }, ms),
    };
    this.redraw(action.id);
  }

  /** A failed call: the key's alert, and its short message for a few seconds. */
  failed(action: Action, answer: CallResult): void {
    if (answer.ok) return;
    void action.showAlert();
    this.flash(action, { title: answer.short }, 2_000);
  }

  /** Every visible key of a drawer, e.g. to redraw after a setting that several share. */
  redrawAll(): void {
    for (const id of this.#visible.keys()) this.redraw(id);
  }

  redraw(id: string): void {
    const visible = this.#visible.get(id);
    if (!visible) return;
    const view = this.#viewOf(visible);
    void this.#send(visible.action, view);
  }

  #viewOf(visible: Visible): KeyView {
    const setup = this.#setup;
    if (setup.phase === 'approving')
      return {
        title: APPROVE_TITLE,
        image: approvalImage(setup.code),
        feedback: { title: 'Approve in Tabletop Relay', value: setup.code },
      };
    if (setup.phase === 'refused') return { title: setup.reason, image: OFFLINE_IMAGE };
    const snapshot = this.watcher.snapshot;
    const relayOff =
      setup.phase === 'relay-off' ||
      (setup.phase === 'ready' && !snapshot.relayUp && snapshot.failure?.kind === 'relay-off');
    if (relayOff) return visible.drawer.offlineView?.() ?? { title: '', image: OFFLINE_IMAGE };
    if (visible.flash) {
      const usual = visible.drawer.view(visible.settings, snapshot, this);
      const flashed = visible.flash.view.title;
      const feedback = usual.feedback && flashed !== undefined ? { ...usual.feedback, value: flashed } : usual.feedback;
      return { ...usual, ...visible.flash.view, feedback };
    }
    if (setup.phase === 'starting') return {};
    return visible.drawer.view(visible.settings, snapshot, this);
  }

  /** Sends what changed since the last drawing of this key; the deck never hears the same drawing twice. */
  async #send(action: Action, view: KeyView): Promise<void> {
    const before = this.#sent.get(action.id) ?? {};
    try {
      if (action.isDial()) {
        // A dial's title is its touch strip's: the drawing's feedback, or its title there.
        const feedback = view.feedback ?? { title: (view.title ?? '').replace(/\n/g, ' '), value: '' };
        this.#sent.set(action.id, { ...view, feedback });
        if (JSON.stringify(feedback) !== JSON.stringify(before.feedback)) await action.setFeedback(feedback);
        if (view.image !== before.image) await action.setImage(view.image);
        return;
      }
      this.#sent.set(action.id, view);
      if (!action.isKey()) return;
      if (view.title !== before.title) await action.setTitle(view.title ?? '');
      if (view.image !== before.image) await action.setImage(view.image);
      if (view.state !== undefined && view.state !== before.state) await action.setState(view.state);
    } catch (error) {
      this.client.log.warn(`Drawing a key failed: ${String(error)}`);
    }
  }
}
