// get-playlists, playlist-play/stop/next/volume, stop-sound, play-sound (module-operations.md §4).
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import type { WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import { assertGM } from '../world/permissions.ts';
import { playAll, playingSounds, playNext, playSound, startSound, stopAll } from '../world/playlists.ts';
import { reply, withUser, type OperationHandler, type OperationTable } from './context.ts';

export function serializePlaylist(playlist: WorldDocument) {
  const source = playlist.source;
  return {
    id: playlist.id,
    name: playlist.name,
    description: source.description || '',
    playing: source.playing === true,
    mode: source.mode,
    fade: source.fade ?? null,
    folder: playlist.folderId || null,
    sorting: source.sorting,
    sounds: playlist.collection('PlaylistSound').contents.map((sound) => ({
      id: sound.id,
      name: sound.name,
      path: sound.source.path,
      playing: sound.source.playing === true,
      volume: sound.source.volume,
      repeat: sound.source.repeat === true,
      fade: sound.source.fade ?? null,
    })),
  };
}

function resolvePlaylist(game: Game, request: WorldRequest): WorldDocument {
  const { playlistId, playlistName } = request as { playlistId?: string; playlistName?: string };
  if (!playlistId && !playlistName) throw new Error('playlistId or playlistName is required');
  const playlist = playlistId
    ? game.playlists.get(playlistId)
    : game.playlists.find((candidate) => candidate.name.toLowerCase() === playlistName!.toLowerCase());
  if (!playlist) throw new Error(`Playlist not found: ${playlistId || playlistName}`);
  return playlist;
}

/** null means "the whole playlist". */
function resolveSound(playlist: WorldDocument, request: WorldRequest): WorldDocument | null {
  const { soundId, soundName } = request as { soundId?: string; soundName?: string };
  if (!soundId && !soundName) return null;
  const sounds = playlist.collection('PlaylistSound');
  const sound = soundId
    ? sounds.get(soundId)
    : sounds.find((candidate) => candidate.name.toLowerCase() === soundName!.toLowerCase());
  if (!sound) throw new Error(`Sound not found: ${soundId || soundName}`);
  return sound;
}

/** A GM-only playlist action replying with the playlist as it is after the change. */
function playlistAction(act: (game: Game, playlist: WorldDocument, request: WorldRequest) => void): OperationHandler {
  return withUser({}, (request, { game }, user) => {
    if (user) assertGM(user, 'control playlists');
    const playlist = resolvePlaylist(game, request);
    act(game, playlist, request);
    return reply(request, { data: { playlist: serializePlaylist(playlist) } });
  });
}

export const playlistOperations: OperationTable = {
  'get-playlists': withUser({}, (request, { game }) =>
    reply(request, { data: { playlists: game.playlists.contents.map(serializePlaylist) } }),
  ),

  'playlist-play': playlistAction((game, playlist, request) => {
    const sound = resolveSound(playlist, request);
    if (sound) playSound(game, playlist, sound);
    else playAll(game, playlist);
  }),

  'playlist-stop': playlistAction((game, playlist) => stopAll(game, playlist)),

  'playlist-next': playlistAction((game, playlist) => playNext(game, playlist)),

  // The Playlist schema has no volume field, so the playlist-level update changes nothing.
  'playlist-volume': playlistAction((game, playlist, request) => {
    const sound = resolveSound(playlist, request);
    const volume = request.volume;
    if (typeof volume !== 'number' || volume < 0 || volume > 1)
      throw new Error('volume must be a number between 0 and 1');
    if (sound) game.updateDocument(sound, { volume });
  }),

  'stop-sound': withUser({}, (request, { game }, user) => {
    if (user) assertGM(user, 'stop sounds');
    const src = request.src as string | undefined;
    let stopped = 0;
    for (const sound of playingSounds(game)) {
      if (src && sound.src !== src) continue;
      game.playingSounds.delete(sound.id);
      stopped++;
    }
    return reply(request, { data: { stopped, src: src || null } });
  }),

  'play-sound': withUser({}, (request, { game }, user) => {
    if (user) assertGM(user, 'play sounds');
    const src = request.src as string | undefined;
    if (!src) throw new Error('src is required');
    const volume = (request.volume as number | undefined) ?? 0.5;
    const loop = (request.loop as boolean | undefined) ?? false;
    startSound(game, `AudioHelper.${game.newId()}`, src, volume, loop);
    return reply(request, { data: { src, volume, loop } });
  }),
};
