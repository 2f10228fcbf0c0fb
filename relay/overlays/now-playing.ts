// Now playing: every sound playing in a playlist, with its playlist's name.
import type { NowPlayingView } from '../../contracts/overlays.ts';
import type { RelayServices } from '../services.ts';
import { fieldsOf, listOf, textOf } from '../objects.ts';
import { askWorld, type OverlayViewer } from './world.ts';

export async function nowPlayingView(services: RelayServices, viewer: OverlayViewer): Promise<NowPlayingView> {
  return { playing: playingTracks(await askWorld(services, viewer, 'get-playlists')) };
}

/** The sounds playing in a `get-playlists` answer, each with its playlist's name. */
export function playingTracks(reply: Record<string, unknown>): NowPlayingView['playing'] {
  return listOf(fieldsOf(reply.data)?.playlists).flatMap((playlist) =>
    listOf(playlist.sounds)
      .filter((sound) => sound.playing === true)
      .map((sound) => ({ playlist: textOf(playlist.name), track: textOf(sound.name) })),
  );
}
