import type { PairRequest } from '../auth/pairing.ts';
import type { KeyRequest } from '../auth/key-requests.ts';
import type { RelayServices } from '../services.ts';
import type { EventStream } from '../events/event-stream.ts';
import type { ChangeView, ConfirmationView } from '../../contracts/admin-api.ts';
import {
  keyRequestView,
  keyRequestViews,
  liveCounters,
  liveStatus,
  pairRequestView,
  pairRequestViews,
} from './status.ts';
import { activityEntryOf, type ActivityRecord } from '../activity/activity-log.ts';

const STATUS_SETTLE_MS = 100;
/** Calls in the last minute change with every call and as calls age: looked at once a second, sent only when changed. */
const COUNTERS_CHECK_MS = 1000;
/** After an `activity` event, the next waits this long and carries the calls made meanwhile, ACTIVITY_BATCH at most. */
const ACTIVITY_WINDOW_MS = 250;
const ACTIVITY_BATCH = 20;

/**
 * The settings UI's live feed. It sends changes, never the same thing twice: the status (without pair and key requests)
 * when it changed, bursts settled first; the waiting pair and key requests and held changes once, then each one that
 * appears or changes on its own; each change of the journal as it is recorded (`change`) or let go (`change-dropped`);
 * the API calls as they happen, at most one `activity` event per window with the newest calls, so a flood of calls
 * (refused ones cost a caller nothing) keeps the feed to a few KiB a second.
 */
export function openAdminFeed(services: RelayServices, stream: EventStream): void {
  const send = (name: string, data: unknown) => stream.send(name, JSON.stringify(data));
  let lastStatus = JSON.stringify(liveStatus(services));
  stream.send('status', lastStatus);
  send('pair-requests', { pairRequests: pairRequestViews(services) });
  send('key-requests', { keyRequests: keyRequestViews(services) });
  send('confirmations', { confirmations: services.confirmations.pending() });
  let pending: NodeJS.Timeout | undefined;
  const onStatus = () => {
    pending ??= setTimeout(() => {
      pending = undefined;
      const status = JSON.stringify(liveStatus(services));
      if (status === lastStatus) return;
      lastStatus = status;
      stream.send('status', status);
    }, STATUS_SETTLE_MS);
  };
  const onPairRequest = (request: PairRequest) => send('pair-request', pairRequestView(request, services));
  const onKeyRequest = (request: KeyRequest) => send('key-request', keyRequestView(request));
  const onConfirmation = (confirmation: ConfirmationView) => send('confirmation', confirmation);
  const onChange = (change: ChangeView) => send('change', change);
  const onDropped = (id: string) => send('change-dropped', { id });
  const onActivity = followActivity((calls, skipped) =>
    send('activity', { entries: calls.reverse().map(activityEntryOf), skipped }),
  );
  let lastCounters = JSON.stringify(liveCounters(services));
  const countersCheck = setInterval(() => {
    const counters = JSON.stringify(liveCounters(services));
    if (counters === lastCounters) return;
    lastCounters = counters;
    stream.send('counters', counters);
  }, COUNTERS_CHECK_MS);
  services.changes.on('status', onStatus);
  services.pairing.on('changed', onPairRequest);
  services.keyRequests.on('changed', onKeyRequest);
  services.confirmations.on('changed', onConfirmation);
  services.journal.on('changed', onChange);
  services.journal.on('dropped', onDropped);
  services.activity.on('entry', onActivity);
  stream.onClose(() => {
    clearTimeout(pending);
    onActivity.stop();
    clearInterval(countersCheck);
    services.changes.off('status', onStatus);
    services.pairing.off('changed', onPairRequest);
    services.keyRequests.off('changed', onKeyRequest);
    services.confirmations.off('changed', onConfirmation);
    services.journal.off('changed', onChange);
    services.journal.off('dropped', onDropped);
    services.activity.off('entry', onActivity);
  });
}

/**
 * Sends a call at once when the feed was quiet, then at most one batch per window: the newest calls of the window
 * (oldest first) and how many older ones it left out.
 */
function followActivity(
  sendCalls: (calls: ActivityRecord[], skipped: number) => void,
): ((call: ActivityRecord) => void) & { stop(): void } {
  let calls: ActivityRecord[] = [];
  let skipped = 0;
  let windowTimer: NodeJS.Timeout | undefined;
  const endWindow = () => {
    windowTimer = undefined;
    if (calls.length === 0) return;
    flush();
  };
  const flush = () => {
    sendCalls(calls, skipped);
    calls = [];
    skipped = 0;
    windowTimer = setTimeout(endWindow, ACTIVITY_WINDOW_MS);
  };
  const onCall = (call: ActivityRecord) => {
    calls.push(call);
    if (calls.length > ACTIVITY_BATCH) {
      calls.shift();
      skipped += 1;
    }
    if (windowTimer === undefined) flush();
  };
  return Object.assign(onCall, { stop: () => clearTimeout(windowTimer) });
}
