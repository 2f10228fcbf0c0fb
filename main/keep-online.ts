// The tray's "Keep <world> online" switch. Switching a keeper on needs the world's Foundry address and the keeper's
// Foundry user and password, which only the settings can take: without them the switch opens the settings there.
import type { Relay } from '../relay/relay.ts';

/** The settings UI's place for a world's keeper: the Status page opens its form. */
export function keeperPage(clientId: string): string {
  return `status/keeper/${encodeURIComponent(clientId)}`;
}

export function keepOnline(
  relay: Pick<Relay, 'services'>,
  clientId: string,
  on: boolean,
  openSettings: (page: string) => void,
  logger: { error(message: string, error?: unknown): void },
): void {
  const { keepers, knownWorlds } = relay.services;
  if (!keepers) return;
  const keeper = keepers.view(clientId);
  if (on && (!knownWorlds.get(clientId)?.foundryUrl || !keeper.username || !keeper.passwordSet)) {
    openSettings(keeperPage(clientId));
    return;
  }
  try {
    keepers.configure(clientId, { enabled: on });
  } catch (error) {
    logger.error(`Could not switch the keeper of world ${clientId} ${on ? 'on' : 'off'}`, error);
    openSettings(keeperPage(clientId));
  }
}
