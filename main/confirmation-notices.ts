// What the desktop notification of a change held for the GM's approval says, and where its click opens the settings.
import { shortened } from './tray-menu.ts';
import type { TrayConfirmation } from './tray-status.ts';
import type { Notice } from './waiting-notices.ts';

export function confirmationNotice(held: TrayConfirmation): Notice {
  const world = held.worldTitle ? ` in ${shortened(held.worldTitle)}` : '';
  return {
    title: `${shortened(held.keyName)} asks to change your world`,
    body: `${held.summary}${world}. Open Tabletop Relay to approve or deny it; nothing changes until you do.`,
  };
}

/** The settings page that shows this held change, as the settings window's URL fragment. */
export function confirmationPage(code: string): string {
  return `status/confirmation/${encodeURIComponent(code)}`;
}
