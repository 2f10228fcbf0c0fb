import { combineRgb, type CompanionFeedbackDefinitions } from '@companion-module/base';
import type { WorldSnapshot } from '../client/world-state.ts';
import type { HealthBand } from '../client/actions.ts';
import { actorHealth, playlistNamed, type Choices } from './world-view.ts';

export type FeedbacksSchema = {
  'world-connected': { type: 'boolean'; options: Record<string, never> };
  'playlist-playing': { type: 'boolean'; options: { playlist: string } };
  'combat-active': { type: 'boolean'; options: Record<string, never> };
  'combatant-turn': { type: 'boolean'; options: { combatant: string } };
  'hp-colour': { type: 'advanced'; options: { actor: string } };
};

export type FeedbackId = keyof FeedbacksSchema;

export const WHITE = combineRgb(255, 255, 255);
export const BLACK = combineRgb(0, 0, 0);
export const GREEN = combineRgb(0, 153, 68);
export const AMBER = combineRgb(214, 120, 0);
export const RED = combineRgb(178, 24, 24);
export const BLUE = combineRgb(30, 90, 170);

export const HEALTH_COLOURS: Record<HealthBand, number> = { healthy: GREEN, bloodied: AMBER, down: RED };

/** What each feedback reads from the world: when it changes, Companion is asked to check that feedback again. */
export const FEEDBACK_INPUTS: Record<FeedbackId, (snapshot: WorldSnapshot) => unknown> = {
  'world-connected': (snapshot) => snapshot.worldConnected,
  'playlist-playing': (snapshot) => snapshot.playlists.map((playlist) => [playlist.id, playlist.playing]),
  'combat-active': (snapshot) => snapshot.combat !== undefined,
  'combatant-turn': (snapshot) => snapshot.combat?.current,
  'hp-colour': (snapshot) => snapshot.hitPoints,
};

export function feedbackDefinitions(
  snapshot: () => WorldSnapshot,
  choices: Choices,
): CompanionFeedbackDefinitions<FeedbacksSchema> {
  return {
    'world-connected': {
      type: 'boolean',
      name: 'World connected',
      description: 'A Foundry world is connected to Tabletop Relay',
      defaultStyle: { bgcolor: GREEN, color: WHITE },
      options: [],
      callback: () => snapshot().worldConnected,
    },
    'playlist-playing': {
      type: 'boolean',
      name: 'Playlist playing',
      defaultStyle: { bgcolor: GREEN, color: WHITE },
      options: [
        {
          type: 'dropdown',
          id: 'playlist',
          label: 'Playlist',
          choices: choices.playlists,
          default: choices.playlists[0]?.id ?? '',
          allowCustom: true,
        },
      ],
      callback: ({ options }) => playlistNamed(snapshot(), options.playlist)?.playing === true,
    },
    'combat-active': {
      type: 'boolean',
      name: 'Combat active',
      description: 'The world has an active combat',
      defaultStyle: { bgcolor: RED, color: WHITE },
      options: [],
      callback: () => snapshot().combat !== undefined,
    },
    'combatant-turn': {
      type: 'boolean',
      name: "Combatant's turn",
      description: 'It is this combatant\u2019s turn (by name, in any case)',
      defaultStyle: { bgcolor: BLUE, color: WHITE },
      options: [
        {
          type: 'dropdown',
          id: 'combatant',
          label: 'Combatant',
          choices: choices.combatants,
          default: choices.combatants[0]?.id ?? '',
          allowCustom: true,
        },
      ],
      callback: ({ options }) => {
        const current = snapshot().combat?.current;
        return current !== undefined && current.toLowerCase() === String(options.combatant ?? '').toLowerCase();
      },
    },
    'hp-colour': {
      type: 'advanced',
      name: 'Hit points colour',
      description: 'Background by the actor\u2019s hit points: green above half, amber at half or less, red at none',
      options: [
        {
          type: 'dropdown',
          id: 'actor',
          label: 'Tracked actor',
          choices: choices.actors,
          default: choices.actors[0]?.id ?? '',
          allowCustom: true,
        },
      ],
      callback: ({ options }) => {
        const band = actorHealth(snapshot(), options.actor);
        return band === undefined ? {} : { bgcolor: HEALTH_COLOURS[band], color: band === 'bloodied' ? BLACK : WHITE };
      },
    },
  };
}
