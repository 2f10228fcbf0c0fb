/**
 * Where the relay's own log lines go: storage errors, capture, unexpected errors. The console by default; the desktop
 * app passes its rotating log file. Lines name paths and error codes, never a key, token, code or password.
 */
export interface RelayLog {
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

export const consoleLog: RelayLog = console;
