/** An error a caller can act on: its status and message become the `{error}` JSON answer. */
export class HttpError extends Error {
  readonly status: number;
  readonly details: Record<string, unknown> | undefined;

  constructor(status: number, message: string, details?: Record<string, unknown>) {
    super(message);
    this.status = status;
    this.details = details;
  }

  toBody(): Record<string, unknown> {
    return { error: this.message, ...this.details };
  }
}
