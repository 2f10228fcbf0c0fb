/**
 * An error a caller can act on: its status and message become the `{error}` JSON answer, `details` extra fields of that
 * body (only fields the reference relay sends too, or of errors it does not have), `headers` machine-readable detail
 * that HTTP sends as response headers (so that the body stays the reference's byte for byte).
 */
export class HttpError extends Error {
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(status: number, message: string, details?: Record<string, unknown>, headers?: Record<string, string>) {
    super(message);
    this.status = status;
    this.details = details;
    this.headers = headers;
  }

  toBody(): Record<string, unknown> {
    return { error: this.message, ...this.details };
  }
}

/** A 429 that says when to come back: HTTP sends it as the Retry-After header, /ws/api as the frame's `retryAfter`. */
export class RetryLater extends HttpError {
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(429, message.replace('{seconds}', String(seconds)), undefined, { 'Retry-After': String(seconds) });
    this.retryAfterSeconds = seconds;
  }
}

export interface ErrorAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** What the relay answers when something it did not expect went wrong; the error itself goes to the log only. */
export const UNEXPECTED_ANSWER: ErrorAnswer = {
  status: 500,
  body: { error: 'The relay failed to answer this request' },
};

/** What a caller is told about an error: an HttpError as it says, a 4xx raised while reading the request in general terms; undefined when unexpected. */
export function answerFor(error: unknown): ErrorAnswer | undefined {
  if (error instanceof HttpError) return { status: error.status, body: error.toBody() };
  const status = (error as { status?: unknown } | null | undefined)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return { status, body: { error: 'The request could not be read' } };
  return undefined;
}
