import type { SomeCompanionConfigField } from '@companion-module/base';
import { DECK_SCOPES } from '../client/actions.ts';
import { DEFAULT_RELAY_URL } from '../client/relay-client.ts';

/** The connection's settings Companion stores in its config (shown in its web UI). */
export type ModuleConfig = {
  relayUrl: string;
  /** The world to reach; empty lets the relay pick its one connected world. */
  clientId: string;
  /** Actor UUIDs whose hit points become variables, comma- or line-separated, each optionally `Label=UUID`. */
  trackedActors: string;
  /** With no API key, ask the relay for one through a key request the GM approves (absent in older configs: yes). */
  requestKey?: boolean;
};

/** Kept in Companion's secrets store, never in the config its web UI reports (`secret-text`, module-base 2). */
export type ModuleSecrets = {
  apiKey: string;
};

export interface TrackedActor {
  uuid: string;
  /** The variable's name after `hp_`: the label's, or the UUID's id, in lower case with `_` for anything else. */
  slug: string;
  label: string;
}

export function configFields(): SomeCompanionConfigField[] {
  return [
    {
      type: 'static-text',
      id: 'intro',
      label: 'Tabletop Relay',
      value:
        'Runs on the GM\u2019s computer next to Foundry. Leave the API key empty to ask it for one (approve the code the ' +
        'status shows in its settings), or make one there (API keys \u2192 New API key) with the scopes ' +
        `${DECK_SCOPES.join(', ')} and paste it below.`,
      width: 12,
    },
    {
      type: 'textinput',
      id: 'relayUrl',
      label: 'Relay URL',
      description: 'From another computer, use the relay\u2019s LAN address (LAN access must be on in its settings)',
      default: DEFAULT_RELAY_URL,
      regex: '/^https?:\\/\\/\\S+$/',
      width: 8,
    },
    { type: 'secret-text', id: 'apiKey', label: 'API key', description: 'Starts with ttr_', width: 8 },
    {
      type: 'checkbox',
      id: 'requestKey',
      label: 'Without a key, ask Tabletop Relay for one',
      description: 'The connection\u2019s status shows a code; approve it in Tabletop Relay and the key is saved here',
      default: true,
      width: 8,
    },
    {
      type: 'textinput',
      id: 'clientId',
      label: 'World client id (optional)',
      description: 'fvtt_\u2026 from the relay\u2019s Status page; leave empty while one world is connected',
      default: '',
      width: 8,
    },
    {
      type: 'textinput',
      id: 'trackedActors',
      label: 'Tracked actors (optional)',
      description: 'Actor UUIDs whose hit points to show, one per line or comma-separated, e.g. Goblin=Actor.abc123',
      default: '',
      multiline: true,
      width: 12,
    },
  ];
}

function slugOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The tracked actors of the config, each once, in the order given. */
export function trackedActors(config: Pick<ModuleConfig, 'trackedActors'>): TrackedActor[] {
  const actors = new Map<string, TrackedActor>();
  for (const entry of (config.trackedActors ?? '').split(/[,\n]/)) {
    const [first = '', second] = entry.split('=').map((part) => part.trim());
    const uuid = second ?? first;
    const label = second === undefined ? uuid : first;
    const slug = slugOf(second === undefined ? uuid.replace(/^Actor\./, '') : label);
    if (uuid && slug && !actors.has(uuid)) actors.set(uuid, { uuid, slug, label });
  }
  return [...actors.values()];
}
