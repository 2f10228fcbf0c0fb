import type { CallResult, RelayClient } from './relay-client.ts';
import type { PlaylistView } from './world-state.ts';

export { DECK_SCOPES } from '../../contracts/integration-packages.ts';

export interface RollAnswer {
  data?: { roll?: { total?: number; formula?: string } };
}

/** Rolls a formula into the chat log, as a button does. */
export function roll(client: RelayClient, formula: string, flavor?: string): Promise<CallResult<RollAnswer>> {
  return client.call<RollAnswer>('POST', '/roll', { formula, flavor: flavor || undefined, createChatMessage: true });
}

export type CombatStep = 'next-turn' | 'last-turn' | 'next-round' | 'last-round';

export interface CombatStepAnswer {
  currentRound?: number;
  currentTurn?: number;
}

/** Moves the active combat one turn or round. */
export function stepCombat(client: RelayClient, step: CombatStep): Promise<CallResult<CombatStepAnswer>> {
  return client.call<CombatStepAnswer>('POST', `/${step}`, {});
}

export function playPlaylist(client: RelayClient, playlistId: string): Promise<CallResult> {
  return client.call('POST', '/playlist/play', { playlistId });
}

export function stopPlaylist(client: RelayClient, playlistId: string): Promise<CallResult> {
  return client.call('POST', '/playlist/stop', { playlistId });
}

/** Plays the playlist when it is stopped and stops it when it plays, as the cached state says. */
export function togglePlaylist(client: RelayClient, playlist: PlaylistView | undefined, playlistId: string) {
  return playlist?.playing ? stopPlaylist(client, playlistId) : playPlaylist(client, playlistId);
}

export function nextTrack(client: RelayClient, playlistId: string): Promise<CallResult> {
  return client.call('POST', '/playlist/next', { playlistId });
}

/** A playlist's volume is its sounds' (Foundry's Playlist has none): the one playing, or all when none plays. */
export function playlistVolume(playlist: PlaylistView | undefined): number | undefined {
  const sounds = playlist?.sounds.filter((sound) => sound.playing) ?? [];
  const shown = sounds.length > 0 ? sounds : (playlist?.sounds ?? []);
  return shown[0]?.volume;
}

/** Sets the volume (0 to 1) of the playlist's playing sounds, or of all of them when none plays. */
export async function setPlaylistVolume(
  client: RelayClient,
  playlist: PlaylistView,
  volume: number,
): Promise<CallResult> {
  const clamped = Math.min(1, Math.max(0, Math.round(volume * 100) / 100));
  const playing = playlist.sounds.filter((sound) => sound.playing);
  const sounds = playing.length > 0 ? playing : playlist.sounds;
  const answers = await Promise.all(
    sounds.map((sound) =>
      client.call('POST', '/playlist/volume', { playlistId: playlist.id, soundId: sound.id, volume: clamped }),
    ),
  );
  return answers.find((answer) => !answer.ok) ?? answers[0] ?? { ok: true, status: 200, body: {} };
}

/** Runs a macro by its UUID (Macro.<id>); the world's module must allow macro execution. */
export function runMacro(client: RelayClient, macroUuid: string): Promise<CallResult> {
  return client.call('POST', `/macro/${encodeURIComponent(macroUuid)}/execute`, {});
}

export type HealthBand = 'healthy' | 'bloodied' | 'down';

/** The players' view of hit points: above half is healthy, half or less bloodied, none down. */
export function healthBand(value: number, max: number): HealthBand {
  if (value <= 0) return 'down';
  return max > 0 && value * 2 <= max ? 'bloodied' : 'healthy';
}
