import type { CompanionActionDefinitions, CompanionInputFieldDropdown } from '@companion-module/base';
import {
  nextTrack,
  playlistVolume,
  playPlaylist,
  roll,
  runMacro,
  setPlaylistVolume,
  stepCombat,
  stopPlaylist,
  togglePlaylist,
} from '../client/actions.ts';
import type { RelayClient } from '../client/relay-client.ts';
import type { WorldSnapshot } from '../client/world-state.ts';
import { playlistNamed, type Choices } from './world-view.ts';

type NoOptions = { options: Record<string, never> };

export type ActionsSchema = {
  roll: { options: { formula: string; flavor: string } };
  'next-turn': NoOptions;
  'previous-turn': NoOptions;
  'next-round': NoOptions;
  'previous-round': NoOptions;
  playlist: { options: { playlist: string; mode: 'play' | 'stop' | 'toggle' } };
  'playlist-next': { options: { playlist: string } };
  'playlist-volume': { options: { playlist: string; change: number } };
  macro: { options: { macroUuid: string } };
};

/** What the actions reach the world through: the relay client of the moment and the world as last seen. */
export interface ActionContext {
  client(): RelayClient;
  snapshot(): WorldSnapshot;
}

function playlistOption(choices: Choices): CompanionInputFieldDropdown<'playlist', string> {
  return {
    type: 'dropdown',
    id: 'playlist',
    label: 'Playlist',
    description: 'Pick one of the world\u2019s, or type its name',
    choices: choices.playlists,
    default: choices.playlists[0]?.id ?? '',
    allowCustom: true,
  };
}

export function actionDefinitions(context: ActionContext, choices: Choices): CompanionActionDefinitions<ActionsSchema> {
  const { client, snapshot } = context;
  /** The playlist an option names: its id when the world has it by id or name, else the option as an id. */
  const playlistOf = (option: unknown) => {
    const playlist = playlistNamed(snapshot(), option);
    return { playlist, id: playlist?.id ?? String(option ?? '').trim() };
  };
  const done = () => {};
  return {
    roll: {
      name: 'Roll dice',
      description: 'Rolls a formula and posts it to the chat log',
      options: [
        { type: 'textinput', id: 'formula', label: 'Formula', default: '1d20', minLength: 1 },
        { type: 'textinput', id: 'flavor', label: 'Flavor (optional)', default: '' },
      ],
      callback: ({ options }) =>
        roll(client(), String(options.formula ?? '').trim(), String(options.flavor ?? '').trim()).then(done),
    },
    'next-turn': { name: 'Next turn', options: [], callback: () => stepCombat(client(), 'next-turn').then(done) },
    'previous-turn': {
      name: 'Previous turn',
      options: [],
      callback: () => stepCombat(client(), 'last-turn').then(done),
    },
    'next-round': { name: 'Next round', options: [], callback: () => stepCombat(client(), 'next-round').then(done) },
    'previous-round': {
      name: 'Previous round',
      options: [],
      callback: () => stepCombat(client(), 'last-round').then(done),
    },
    playlist: {
      name: 'Playlist: play, stop or toggle',
      options: [
        playlistOption(choices),
        {
          type: 'dropdown',
          id: 'mode',
          label: 'Do',
          choices: [
            { id: 'toggle', label: 'Toggle' },
            { id: 'play', label: 'Play' },
            { id: 'stop', label: 'Stop' },
          ],
          default: 'toggle',
        },
      ],
      callback: ({ options }) => {
        const { playlist, id } = playlistOf(options.playlist);
        if (options.mode === 'play') return playPlaylist(client(), id).then(done);
        if (options.mode === 'stop') return stopPlaylist(client(), id).then(done);
        return togglePlaylist(client(), playlist, id).then(done);
      },
    },
    'playlist-next': {
      name: 'Playlist: next track',
      options: [playlistOption(choices)],
      callback: ({ options }) => nextTrack(client(), playlistOf(options.playlist).id).then(done),
    },
    'playlist-volume': {
      name: 'Playlist: volume up or down',
      description: 'Changes the volume of the sounds playing (all its sounds when none plays)',
      options: [
        playlistOption(choices),
        {
          type: 'number',
          id: 'change',
          label: 'Change (+ louder, \u2212 quieter)',
          default: 0.1,
          min: -1,
          max: 1,
          step: 0.05,
        },
      ],
      callback: ({ options }) => {
        const { playlist } = playlistOf(options.playlist);
        if (!playlist) {
          client().log.warn(`Volume: the world has no playlist "${String(options.playlist ?? '')}"`);
          return;
        }
        const volume = (playlistVolume(playlist) ?? 0.5) + (Number(options.change) || 0);
        return setPlaylistVolume(client(), playlist, volume).then(done);
      },
    },
    macro: {
      name: 'Run a macro',
      description: 'Needs the module setting "Allow macro execution" in Foundry',
      options: [
        {
          type: 'textinput',
          id: 'macroUuid',
          label: 'Macro UUID',
          description: 'Macro.\u2026 (right-click the id icon in the macro window\u2019s title bar to copy it)',
          default: '',
          minLength: 1,
        },
      ],
      callback: ({ options }) => {
        const uuid = String(options.macroUuid ?? '').trim();
        if (!uuid) {
          client().log.warn('Run a macro: no macro UUID is set');
          return;
        }
        return runMacro(client(), uuid).then(done);
      },
    },
  };
}
