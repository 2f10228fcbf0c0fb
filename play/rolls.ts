// Rolling as the player does in Foundry, through the API as their own user, posted in the roll mode they chose. The
// world's module posts a roll only in the GM's own roll mode (public at most tables) and cannot be told another, so a
// public roll is posted by the world as a roll message, and any other mode rolls without posting and then whispers the
// result as the player's own chat message: to the GMs (private GM, blind) or to the player alone (self).
import type { PlaySession, RollMode } from '../contracts/play.ts';
import { dataOf, type Api } from './api.ts';
import { escapeHtml } from './dom.ts';

export type Advantage = 'normal' | 'advantage' | 'disadvantage';

export interface RollResult {
  label: string;
  /** Undefined for a blind roll: only the GM sees it. */
  total?: number;
  formula: string;
  /** What the dice showed, e.g. `17 + 4`. */
  detail: string;
  mode: RollMode;
}

export const ROLL_MODE_NAMES: Record<RollMode, string> = {
  public: 'Public',
  gm: 'GM only',
  blind: 'Blind',
  self: 'Self',
};

/** Where a roll of each mode went, in the words the result says it. */
export const POSTED_IN: Record<RollMode, string> = {
  public: 'Posted to the chat for everyone',
  gm: 'Whispered to the GM',
  blind: 'Rolled blind: only the GM sees the result',
  self: 'Whispered to yourself',
};

export type CheckKind = 'skill' | 'save' | 'check';

const CHECK_ROUTES: Record<CheckKind, { path: string; field: string }> = {
  skill: { path: '/dnd5e/skill-check', field: 'skill' },
  save: { path: '/dnd5e/ability-save', field: 'ability' },
  check: { path: '/dnd5e/ability-check', field: 'ability' },
};

interface D20Answer {
  data?: { total: number; formula: string; result?: string };
}

interface RollAnswer {
  data?: { roll: { total: number; formula: string; dice?: { results?: { result: number; active?: boolean }[] }[] } };
}

export class Roller {
  private readonly api: Api;
  private readonly session: PlaySession;
  private readonly actorUuid: string | undefined;

  constructor(api: Api, session: PlaySession, actorUuid: string | undefined) {
    this.api = api;
    this.session = session;
    this.actorUuid = actorUuid;
  }

  /** A dnd5e skill check, saving throw or ability check of the character. */
  async check(kind: CheckKind, id: string, label: string, mode: RollMode, advantage: Advantage): Promise<RollResult> {
    const { path, field } = CHECK_ROUTES[kind];
    const rolled = dataOf(
      await this.api.post<D20Answer>(path, {
        actorUuid: this.actorUuid,
        [field]: id,
        createChatMessage: mode === 'public',
        ...(advantage === 'normal' ? {} : { [advantage]: true }),
      }),
    );
    const result = { label, total: rolled.total, formula: rolled.formula, detail: rolled.result ?? '', mode };
    return this.posted(result);
  }

  /** Any dice formula, spoken as the character when there is one. */
  async formula(formula: string, label: string, mode: RollMode): Promise<RollResult> {
    const { roll } = dataOf(
      await this.api.post<RollAnswer>('/roll', {
        formula,
        flavor: label,
        createChatMessage: mode === 'public',
        ...(this.actorUuid ? { speaker: this.actorUuid } : {}),
      }),
    );
    const detail = (roll.dice ?? [])
      .map((die) => (die.results ?? []).filter((result) => result.active !== false).map((result) => result.result))
      .map((results) => results.join(', '))
      .join(' | ');
    return this.posted({ label, total: roll.total, formula: roll.formula, detail, mode });
  }

  /** Casts a spell: the world posts its card as the system does, in the GM's roll mode. */
  async cast(spellUuid: string): Promise<void> {
    await this.api.post('/dnd5e/use-spell', { actorUuid: this.actorUuid, abilityUuid: spellUuid });
  }

  /** Whispers a roll that the world did not post (any mode but public); a blind one's total is the GM's alone. */
  private async posted(result: RollResult): Promise<RollResult> {
    if (result.mode === 'public') return result;
    await this.api.post('/chat', {
      content: `<p>${escapeHtml(result.label)}: <strong>${result.total}</strong> (${escapeHtml(result.formula)}${result.detail ? `: ${escapeHtml(result.detail)}` : ''})</p>`,
      flavor: `${result.label} · ${ROLL_MODE_NAMES[result.mode]}`,
      whisper: this.recipients(result.mode),
      ...(this.actorUuid ? { speaker: this.actorUuid } : {}),
    });
    if (result.mode !== 'blind') return result;
    const { total: _hidden, ...blind } = result;
    return blind;
  }

  /** Whom a whispered roll goes to: the player alone, or the GMs (the player alone in a world without one). */
  private recipients(mode: RollMode): string[] {
    const { user, gmIds } = this.session;
    return mode === 'self' || gmIds.length === 0 ? [user.id] : gmIds;
  }
}
