import type {
  CompanionButtonStyleProps,
  CompanionPresetDefinitions,
  CompanionPresetSection,
  CompanionSimplePresetDefinition,
} from '@companion-module/base';
import type { TrackedActor } from './config.ts';
import { BLACK, GREEN, RED, WHITE } from './feedbacks.ts';
import type { ModuleTypes } from './types.ts';
import { hpVariable } from './variables.ts';
import type { Choices } from './world-view.ts';

type Preset = CompanionSimplePresetDefinition<ModuleTypes>;
type Step = Preset['steps'][number];
type Action = Step['down'][number];

export interface Presets {
  structure: CompanionPresetSection<ModuleTypes>[];
  presets: CompanionPresetDefinitions<ModuleTypes>;
}

const GREY = 0x333333;

function style(
  text: string,
  bgcolor = BLACK,
  size: CompanionButtonStyleProps['size'] = 'auto',
): CompanionButtonStyleProps {
  return { text, size, color: WHITE, bgcolor };
}

function pressing(...actions: Action[]): Step[] {
  return [{ down: actions, up: [] }];
}

function preset(name: string, buttonStyle: CompanionButtonStyleProps, fields: Partial<Preset> = {}): Preset {
  return { type: 'simple', name, style: buttonStyle, steps: [], feedbacks: [], ...fields };
}

function combatPresets(variable: (name: string) => string, choices: Choices, actors: readonly TrackedActor[]) {
  const presets: Record<string, Preset> = {
    'world-status': preset('World connected', style(variable('world_title'), GREY, '14'), {
      feedbacks: [{ feedbackId: 'world-connected', options: {}, style: { bgcolor: GREEN, color: WHITE } }],
    }),
    'combat-round': preset('Combat round', style(`Round\\n${variable('round')}`), {
      feedbacks: [{ feedbackId: 'combat-active', options: {}, style: { bgcolor: RED, color: WHITE } }],
    }),
    'next-turn': preset('Next turn', style(`Next turn\\n${variable('turn_name')}`), {
      steps: pressing({ actionId: 'next-turn', options: {} }),
    }),
    'previous-turn': preset('Previous turn', style(`Prev turn\\n${variable('turn_name')}`), {
      steps: pressing({ actionId: 'previous-turn', options: {} }),
    }),
    'next-round': preset('Next round', style(`Next round\\n${variable('round')}`), {
      steps: pressing({ actionId: 'next-round', options: {} }),
    }),
    'roll-d20': preset('Roll a d20', style(`d20\\n${variable('last_roll_total')}`), {
      steps: pressing({ actionId: 'roll', options: { formula: '1d20', flavor: '' } }),
    }),
  };
  for (const combatant of choices.combatants)
    presets[`turn-of-${combatant.id}`] = preset(`${combatant.label}'s turn`, style(combatant.label, GREY, '14'), {
      feedbacks: [
        {
          feedbackId: 'combatant-turn',
          options: { combatant: combatant.id },
          style: { bgcolor: 0x1e5aaa, color: WHITE },
        },
      ],
    });
  for (const actor of actors)
    presets[`hp-${actor.slug}`] = preset(
      `Hit points of ${actor.label}`,
      style(`${actor.label}\\n${variable(hpVariable(actor))}`),
      {
        feedbacks: [{ feedbackId: 'hp-colour', options: { actor: actor.uuid } }],
      },
    );
  return presets;
}

function musicPresets(variable: (name: string) => string, choices: Choices) {
  const presets: Record<string, Preset> = {
    'now-playing': preset('Now playing', style(variable('now_playing'), BLACK, '7')),
  };
  for (const { id, label } of choices.playlists) {
    const playing = { feedbackId: 'playlist-playing', options: { playlist: id }, style: { bgcolor: GREEN } } as const;
    presets[`playlist-${id}`] = preset(`${label}: play or stop`, style(label, GREY, '14'), {
      steps: pressing({ actionId: 'playlist', options: { playlist: id, mode: 'toggle' } }),
      feedbacks: [playing],
    });
    presets[`playlist-next-${id}`] = preset(`${label}: next track`, style(`${label}\\nnext`, GREY, '14'), {
      steps: pressing({ actionId: 'playlist-next', options: { playlist: id } }),
      feedbacks: [playing],
    });
    for (const [direction, change] of [
      ['up', 0.1],
      ['down', -0.1],
    ] as const)
      presets[`playlist-volume-${direction}-${id}`] = preset(
        `${label}: volume ${direction}`,
        style(`${label}\\nvol ${direction === 'up' ? '+' : '\u2212'}`, GREY, '14'),
        { steps: pressing({ actionId: 'playlist-volume', options: { playlist: id, change } }) },
      );
  }
  return presets;
}

/**
 * The two preset pages, GM combat and Music. Their buttons show this connection's variables, named by its label
 * (`$(label:round)`), so they are made again when the label, the world's playlists or combatants, or the tracked
 * actors change.
 */
export function presetDefinitions(label: string, choices: Choices, actors: readonly TrackedActor[]): Presets {
  const variable = (name: string) => `$(${label}:${name})`;
  const combat = combatPresets(variable, choices, actors);
  const music = musicPresets(variable, choices);
  return {
    structure: [
      { id: 'gm-combat', name: 'GM combat', definitions: Object.keys(combat) },
      { id: 'music', name: 'Music', definitions: Object.keys(music) },
    ],
    presets: { ...combat, ...music },
  };
}
