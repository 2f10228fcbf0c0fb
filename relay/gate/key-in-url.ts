import type { RelayServices } from '../services.ts';
import { refusedCall } from '../activity/activity-log.ts';
import { HttpError } from '../errors.ts';

/** An API key (`ttr_…`) in a query string, not the end of a longer word such as `attr_…`. */
const KEY_IN_QUERY = /(?<![A-Za-z])ttr_[\w-]{16,}/;

/**
 * Why an API key in a URL is refused. A URL is written down everywhere (the relay's and proxies' logs, browser history,
 * an OBS scene file shared with a layout), so the key must also be replaced.
 */
export const KEY_IN_URL_REFUSAL =
  'API keys are refused in URLs: a URL ends up in logs, browser history and OBS scene files. Send the key as the x-api-key header; for an OBS overlay, make an overlay link in the settings UI (Overlays) instead. This key may already be recorded somewhere: rotate it in the settings UI (API keys)';

/** True when the URL's query string carries an API key; a substring test first, so most URLs cost one scan. */
export function carriesApiKey(url: string): boolean {
  const mark = url.indexOf('?');
  if (mark < 0 || !url.includes('ttr_', mark)) return false;
  return KEY_IN_QUERY.test(url.slice(mark + 1));
}

/**
 * Notes the refusal in the activity log under the key's name, so the GM sees which key to rotate; the key itself and
 * the query string are never written anywhere.
 */
export function noteKeyInUrl(url: string, method: string, services: RelayServices): void {
  const mark = url.indexOf('?');
  const key = KEY_IN_QUERY.exec(url.slice(mark + 1));
  const record = key ? services.keys.verify(key[0]) : undefined;
  const caller = record ? { keyName: record.name } : { keyName: null, keyProblem: 'unknown' as const };
  services.activity.record(
    refusedCall(caller, method, url.slice(0, mark), new HttpError(401, KEY_IN_URL_REFUSAL), performance.now()),
  );
}
