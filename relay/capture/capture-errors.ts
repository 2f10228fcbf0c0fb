import { HttpError } from '../errors.ts';
import { CaptureFailure } from './foundry-login.ts';
import { ChromeNotFoundError } from './puppeteer-browser.ts';

/**
 * The HTTP error a failure of browser capture or of a GM session answers with: a capture failure with its own status,
 * no browser a 503 that says how to get one, anything else (the browser crashed, a page broke) a 502 that names
 * `failedWork`, e.g. "The capture session".
 */
export function captureHttpError(error: unknown, failedWork: string): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof CaptureFailure) {
    // Only a GM session that stopped while waiting for its world fails with 408.
    const details =
      error.status === 408
        ? { message: 'The session was stopped; check that the world has been paired with this relay' }
        : undefined;
    return new HttpError(error.status, error.message, details);
  }
  if (error instanceof ChromeNotFoundError) return new HttpError(503, error.message);
  return new HttpError(502, `${failedWork} failed: ${error instanceof Error ? error.message : String(error)}`);
}
