import { z } from 'zod';
import { flag, number, text } from '../routing/parameters.ts';
import { worldRoute, type Route } from '../routing/route.ts';
import { GM_ONLY_IN_WORLD } from '../routing/player-view.ts';
import type { NotUndoable } from '../journal/changes.ts';

const playlist = {
  playlistId: text().optional().describe('Playlist id'),
  playlistName: text().optional().describe('Playlist name (case-insensitive)'),
};
const sound = {
  soundId: text().optional().describe('Sound id within the playlist'),
  soundName: text().optional().describe('Sound name (case-insensitive)'),
};

function identified<T extends { playlistId?: string; playlistName?: string }>(parameters: T): boolean {
  return parameters.playlistId !== undefined || parameters.playlistName !== undefined;
}
const playlistRequired = { error: "Either 'playlistId' or 'playlistName' is required" };

const scope = { scope: 'playlist:control' } as const;

/** What the table heard cannot be taken back: play, stop or set the volume again instead. */
const PLAYBACK: NotUndoable = {
  notUndoable: 'playback: what the table heard cannot be taken back; play, stop or set the volume again instead',
};

export const playlistRoutes: Route[] = [
  worldRoute({
    method: 'GET',
    path: '/playlists',
    summary: 'All playlists with their sounds',
    access: scope,
    playerView: {
      refused:
        "lists the GM's soundboard, every playlist and sound whatever user the world is asked for; only a GM may play them",
    },
    parameters: z.object({}),
    operation: 'get-playlists',
  }),
  worldRoute({
    method: 'POST',
    path: '/playlist/play',
    summary: 'Play a playlist, or one sound of it',
    access: scope,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object({ ...playlist, ...sound }).refine(identified, playlistRequired),
    operation: 'playlist-play',
    changes: PLAYBACK,
  }),
  worldRoute({
    method: 'POST',
    path: '/playlist/stop',
    idempotent: true,
    summary: 'Stop a playlist',
    access: scope,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object(playlist).refine(identified, playlistRequired),
    operation: 'playlist-stop',
    changes: PLAYBACK,
  }),
  worldRoute({
    method: 'POST',
    path: '/playlist/next',
    summary: 'Skip to the next sound of a playlist',
    access: scope,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object(playlist).refine(identified, playlistRequired),
    operation: 'playlist-next',
    changes: PLAYBACK,
  }),
  worldRoute({
    method: 'POST',
    path: '/playlist/volume',
    idempotent: true,
    summary: 'Set the volume of a playlist or of one of its sounds',
    access: scope,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z
      .object({
        ...playlist,
        ...sound,
        volume: number({ min: 0, max: 1 }).describe('0.0 (silent) to 1.0 (full)'),
      })
      .refine(identified, playlistRequired),
    operation: 'playlist-volume',
    changes: PLAYBACK,
  }),
  worldRoute({
    method: 'POST',
    path: '/stop-sound',
    idempotent: true,
    summary: 'Stop playing sounds: those with this source path, or all',
    access: scope,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object({ src: text().optional().describe('Audio file path; omit to stop every sound') }),
    operation: 'stop-sound',
    changes: PLAYBACK,
  }),
  worldRoute({
    method: 'POST',
    path: '/play-sound',
    summary: 'Play a sound once for every client of the world, outside any playlist',
    access: scope,
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object({
      src: text().describe('Audio file path, e.g. sounds/door.ogg'),
      volume: number({ min: 0, max: 1 }).default(0.5).describe('0.0 (silent) to 1.0 (full)'),
      loop: flag().default(false).describe('Keep playing until POST /stop-sound'),
    }),
    operation: 'play-sound',
    changes: PLAYBACK,
  }),
];
