// What the desktop notification of a tool's key request says, and where its click opens the settings.
import { shortened } from './tray-menu.ts';
import type { TrayKeyRequest } from './tray-status.ts';
import type { Notice } from './waiting-notices.ts';

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
