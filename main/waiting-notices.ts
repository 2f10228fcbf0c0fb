// Desktop notifications for what waits for the GM (a tool's key request, a change held for approval): shown once when it
// arrives, taken down once the GM decided it (or it expired). No Electron here: main/notification.ts shows the notices.

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

/** Follows what waits, by code, and keeps one notice on screen per waiting thing, from its arrival to its decision. */
export class WaitingNotices<T extends { code: string }> {
  private readonly shown = new Map<string, ShownNotice | undefined>();
  private readonly show: ShowNotice;
  private readonly noticeOf: (waiting: T) => Notice;
  private readonly open: (code: string) => void;

  /** `open` brings up the settings on what the GM clicked the notice of. */
  constructor(show: ShowNotice, noticeOf: (waiting: T) => Notice, open: (code: string) => void) {
    this.show = show;
    this.noticeOf = noticeOf;
    this.open = open;
  }

  /** Takes what waits now: a newcomer gets its notice, one no longer waiting loses it. */
  update(waiting: readonly T[]): void {
    const codes = new Set(waiting.map((entry) => entry.code));
    for (const [code, notice] of this.shown) {
      if (codes.has(code)) continue;
      notice?.close();
      this.shown.delete(code);
    }
    for (const entry of waiting) {
      if (this.shown.has(entry.code)) continue;
      this.shown.set(
        entry.code,
        this.show(this.noticeOf(entry), () => this.open(entry.code)),
      );
    }
  }

  /** Takes every notice down (the app quits). */
  close(): void {
    this.update([]);
  }
}
