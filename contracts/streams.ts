// The event streams, one entry per kind (the relay's name for a channel's subscribers): the channel the world pushes the
// kind on and the type of its push message (module-protocol.md §4.8), the type of the /ws/api frame each event goes
// out in, and whether the stream is the GM's only: it carries what the GM sees (every actor, hidden tokens and
// combatants, secret doors, any hook's arguments), which the relay cannot sort by what a user may see, so a key bound
// to a player may not open it. Shared by the relay's event hub, world link, routes and /ws/api, and by the sandbox world.

export const STREAMS = {
  roll: { channel: 'roll-events', pushType: 'roll-data', frameType: 'roll-event', gmOnly: false },
  chat: { channel: 'chat-events', pushType: 'chat-event', frameType: 'chat-event', gmOnly: false },
  hooks: { channel: 'hooks', pushType: 'hook-event', frameType: 'hook-event', gmOnly: true },
  combat: { channel: 'combat-events', pushType: 'combat-event', frameType: 'combat-event', gmOnly: true },
  actor: { channel: 'actor-events', pushType: 'actor-event', frameType: 'actor-event', gmOnly: true },
  scene: { channel: 'scene-events', pushType: 'scene-event', frameType: 'scene-event', gmOnly: true },
} as const satisfies Record<string, { channel: string; pushType: string; frameType: string; gmOnly: boolean }>;

export type StreamKind = keyof typeof STREAMS;
/** The kinds whose streams carry what the GM sees. */
export type GmOnlyStreamKind = {
  [K in StreamKind]: (typeof STREAMS)[K]['gmOnly'] extends true ? K : never;
}[StreamKind];
export type EventChannel = (typeof STREAMS)[StreamKind]['channel'];

export const STREAM_KINDS = Object.keys(STREAMS) as StreamKind[];
/** Every channel, in the order the world is told their counts. */
export const EVENT_CHANNELS: readonly EventChannel[] = STREAM_KINDS.map((kind) => STREAMS[kind].channel);
