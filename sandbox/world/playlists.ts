// Foundry's Playlist playback methods and the GM client's `game.audio.playing` map that follows them.
import type { WorldDocument } from './document.ts';
import type { Game, PlayingSound } from './game.ts';
import { createRandomSource, shuffled } from './random.ts';

export const PLAYLIST_MODES = { DISABLED: -1, SEQUENTIAL: 0, SHUFFLE: 1, SIMULTANEOUS: 2 } as const;

function soundsOf(playlist: WorldDocument): WorldDocument[] {
  return playlist.collection('PlaylistSound').contents;
}

/** `playlist.playbackOrder`: sound ids by the sorting mode, shuffled by the playlist's seed in shuffle mode. */
export function playbackOrder(playlist: WorldDocument): string[] {
  const sorted = soundsOf(playlist).sort((a, b) =>
    playlist.source.sorting === 'a'
      ? a.name.localeCompare(b.name)
      : (a.source.sort as number) - (b.source.sort as number),
  );
  const ids = sorted.map((sound) => sound.id);
  if (playlist.source.mode !== PLAYLIST_MODES.SHUFFLE) return ids;
  return shuffled(ids, createRandomSource(Number(playlist.source.seed) || 0));
}

export function playAll(game: Game, playlist: WorldDocument): void {
  const order = playbackOrder(playlist);
  if (order.length === 0) return;
  const mode = playlist.source.mode;
  if (mode === PLAYLIST_MODES.DISABLED) {
    game.updateDocument(playlist, { playing: false });
    return;
  }
  const simultaneous = mode === PLAYLIST_MODES.SIMULTANEOUS;
  game.updateDocument(playlist, {
    playing: true,
    sounds: order.map((id, i) => ({ _id: id, playing: simultaneous || i === 0 })),
  });
}

export function playSound(game: Game, playlist: WorldDocument, sound: WorldDocument): void {
  const exclusive =
    playlist.source.mode === PLAYLIST_MODES.SEQUENTIAL || playlist.source.mode === PLAYLIST_MODES.SHUFFLE;
  const sounds = exclusive
    ? soundsOf(playlist).map((other) => ({ _id: other.id, playing: other.id === sound.id }))
    : [{ _id: sound.id, playing: true }];
  game.updateDocument(playlist, { playing: true, sounds });
}

export function stopAll(game: Game, playlist: WorldDocument): void {
  game.updateDocument(playlist, {
    playing: false,
    sounds: soundsOf(playlist).map((sound) => ({ _id: sound.id, playing: false, pausedTime: null })),
  });
}

/** `playNext(undefined, {direction: 1})`: only sequential and shuffle playlists advance; a stopped playlist stays silent. */
export function playNext(game: Game, playlist: WorldDocument): void {
  const mode = playlist.source.mode;
  if (mode !== PLAYLIST_MODES.SEQUENTIAL && mode !== PLAYLIST_MODES.SHUFFLE) return;
  const order = playbackOrder(playlist);
  const current = soundsOf(playlist).find((sound) => sound.source.playing === true)?.id ?? null;
  const index = current === null ? -1 : order.indexOf(current);
  const next = playlist.source.playing === true ? order[index === order.length - 1 ? 0 : index + 1] : undefined;
  game.updateDocument(playlist, {
    sounds: soundsOf(playlist).map((sound) => ({ _id: sound.id, playing: sound.id === next, pausedTime: null })),
  });
}

/** A stable pseudo-duration per file, so one-shot sounds stop on their own. */
function durationOf(src: string): number {
  let hash = 0;
  for (const char of src) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return 20_000 + (hash % 160) * 1000;
}

export function startSound(game: Game, id: string, src: string, volume: number, loop: boolean): void {
  const sound: PlayingSound = { id, src, volume, loop, endsAt: loop ? null : game.now() + durationOf(src) };
  game.playingSounds.set(id, sound);
}

/** `game.audio.playing`, without the one-shot sounds that have finished. */
export function playingSounds(game: Game): PlayingSound[] {
  const now = game.now();
  for (const [id, sound] of game.playingSounds)
    if (sound.endsAt !== null && sound.endsAt <= now) game.playingSounds.delete(id);
  return [...game.playingSounds.values()];
}

/** `PlaylistSound#sync`: a sound document that starts or stops playing starts or stops its audio. */
export function installPlaylistAudio(game: Game): void {
  const sync = (sound: WorldDocument) => {
    if (sound.source.playing === true && !game.playingSounds.has(sound.uuid)) {
      startSound(
        game,
        sound.uuid,
        sound.source.path as string,
        sound.source.volume as number,
        sound.source.repeat === true,
      );
    } else if (sound.source.playing !== true) {
      game.playingSounds.delete(sound.uuid);
    }
    const playing = game.playingSounds.get(sound.uuid);
    if (playing) playing.volume = sound.source.volume as number;
  };
  game.hooks.on('updatePlaylistSound', (sound) => sync(sound as WorldDocument));
  game.hooks.on('deletePlaylist', (playlist) => {
    for (const sound of soundsOf(playlist as WorldDocument)) game.playingSounds.delete(sound.uuid);
  });
}
