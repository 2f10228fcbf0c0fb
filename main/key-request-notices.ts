// The desktop notification for a tool's key request: shown once when the request arrives, taken down once the GM decided
// it (or it expired). No Electron here: main/notification.ts shows the notices.
import { shortened } from './tray-menu.ts';
import type { TrayKeyRequest } from './tray-status.ts';

export interface Notice {
  title: string;
  body: string;
}

/** A notice on screen; the caller keeps it until `close`, so its click still reaches the app. */
export interface ShownNotice {
  close(): void;
}

/** Shows a notice and calls `onClick` when the GM clicks it; undefined where the system has no notifications. */
export type ShowNotice = (notice: Notice, onClick: () => void) => ShownNotice | undefined;

export function keyRequestNotice(request: TrayKeyRequest): Notice {
  return {
    title: `${shortened(request.appName)} asks for an API key`,
    body: `Open Tabletop Relay to approve it. The tool shows the code ${request.code}.`,
  };
}

/** The settings page that shows this request, as the settings window's URL fragment. */
export function keyRequestPage(code: string): string {
  return `status/key-request/${encodeURIComponent(code)}`;
}

/** Follows the waiting key requests and keeps one notice on screen per request, from its arrival to its decision. */
export class KeyRequestNotices {
  private readonly shown = new Map<string, ShownNotice | undefined>();
  private readonly show: ShowNotice;
  private readonly open: (code: string) => void;

  /** `open` brings up the settings on the request whose notice the GM clicked. */
  constructor(show: ShowNotice, open: (code: string) => void) {
    this.show = show;
    this.open = open;
  }

  /** Takes the requests waiting now: a new one gets its notice, one no longer waiting loses it. */
  update(waiting: readonly TrayKeyRequest[]): void {
    const codes = new Set(waiting.map((request) => request.code));
    for (const [code, notice] of this.shown) {
      if (codes.has(code)) continue;
      notice?.close();
      this.shown.delete(code);
    }
    for (const request of waiting) {
      if (this.shown.has(request.code)) continue;
      this.shown.set(
        request.code,
        this.show(keyRequestNotice(request), () => this.open(request.code)),
      );
    }
  }

  /** Takes every notice down (the app quits). */
  close(): void {
    this.update([]);
  }
}
