import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type LogLevel = 'info' | 'warn' | 'error';

export interface Logger {
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
  readonly folder: string;
}

export interface LoggerOptions {
  folder: string;
  /** main.log, then main.1.log … main.<keep>.log for the older ones. */
  name?: string;
  maxBytes?: number;
  keep?: number;
  now?: () => Date;
}

/**
 * The shapes of the relay's secrets: API keys (ttr_…), overlay links (ttol_…, also as a URL's `link=`), and the admin
 * token, connection tokens, sessions and sign-in codes (long hex). The relay's lines name none; this keeps one that
 * slips into an error message out of the file too.
 */
const SECRETS = [
  /\bttr_[\w-]{16,}/g,
  /\bttol_[\w-]{16,}/g,
  /\b(link=)[^&\s#"']+/gi,
  /\b[0-9a-f]{32,}\b/gi,
  /\b(Bearer\s+)\S+/gi,
];

export function withoutSecrets(text: string): string {
  return SECRETS.reduce(
    (clean, pattern) =>
      clean.replace(pattern, (_match, bearer?: string) => (typeof bearer === 'string' ? `${bearer}…` : '…')),
    text,
  );
}

function describe(detail: unknown): string {
  if (detail === undefined) return '';
  if (detail instanceof Error) return ` ${detail.stack ?? detail.message}`;
  return ` ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`;
}

/** A file logger that starts a new file past maxBytes and keeps the last few. It never throws: logs must not stop the app. */
export function createFileLogger(options: LoggerOptions): Logger {
  const name = options.name ?? 'main';
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  const keep = options.keep ?? 3;
  const now = options.now ?? (() => new Date());
  const fileOf = (index: number) => join(options.folder, index === 0 ? `${name}.log` : `${name}.${index}.log`);

  const rotateIfFull = (incoming: number) => {
    const current = fileOf(0);
    if (!existsSync(current) || statSync(current).size + incoming <= maxBytes) return;
    rmSync(fileOf(keep), { force: true });
    for (let index = keep - 1; index >= 0; index -= 1) {
      if (existsSync(fileOf(index))) renameSync(fileOf(index), fileOf(index + 1));
    }
  };

  const write = (level: LogLevel, message: string, detail: unknown) => {
    const line = `${now().toISOString()} ${level.toUpperCase().padEnd(5)} ${withoutSecrets(`${message}${describe(detail)}`)}\n`;
    try {
      mkdirSync(options.folder, { recursive: true });
      rotateIfFull(Buffer.byteLength(line));
      appendFileSync(fileOf(0), line);
    } catch {
      // A full disk or a read-only folder loses the log line, not the relay.
    }
  };

  return {
    folder: options.folder,
    info: (message, detail) => write('info', message, detail),
    warn: (message, detail) => write('warn', message, detail),
    error: (message, detail) => write('error', message, detail),
  };
}
