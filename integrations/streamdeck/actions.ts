import streamDeck, {
  SingletonAction,
  type DialDownEvent,
  type DialRotateEvent,
  type DidReceiveSettingsEvent,
  type KeyDownEvent,
  type SendToPluginEvent,
  type WillAppearEvent,
  type WillDisappearEvent,
} from '@elgato/streamdeck';
import {
  nextTrack,
  playlistVolume,
  roll,
  runMacro,
  setPlaylistVolume,
  stepCombat,
  togglePlaylist,
  type CombatStep,
  type WorldSnapshot,
} from '../client/index.ts';
import type { Deck, KeyDrawer, KeyView } from './deck.ts';
import { COLOURS, glyphImage, hpImage, statusImage } from './images.ts';

export const PLUGIN_UUID = 'org.tabletoprelay.deck';

/** How long a roll's total stays on its key. */
const ROLL_TOTAL_MS = 3_000;
/** One dial tick moves the volume this much. */
const VOLUME_STEP = 0.05;
const NAME_LENGTH = 10;

type Settings = Record<string, string | boolean | undefined>;
type InspectorRequest = { request?: string };

function text(settings: Record<string, unknown>, name: string): string {
  const value = settings[name];
  return typeof value === 'string' ? value.trim() : '';
}

function short(name: string, length = NAME_LENGTH): string {
  return name.length > length ? `${name.slice(0, length - 1)}…` : name;
}

/** One action kind: it registers its keys with the deck, which draws them from the world state. */
abstract class DeckAction extends SingletonAction<Settings> implements KeyDrawer {
  override readonly manifestId: string;
  protected readonly deck: Deck;

  constructor(deck: Deck, name: string) {
    super();
    this.deck = deck;
    this.manifestId = `${PLUGIN_UUID}.${name}`;
  }

  abstract view(settings: Record<string, unknown>, snapshot: WorldSnapshot): KeyView;

  /** Called with the key's settings whenever it appears or they change. */
  protected settled(_settings: Record<string, unknown>): void {}

  override onWillAppear(event: WillAppearEvent<Settings>): void {
    this.settled(event.payload.settings);
    this.deck.appear(event.action, event.payload.settings, this);
  }

  override onWillDisappear(event: WillDisappearEvent<Settings>): void {
    this.deck.disappear(event.action.id);
  }

  override onDidReceiveSettings(event: DidReceiveSettingsEvent<Settings>): void {
    this.settled(event.payload.settings);
    this.deck.settingsChanged(event.action, event.payload.settings, this);
  }

  /** The property inspector asks for the world's playlists, to offer them by name. */
  override async onSendToPlugin(event: SendToPluginEvent<InspectorRequest, Settings>): Promise<void> {
    if (event.payload.request !== 'playlists') return;
    const playlists = this.deck.snapshot.playlists.map(({ id, name }) => ({ id, name }));
    await streamDeck.ui.sendToPropertyInspector({ playlists });
  }
}

/** Rolls its formula into the chat log; the key shows the total for 3 s. */
export class RollAction extends DeckAction {
  constructor(deck: Deck) {
    super(deck, 'roll');
  }

  view(settings: Record<string, unknown>): KeyView {
    return { title: short(text(settings, 'formula') || 'Set a\nformula', 12) };
  }

  override async onKeyDown(event: KeyDownEvent<Settings>): Promise<void> {
    if (!this.deck.readyForPress(event.action)) return;
    const formula = text(event.payload.settings, 'formula');
    if (!formula) {
      await event.action.showAlert();
      return;
    }
    const answer = await roll(this.deck.client, formula, text(event.payload.settings, 'flavor'));
    if (!answer.ok) return this.deck.failed(event.action, answer);
    const total = answer.body.data?.roll?.total;
    this.deck.flash(event.action, { title: total === undefined ? '?' : String(total) }, ROLL_TOTAL_MS);
  }
}

function combatTitle(snapshot: WorldSnapshot): string {
  const combat = snapshot.combat;
  if (!combat) return 'No\ncombat';
  return `Round ${combat.round}\n${short(combat.current ?? '—')}`;
}

/** Next or previous turn on a key; on a dial, rotating moves turns and pressing starts the next round. */
class TurnAction extends DeckAction {
  readonly #step: CombatStep;

  constructor(deck: Deck, name: 'next-turn' | 'previous-turn') {
    super(deck, name);
    this.#step = name === 'next-turn' ? 'next-turn' : 'last-turn';
  }

  view(_settings: Record<string, unknown>, snapshot: WorldSnapshot): KeyView {
    const combat = snapshot.combat;
    return {
      title: combatTitle(snapshot),
      feedback: {
        title: combat ? `Round ${combat.round}` : 'Combat',
        value: combat ? short(combat.current ?? '—', 14) : 'None',
      },
    };
  }

  override async onKeyDown(event: KeyDownEvent<Settings>): Promise<void> {
    if (!this.deck.readyForPress(event.action)) return;
    this.deck.failed(event.action, await stepCombat(this.deck.client, this.#step));
  }

  override async onDialRotate(event: DialRotateEvent<Settings>): Promise<void> {
    if (!this.deck.readyForPress(event.action)) return;
    const step: CombatStep = event.payload.ticks > 0 ? 'next-turn' : 'last-turn';
    this.deck.failed(event.action, await stepCombat(this.deck.client, step));
  }

  override async onDialDown(event: DialDownEvent<Settings>): Promise<void> {
    if (!this.deck.readyForPress(event.action)) return;
    this.deck.failed(event.action, await stepCombat(this.deck.client, 'next-round'));
  }
}

export class NextTurnAction extends TurnAction {
  constructor(deck: Deck) {
    super(deck, 'next-turn');
  }
}

export class PreviousTurnAction extends TurnAction {
  constructor(deck: Deck) {
    super(deck, 'previous-turn');
  }
}

/** An actor's hit points as a coloured bar, or on the players' deck as healthy, bloodied or down. Display only. */
export class HitPointsAction extends DeckAction {
  constructor(deck: Deck) {
    super(deck, 'hp');
  }

  protected override settled(settings: Record<string, unknown>): void {
    const actorUuid = text(settings, 'actorUuid');
    if (actorUuid) this.deck.watcher.track(actorUuid);
  }

  view(settings: Record<string, unknown>, snapshot: WorldSnapshot): KeyView {
    const actorUuid = text(settings, 'actorUuid');
    if (!actorUuid) return { title: 'Set an\nactor', image: glyphImage('hp') };
    const hitPoints = snapshot.hitPoints[actorUuid];
    if (!hitPoints) return { title: '…', image: glyphImage('hp') };
    const label = text(settings, 'label');
    return { title: '', image: hpImage(label, hitPoints.value, hitPoints.max, settings.playersDeck === true) };
  }
}

function playlistIn(snapshot: WorldSnapshot, settings: Record<string, unknown>) {
  const playlistId = text(settings, 'playlistId');
  return { playlistId, playlist: snapshot.playlists.find((candidate) => candidate.id === playlistId) };
}

/** Plays or stops a playlist; its two states show which. */
export class PlaylistAction extends DeckAction {
  constructor(deck: Deck) {
    super(deck, 'playlist');
  }

  view(settings: Record<string, unknown>, snapshot: WorldSnapshot): KeyView {
    const { playlistId, playlist } = playlistIn(snapshot, settings);
    if (!playlistId) return { title: 'Pick a\nplaylist', state: 0 };
    return { title: short(playlist?.name ?? '…', 12), state: playlist?.playing ? 1 : 0 };
  }

  override async onKeyDown(event: KeyDownEvent<Settings>): Promise<void> {
    if (!this.deck.readyForPress(event.action)) return;
    const { playlistId, playlist } = playlistIn(this.deck.snapshot, event.payload.settings);
    if (!playlistId) return void (await event.action.showAlert());
    this.deck.failed(event.action, await togglePlaylist(this.deck.client, playlist, playlistId));
  }
}

/** Skips to the playlist's next track; the key names the one playing. */
export class PlaylistNextAction extends DeckAction {
  constructor(deck: Deck) {
    super(deck, 'playlist-next');
  }

  view(settings: Record<string, unknown>, snapshot: WorldSnapshot): KeyView {
    const { playlistId, playlist } = playlistIn(snapshot, settings);
    if (!playlistId) return { title: 'Pick a\nplaylist' };
    const playing = playlist?.sounds.find((sound) => sound.playing);
    return { title: playing ? short(playing.name, 12) : 'Next' };
  }

  override async onKeyDown(event: KeyDownEvent<Settings>): Promise<void> {
    if (!this.deck.readyForPress(event.action)) return;
    const { playlistId } = playlistIn(this.deck.snapshot, event.payload.settings);
    if (!playlistId) return void (await event.action.showAlert());
    this.deck.failed(event.action, await nextTrack(this.deck.client, playlistId));
  }
}

/** A dial: rotating sets the playlist's volume, pressing plays or stops it; the touch strip shows both. */
export class PlaylistVolumeAction extends DeckAction {
  /** The volume each dial is turning towards, until the world has it. */
  readonly #target = new Map<string, number>();

  constructor(deck: Deck) {
    super(deck, 'playlist-volume');
  }

  view(settings: Record<string, unknown>, snapshot: WorldSnapshot): KeyView {
    const { playlistId, playlist } = playlistIn(snapshot, settings);
    if (!playlistId) return { title: 'Pick a playlist', feedback: { title: 'Volume', value: 'Pick a playlist' } };
    const percent = Math.round((playlistVolume(playlist) ?? 0) * 100);
    return {
      title: short(playlist?.name ?? '…', 14),
      feedback: {
        title: short(playlist?.name ?? '…', 16),
        value: playlist?.playing ? `${percent}%` : `${percent}% · stopped`,
        indicator: { value: percent },
      },
    };
  }

  override async onDialRotate(event: DialRotateEvent<Settings>): Promise<void> {
    if (!this.deck.readyForPress(event.action)) return;
    const { playlist } = playlistIn(this.deck.snapshot, event.payload.settings);
    if (!playlist) return void (await event.action.showAlert());
    const from = this.#target.get(event.action.id) ?? playlistVolume(playlist) ?? 0.5;
    const volume = Math.min(1, Math.max(0, from + event.payload.ticks * VOLUME_STEP));
    this.#target.set(event.action.id, volume);
    const answer = await setPlaylistVolume(this.deck.client, playlist, volume);
    if (this.#target.get(event.action.id) === volume) this.#target.delete(event.action.id);
    this.deck.failed(event.action, answer);
  }

  override async onDialDown(event: DialDownEvent<Settings>): Promise<void> {
    if (!this.deck.readyForPress(event.action)) return;
    const { playlistId, playlist } = playlistIn(this.deck.snapshot, event.payload.settings);
    if (!playlistId) return void (await event.action.showAlert());
    this.deck.failed(event.action, await togglePlaylist(this.deck.client, playlist, playlistId));
  }
}

/** Runs a macro by its UUID; a macro with `game.togglePause()` makes a pause key, since the module has no pause call. */
export class MacroAction extends DeckAction {
  constructor(deck: Deck) {
    super(deck, 'macro');
  }

  view(settings: Record<string, unknown>): KeyView {
    if (!text(settings, 'macroUuid')) return { title: 'Set a\nmacro' };
    return { title: text(settings, 'label') };
  }

  override async onKeyDown(event: KeyDownEvent<Settings>): Promise<void> {
    if (!this.deck.readyForPress(event.action)) return;
    const macroUuid = text(event.payload.settings, 'macroUuid');
    if (!macroUuid) return void (await event.action.showAlert());
    const answer = await runMacro(this.deck.client, macroUuid);
    if (answer.ok) await event.action.showOk();
    else this.deck.failed(event.action, answer);
  }
}

/** Whether the world is connected (green), not (grey), or the relay is not running; a press opens the settings. */
export class StatusAction extends DeckAction {
  constructor(deck: Deck) {
    super(deck, 'status');
  }

  view(_settings: Record<string, unknown>, snapshot: WorldSnapshot): KeyView {
    if (snapshot.worldConnected)
      return { title: short(snapshot.worldTitle ?? 'Connected', 12), image: statusImage('connected') };
    if (snapshot.failure?.kind === 'no-key' || snapshot.failure?.kind === 'not-allowed')
      return { title: snapshot.failure.short, image: statusImage('no-key') };
    return { title: 'No world', image: statusImage('no-world') };
  }

  offlineView(): KeyView {
    return { title: 'Relay not\nrunning', image: statusImage('relay-off') };
  }

  override async onKeyDown(): Promise<void> {
    const page = this.deck.setup.phase === 'approving' ? '/admin/#keys' : '/admin/';
    await streamDeck.system.openUrl(`${this.deck.client.relayUrl}${page}`);
  }
}

export const ACTION_NAMES = [
  'roll',
  'next-turn',
  'previous-turn',
  'hp',
  'playlist',
  'playlist-next',
  'playlist-volume',
  'macro',
  'status',
] as const;

export function deckActions(deck: Deck): DeckAction[] {
  return [
    new RollAction(deck),
    new NextTurnAction(deck),
    new PreviousTurnAction(deck),
    new HitPointsAction(deck),
    new PlaylistAction(deck),
    new PlaylistNextAction(deck),
    new PlaylistVolumeAction(deck),
    new MacroAction(deck),
    new StatusAction(deck),
  ];
}

export { COLOURS };
