import type { ApiKeyRecord } from '../auth/api-keys.ts';
import { HttpError } from '../errors.ts';
import { isUndoable, type WorldChanges } from '../journal/changes.ts';
import { dryRun, journaledCall, shortened, type RecordedCall } from '../journal/journaled-call.ts';
import type { RelayServices } from '../services.ts';
import type { WorldReply } from '../tabletop/pending-requests.ts';
import type { WorldConnection } from '../tabletop/world-connection.ts';
import { worldDocumentsOf, type Fields } from './call.ts';
import type { Caller, Route, WorldRoute } from './route.ts';

/**
 * Whether the call is a dry run: `X-Dry-Run` over HTTP, `dryRun` over /ws/api. Anything but a clear yes or no is
 * refused, so that a misspelt dry run is never taken for a real call.
 */
export function dryRunOf(value: unknown, route: Route): boolean {
  if (value === undefined || value === false || value === '' || value === '0' || value === 'false') return false;
  if (value !== true && value !== '1' && value !== 'true')
    throw new HttpError(400, "'X-Dry-Run' (dryRun over /ws/api) must be 1 or true for a dry run, 0 or false otherwise");
  if (route.method !== 'GET' && route.kind !== 'world')
    throw new HttpError(
      400,
      `${route.method} ${route.path} cannot be tried first: it changes the relay's own state, not a world; send it without a dry run`,
    );
  return true;
}

/**
 * A call of a writing route, once it was let in and its parameters checked: a dry run answers what it would do; a key
 * that asks before changes waits for the GM; then the call goes to the world inside the change journal.
 */
export async function changeWorld(
  route: WorldRoute & { changes: WorldChanges },
  parameters: Fields,
  caller: Caller & { key: ApiKeyRecord },
  world: WorldConnection,
  services: RelayServices,
  options: { dryRun: boolean; send: () => Promise<WorldReply> },
): Promise<WorldReply | { dryRun: object }> {
  const call = recordedCall(route, parameters, caller, world);
  if (options.dryRun)
    return { dryRun: await dryRun(route.changes, call, worldDocumentsOf(world, services, caller.userId)) };
  if (caller.key.askBeforeChanges) await holdForGm(route.changes, call, caller.key, world, services);
  const recorded = isUndoable(route.changes) || route.changes.recorded === true;
  if (!recorded || !services.settings.get().journalChanges) return options.send();
  return journaledCall(services.journal, route.changes, call, worldDocumentsOf(world, services), options.send);
}

function recordedCall(
  route: WorldRoute,
  parameters: Fields,
  caller: Caller & { key: ApiKeyRecord },
  world: WorldConnection,
) {
  const { worldTitle } = world.metadata;
  const call: RecordedCall = {
    clientId: world.clientId,
    ...(worldTitle ? { worldTitle } : {}),
    by: { keyId: caller.key.id, name: caller.key.name },
    ...(caller.userId !== undefined ? { userId: caller.userId } : {}),
    method: route.method,
    path: route.path,
    summary: route.summary,
    parameters,
  };
  return call;
}

/** Holds the change on a card for the GM, with what it would do where the relay can tell; throws 403 or 408. */
async function holdForGm(
  changes: WorldChanges,
  call: RecordedCall,
  key: ApiKeyRecord,
  world: WorldConnection,
  services: RelayServices,
): Promise<void> {
  const preview = await dryRun(changes, call, worldDocumentsOf(world, services)).catch(() => undefined);
  const { parameters, by: _by, ...shown } = call;
  await services.confirmations.hold({
    ...shown,
    keyId: key.id,
    keyName: key.name,
    asked: shortened(parameters) as Fields,
    ...(preview?.changes ? { changes: preview.changes } : {}),
    ...(isUndoable(changes) ? {} : { notUndoable: changes.notUndoable }),
  });
}
