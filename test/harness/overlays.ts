import type { OverlayName } from '../../contracts/overlays.ts';
import type { NewOverlayLink } from '../../contracts/admin-api.ts';
import { call, type Answer } from './http.ts';
import { EventStream } from './sse.ts';
import type { WorldHarness } from './world.ts';

export interface LinkOptions {
  name?: string;
  userId?: string;
  actorUuid?: string;
  hpBars?: boolean;
  customCss?: string;
}

/** Makes an overlay link for the harness's world through the admin API, as the settings UI does. */
export async function makeOverlayLink(
  harness: WorldHarness,
  overlay: OverlayName,
  options: LinkOptions = {},
): Promise<NewOverlayLink> {
  const answer = await harness.admin('POST', '/admin/overlay-links', {
    overlay,
    clientId: harness.clientId,
    ...options,
  });
  if (answer.status !== 201) throw new Error(`overlay link creation failed: ${answer.text}`);
  return answer.body as NewOverlayLink;
}

/** One GET of an overlay's route (`''` the page, `/state`, `/sheet`) with its link and options, as OBS sends it. */
export function getOverlay<T = any>(
  harness: WorldHarness,
  overlay: OverlayName,
  route: '' | '/state' | '/sheet',
  link: string,
  query: Record<string, string | number | boolean> = {},
): Promise<Answer<T>> {
  return call<T>(harness.baseUrl, 'GET', `/overlays/${overlay}${route}`, { query: { link, ...query } });
}

/** Opens an overlay's live stream the way the page does (the link in the URL, no header) and waits for `connected`. */
export async function openOverlayStream(harness: WorldHarness, overlay: OverlayName, link: string) {
  const url = new URL(`/overlays/${overlay}/events`, harness.baseUrl);
  url.searchParams.set('link', link);
  const stream = new EventStream(url.toString());
  await stream.ready;
  return stream;
}

/** A moment in a stream: when, and how many events it had received by then. */
export interface StreamMark {
  at: number;
  seen: number;
}

export function markOf(stream: EventStream): StreamMark {
  return { at: performance.now(), seen: stream.events.length };
}

/** Waits for an event received after `mark` that matches, and says how long after the mark it came. */
export async function eventWithin(
  stream: EventStream,
  name: string,
  where: (data: any) => boolean,
  mark: StreamMark,
  timeoutMs = 2000,
): Promise<{ data: any; ms: number }> {
  for (;;) {
    const found = stream.events.slice(mark.seen).find((event) => event.name === name && where(event.data));
    if (found) return { data: found.data, ms: performance.now() - mark.at };
    if (performance.now() - mark.at > timeoutMs)
      throw new Error(`no matching '${name}' event; got ${JSON.stringify(stream.events.slice(mark.seen))}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
