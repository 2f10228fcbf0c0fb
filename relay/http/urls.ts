/**
 * The address a Foundry world connects to, derived from the relay's HTTP base URL (http://127.0.0.1:3010 →
 * ws://127.0.0.1:3010/relay). The one form shown everywhere: the 3.x module strips and re-appends `/relay`, and a 2.x
 * module uses the URL as given, which the relay serves on `/relay` too (module-protocol.md §2).
 */
export function worldSocketUrl(httpBaseUrl: string): string {
  return `${httpBaseUrl.replace(/^http/, 'ws').replace(/\/+$/, '')}/relay`;
}
