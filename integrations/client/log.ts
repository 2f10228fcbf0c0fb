/** Where the client writes what happens; the host gives it (the Stream Deck SDK's logger, Companion's log, console). */
export interface ClientLogger {
  info(message: string): void;
  warn(message: string): void;
}

export const silentLogger: ClientLogger = { info: () => {}, warn: () => {} };

/** The relay's credentials and secrets: API keys (`ttr_`), overlay links (`ttol_`), key-request poll secrets (`krq_`). */
const SECRET_SHAPE = /\b(ttr|ttol|krq)_[A-Za-z0-9_-]+/g;

/** The line with every known secret and anything shaped like one replaced by its prefix and an ellipsis. */
export function maskSecrets(line: string, secrets: readonly (string | undefined)[] = []): string {
  let masked = line;
  for (const secret of secrets) if (secret) masked = masked.split(secret).join('***');
  return masked.replace(SECRET_SHAPE, (_match, prefix: string) => `${prefix}_***`);
}

/** A logger that masks `secrets()` (read at each line, so a key saved later is masked too) before the host sees it. */
export function maskingLogger(logger: ClientLogger, secrets: () => readonly (string | undefined)[]): ClientLogger {
  return {
    info: (message) => logger.info(maskSecrets(message, secrets())),
    warn: (message) => logger.warn(maskSecrets(message, secrets())),
  };
}
