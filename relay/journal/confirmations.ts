import { EventEmitter } from 'node:events';
import type { ConfirmationView } from '../../contracts/admin-api.ts';
import { normalCode, readableCode } from '../auth/secrets.ts';
import { HttpError } from '../errors.ts';

/** How long a decided confirmation stays listed with its outcome, for the settings UI to show. */
const KEPT_DECIDED_MS = 60_000;
/** Changes one key may have waiting at once: a tool in a loop must not bury the Status page in cards. */
export const MOST_HELD_PER_KEY = 8;

/** What a held change shows the GM: everything of its view but what the hold itself sets. */
export type HeldChange = Omit<ConfirmationView, 'code' | 'status' | 'createdAt' | 'expiresAt'>;

interface Held {
  view: ConfirmationView;
  /** Ends the wait: the change goes on, or its caller is refused with the error. */
  end(refusal?: HttpError): void;
}

/**
 * Changes of keys that ask before changes (`askBeforeChanges`), each held until the GM approves it (the call goes on),
 * denies it (403) or lets the time run out (408): a card on the Status page and a desktop notification show it. Held in
 * memory: a relay that stops denies what it holds.
 */
export class Confirmations extends EventEmitter<{ changed: [ConfirmationView] }> {
  readonly #held = new Map<string, Held>();
  readonly #timeoutMs: () => number;

  constructor(timeoutMs: () => number) {
    super();
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Waits for the GM's decision on the change; resolves once approved, throws the caller's 403 or 408 otherwise, and 429
   * at once when the key has as many changes waiting as it may.
   */
  hold(change: HeldChange): Promise<void> {
    if (this.pending().filter((view) => view.keyId === change.keyId).length >= MOST_HELD_PER_KEY)
      return Promise.reject(
        new HttpError(
          429,
          `${MOST_HELD_PER_KEY} changes of this key already wait for the GM's approval: wait for their answers, then send this one again`,
        ),
      );
    const timeoutMs = this.#timeoutMs();
    const now = Date.now();
    const view: ConfirmationView = {
      ...change,
      code: this.#unusedCode(),
      status: 'pending',
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + timeoutMs).toISOString(),
    };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#settle(held, 'expired');
        held.end(
          new HttpError(
            408,
            `The GM did not approve this change (${view.code}) within ${Math.round(timeoutMs / 1000)} s: ask them to watch for it in the settings of Tabletop Relay, then send it again`,
          ),
        );
      }, timeoutMs);
      const held: Held = {
        view,
        end: (refusal) => {
          clearTimeout(timer);
          if (refusal) reject(refusal);
          else resolve();
        },
      };
      this.#held.set(view.code, held);
      this.emit('changed', view);
    });
  }

  /** The changes waiting for the GM, oldest first. */
  pending(): ConfirmationView[] {
    return [...this.#held.values()].map((held) => held.view).filter((view) => view.status === 'pending');
  }

  approve(code: string): ConfirmationView {
    return this.#decide(code, true);
  }

  deny(code: string): ConfirmationView {
    return this.#decide(code, false);
  }

  /** The key's changes still held are refused, its callers told why: the key was revoked, rotated or changed. */
  withdrawKey(keyId: string, reason: string): void {
    for (const held of this.#held.values()) {
      if (held.view.status !== 'pending' || held.view.keyId !== keyId) continue;
      this.#settle(held, 'denied');
      held.end(new HttpError(403, `${reason}; this change waited for the GM and nothing was changed`));
    }
  }

  /** At stop: every change still held is refused, its caller told why. */
  close(): void {
    for (const held of this.#held.values()) {
      if (held.view.status !== 'pending') continue;
      this.#settle(held, 'denied');
      held.end(new HttpError(503, 'Tabletop Relay stopped before the GM decided on this change; nothing was changed'));
    }
  }

  #decide(code: string, approved: boolean): ConfirmationView {
    const held = this.#held.get(normalCode(code));
    if (!held) throw new HttpError(404, 'No change waits with this code');
    if (held.view.status !== 'pending') throw new HttpError(409, `This change was ${held.view.status} already`);
    this.#settle(held, approved ? 'approved' : 'denied');
    held.end(
      approved
        ? undefined
        : new HttpError(403, `The GM denied this change (${held.view.code}) in the settings of Tabletop Relay`),
    );
    return held.view;
  }

  #settle(held: Held, status: ConfirmationView['status']): void {
    held.view = { ...held.view, status };
    this.emit('changed', held.view);
    setTimeout(() => this.#held.delete(held.view.code), KEPT_DECIDED_MS).unref();
  }

  #unusedCode(): string {
    let code = readableCode();
    while (this.#held.has(code)) code = readableCode();
    return code;
  }
}
