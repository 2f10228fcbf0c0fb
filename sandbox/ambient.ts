// Ambient activity for the demo: every tick, someone at the table does something.
import type { Simulation } from './simulate.ts';
import type { Game } from './world/game.ts';
import { nextInteger } from './world/random.ts';

const FORMULAS = ['1d20+5', '1d20+3', '2d20kh+4', '1d8+3', '4d6kh3', '1d20', '2d6+2'];
const FLAVORS = ['Attack roll', 'Perception', 'Stealth', 'Damage', 'Saving throw', ''];
const LINES = [
  'Anyone else hear drums?',
  'I check the door for traps.',
  'Lyra, light please!',
  'Back to back, everyone.',
  'I loot the goblin.',
];

function pick<T>(game: Game, items: readonly T[]): T {
  return items[nextInteger(game.random, 0, items.length - 1)]!;
}

function playerNames(game: Game): string[] {
  return game.users
    .filter((user) => user.source.character !== null && user.source.character !== undefined)
    .map((user) => user.name);
}

/** One random table event; combat advances when one is running. */
export function ambientTick(game: Game, simulate: Simulation): void {
  const players = playerNames(game);
  const choice = nextInteger(game.random, 0, 5);
  if (choice === 0 && players.length > 0) {
    simulate.playerRoll(pick(game, players), pick(game, FORMULAS), pick(game, FLAVORS));
  } else if (choice === 1 && players.length > 0) {
    simulate.chat(pick(game, players), pick(game, LINES));
  } else if (choice === 2) {
    const tokens = game.viewedScene()?.collection('Token').contents ?? [];
    if (tokens.length === 0) return;
    const token = pick(game, tokens);
    const step = () => nextInteger(game.random, -1, 1) * 100;
    simulate.moveToken(
      token.id,
      Math.max(0, (token.source.x as number) + step()),
      Math.max(0, (token.source.y as number) + step()),
    );
  } else if (choice === 3) {
    const characters = game.actors.filter((actor) => actor.type === 'character');
    if (characters.length === 0) return;
    const actor = pick(game, characters);
    const hp = actor.system.attributes as { hp: { value: number; max: number } };
    const value = Math.max(0, Math.min(hp.hp.max, hp.hp.value + nextInteger(game.random, -6, 4)));
    simulate.updateActor(actor.id, { 'system.attributes.hp.value': value });
  } else if (choice === 4) {
    simulate.changeTrack();
  } else if (game.activeCombat() && (game.activeCombat()!.source.round as number) > 0) {
    simulate.nextTurn();
  } else {
    simulate.startCombat();
  }
}

export class AmbientActivity {
  readonly #game: Game;
  readonly #simulate: Simulation;
  #timer: ReturnType<typeof setInterval> | null = null;

  constructor(game: Game, simulate: Simulation) {
    this.#game = game;
    this.#simulate = simulate;
  }

  start(intervalMs: number): void {
    this.stop();
    this.#timer = setInterval(() => ambientTick(this.#game, this.#simulate), intervalMs);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  stop(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
  }
}
