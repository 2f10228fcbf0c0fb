import { healthBand, type HealthBand } from '../client/actions.ts';
import type { PlaylistView, WorldSnapshot } from '../client/world-state.ts';
import type { TrackedActor } from './config.ts';

/** A playlist named in an option: by its id, or by its name in any case. */
export function playlistNamed(snapshot: WorldSnapshot, idOrName: unknown): PlaylistView | undefined {
  const wanted = String(idOrName ?? '').trim();
  if (!wanted) return undefined;
  return (
    snapshot.playlists.find((playlist) => playlist.id === wanted) ??
    snapshot.playlists.find((playlist) => playlist.name.toLowerCase() === wanted.toLowerCase())
  );
}

/** What plays, as one line: each playing playlist with its playing sounds. */
export function nowPlaying(snapshot: WorldSnapshot): string {
  return snapshot.playlists
    .filter((playlist) => playlist.playing)
    .map((playlist) => {
      const sounds = playlist.sounds.filter((sound) => sound.playing).map((sound) => sound.name);
      return sounds.length > 0 ? `${playlist.name}: ${sounds.join(', ')}` : playlist.name;
    })
    .join(' \u00b7 ');
}

/** The actor's health band (core's healthBand); undefined while its hit points are unknown. */
export function actorHealth(snapshot: WorldSnapshot, actorUuid: unknown): HealthBand | undefined {
  const hp = snapshot.hitPoints[String(actorUuid ?? '')];
  return hp ? healthBand(hp.value, hp.max) : undefined;
}

export function hitPointsText(snapshot: WorldSnapshot, actor: TrackedActor): string {
  const hp = snapshot.hitPoints[actor.uuid];
  return hp ? `${hp.value}/${hp.max}` : '';
}

/** The choices the actions' and feedbacks' dropdowns offer: they change with the world. */
export interface Choices {
  playlists: { id: string; label: string }[];
  combatants: { id: string; label: string }[];
  actors: { id: string; label: string }[];
}

export function choicesOf(snapshot: WorldSnapshot, actors: readonly TrackedActor[]): Choices {
  const names = [...new Set((snapshot.combat?.combatants ?? []).map((combatant) => combatant.name))];
  return {
    playlists: snapshot.playlists.map((playlist) => ({ id: playlist.id, label: playlist.name })),
    combatants: names.map((name) => ({ id: name, label: name })),
    actors: actors.map((actor) => ({ id: actor.uuid, label: actor.label })),
  };
}
