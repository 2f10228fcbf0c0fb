import type { CompanionVariableDefinitions, CompanionVariableValues } from '@companion-module/base';
import type { WorldSnapshot } from '../client/world-state.ts';
import type { TrackedActor } from './config.ts';
import { hitPointsText, nowPlaying } from './world-view.ts';

const WORLD_VARIABLES = {
  round: { name: 'Combat round' },
  turn_name: { name: 'Whose turn it is' },
  next_name: { name: 'Whose turn comes next' },
  last_roll_total: { name: 'Total of the last roll' },
  last_roll_formula: { name: 'Formula of the last roll' },
  world_title: { name: 'Title of the connected world' },
  now_playing: { name: 'Playlists playing, with their sounds' },
};

export function hpVariable(actor: TrackedActor): string {
  return `hp_${actor.slug}`;
}

export function variableDefinitions(actors: readonly TrackedActor[]): CompanionVariableDefinitions {
  const hitPoints = actors.map((actor) => [hpVariable(actor), { name: `Hit points of ${actor.label} (value/max)` }]);
  return { ...WORLD_VARIABLES, ...Object.fromEntries(hitPoints) };
}

/** Every variable's value in this snapshot; an empty string where the world has nothing to show. */
export function variableValues(snapshot: WorldSnapshot, actors: readonly TrackedActor[]): CompanionVariableValues {
  const { combat, lastRoll } = snapshot;
  const values: CompanionVariableValues = {
    round: combat?.round ?? '',
    turn_name: combat?.current ?? '',
    next_name: combat?.next ?? '',
    last_roll_total: lastRoll?.total ?? '',
    last_roll_formula: lastRoll?.formula ?? '',
    world_title: snapshot.worldConnected ? (snapshot.worldTitle ?? '') : '',
    now_playing: nowPlaying(snapshot),
  };
  for (const actor of actors) values[hpVariable(actor)] = hitPointsText(snapshot, actor);
  return values;
}

/** The values that differ from those last set. */
export function changedValues(
  next: CompanionVariableValues,
  previous: CompanionVariableValues,
): CompanionVariableValues {
  return Object.fromEntries(Object.entries(next).filter(([name, value]) => previous[name] !== value));
}
