// The player page: signs in with the key an invitation left on the device, then shows the player's character, their
// dice and the table, live from one stream. Every state the page can be in says what the player can do about it.
import type { PlayChatLine, PlayCombat, PlaySession, PlayTrack } from '../contracts/play.ts';
import { ApiError, apiWith, dataOf, type Api } from './api.ts';
import { characterView } from './character-view.ts';
import { characterOf, DETAILS, type Character } from './dnd5e.ts';
import { h, icon, replaceChildren } from './dom.ts';
import { rollView, type RollChoices, type RollRequest } from './roll-view.ts';
import { POSTED_IN, Roller, type RollResult } from './rolls.ts';
import { choices, choose, signIn, signOut, type SignIn } from './sign-in.ts';
import { follow } from './stream.ts';
import { isMyTurn, tableView, type TableViews } from './table-view.ts';
import { devicePanel, notice, type Notice } from './notices.ts';
import { sheetView, type OtherSystemSheet } from './sheet-view.ts';

type Tab = 'character' | 'roll' | 'table';

const TABS: [Tab, string, Parameters<typeof icon>[0]][] = [
  ['character', 'Character', 'character'],
  ['roll', 'Roll', 'dice'],
  ['table', 'Table', 'table'],
];

/** How long the page waits after an actor's change before reading the character again: one read per burst. */
const CHANGE_SETTLE_MS = 120;
/** How often a page whose world is away looks again. */
const WORLD_AWAY_RETRY_MS = 5000;
const UNREACHABLE_RETRY_MS = 4000;

export function startPage(root: HTMLElement): void {
  const stored = signIn();
  if (!stored) {
    replaceChildren(root, notice('no-key'));
    return;
  }
  void new PlayerPage(root, stored).start();
}

class PlayerPage {
  private readonly root: HTMLElement;
  private readonly stored: SignIn;
  private readonly api: Api;
  private session: PlaySession | undefined;
  private actorUuid: string | undefined;
  private character: Character | undefined;
  private sheet: OtherSystemSheet | undefined;
  private readonly table: TableViews = {};
  private tab: Tab = 'character';
  private rollChoices: RollChoices = { mode: choices().rollMode, advantage: 'normal' };
  private live = false;
  private result: RollResult | { label: string; note: string } | undefined;
  private stopStream: (() => void) | undefined;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly content = h('div', { class: 'content', id: 'content' });
  private readonly header = h('header', { class: 'topbar' });
  private readonly resultSlot = h('div', { class: 'result-slot' });
  private readonly tabBar = h('nav', { class: 'tabbar', 'aria-label': 'Sections' });

  constructor(root: HTMLElement, stored: SignIn) {
    this.root = root;
    this.stored = stored;
    this.api = apiWith(stored.key);
  }

  async start(): Promise<void> {
    try {
      this.session = await this.api.get<PlaySession>('/play/me');
    } catch (error) {
      return this.failed(error, () => void this.start());
    }
    const known = this.session.characters.map((character) => character.uuid);
    const chosen = choices().character;
    this.actorUuid = chosen && known.includes(chosen) ? chosen : known[0];
    replaceChildren(this.root, this.header, this.content, this.resultSlot, this.tabBar);
    this.drawChrome();
    this.draw();
    await this.loadCharacter();
    this.openStream();
  }

  /** A failure that ends what the page shows: signed out, the world away, the relay unreachable, or a refusal. */
  private failed(error: unknown, retry: () => void): void {
    this.stopStream?.();
    const failure = error instanceof ApiError ? error.failure : 'refused';
    const message = error instanceof Error ? error.message : String(error);
    if (failure === 'signed-out') {
      signOut();
      replaceChildren(this.root, notice('signed-out'));
      return;
    }
    const shown: Notice =
      failure === 'world-away' ? 'world-away' : failure === 'unreachable' ? 'unreachable' : 'refused';
    replaceChildren(this.root, notice(shown, { world: this.stored.worldTitle, message, retry }));
    if (shown === 'world-away') setTimeout(retry, WORLD_AWAY_RETRY_MS);
    if (shown === 'unreachable') setTimeout(retry, UNREACHABLE_RETRY_MS);
  }

  private get dnd5e(): boolean {
    return this.session?.world.systemId === 'dnd5e';
  }

  private async loadCharacter(): Promise<void> {
    const uuid = this.actorUuid;
    if (!uuid) return;
    try {
      if (this.dnd5e) {
        const [details, actor] = await Promise.all([
          this.api.get<{ data?: Record<string, unknown> }>('/dnd5e/get-actor-details', {
            actorUuid: uuid,
            details: DETAILS,
          }),
          this.api.get<{ data?: Record<string, unknown> }>('/get', { uuid }),
        ]);
        if (uuid !== this.actorUuid) return;
        this.character = characterOf(dataOf(details), dataOf(actor));
      } else {
        this.sheet = await sheetOf(this.api, uuid, this.sheet);
      }
      this.drawChrome();
      this.draw();
    } catch (error) {
      if (error instanceof ApiError && error.failure !== 'refused') this.failed(error, () => void this.start());
    }
  }

  private openStream(): void {
    this.stopStream?.();
    const url = new URL('/play/events', location.origin);
    if (this.actorUuid) url.searchParams.set('actorUuid', this.actorUuid);
    this.stopStream = follow(url.href, this.api.headers(), {
      open: () => this.setLive(true),
      down: () => this.setLive(false),
      refused: (error) => this.failed(error, () => void this.start()),
      event: (name, data) => this.onEvent(name, data),
    });
  }

  private onEvent(name: string, data: unknown): void {
    if (name === 'combat') this.table.combat = data as PlayCombat;
    else if (name === 'chat') this.table.chat = data as PlayChatLine[];
    else if (name === 'playing') this.table.playing = data as PlayTrack[];
    else if (name.startsWith('actor-')) return this.characterChanged();
    else return;
    this.drawChrome();
    if (this.tab === 'table') this.draw();
  }

  private characterChanged(): void {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.loadCharacter(), CHANGE_SETTLE_MS);
  }

  private setLive(live: boolean): void {
    this.live = live;
    this.drawChrome();
  }

  private pick(uuid: string): void {
    this.actorUuid = uuid;
    this.character = undefined;
    this.sheet = undefined;
    choose({ character: uuid });
    this.draw();
    void this.loadCharacter();
    this.openStream();
  }

  private show(tab: Tab): void {
    this.tab = tab;
    this.result = undefined;
    this.drawChrome();
    this.draw();
    window.scrollTo(0, 0);
  }

  /** The header (who, which character, whether live) and the tab bar. */
  private drawChrome(): void {
    const session = this.session;
    if (!session) return;
    const characters = session.characters;
    const title =
      characters.length > 1
        ? h(
            'select',
            {
              class: 'character-picker',
              id: 'character-picker',
              'aria-label': 'Character',
              onchange: (event: Event) => this.pick((event.target as HTMLSelectElement).value),
            },
            ...characters.map((character) =>
              h('option', { value: character.uuid, selected: character.uuid === this.actorUuid }, character.name),
            ),
          )
        : h('span', { class: 'topbar-title' }, session.world.title);
    const playing = characters.length > 1 ? `${session.user.name} · ${session.world.title}` : session.user.name;
    replaceChildren(
      this.header,
      h('div', { class: 'topbar-main' }, title, h('span', { class: 'muted small' }, playing)),
      h('span', {
        class: `live-dot ${this.live ? 'live' : 'down'}`,
        id: 'live',
        role: 'status',
        title: this.live ? 'Live' : 'Reconnecting',
        'aria-label': this.live ? 'Live' : 'Reconnecting',
      }),
      h(
        'button',
        {
          type: 'button',
          class: 'icon-button',
          id: 'device',
          'aria-label': 'This device',
          onclick: () => this.openDevice(),
        },
        icon('menu'),
      ),
    );
    replaceChildren(
      this.tabBar,
      ...TABS.map(([tab, label, mark]) =>
        h(
          'button',
          {
            type: 'button',
            class: `tab${tab === this.tab ? ' active' : ''}${tab === 'table' && isMyTurn(this.table.combat) ? ' alert' : ''}`,
            'data-tab': tab,
            'aria-current': tab === this.tab ? 'page' : undefined,
            onclick: () => this.show(tab),
          },
          icon(mark),
          h('span', {}, label),
        ),
      ),
    );
    document.title = `${this.character?.name ?? session.user.name} · Tabletop`;
  }

  /** The open tab, drawn from what the page holds now. */
  private draw(): void {
    if (!this.session) return;
    replaceChildren(this.content, this.tabContent(this.session));
    this.drawResult();
  }

  private tabContent(session: PlaySession): HTMLElement {
    if (this.tab === 'table') return tableView(this.table, (text) => this.say(text));
    if (this.tab === 'roll')
      return rollView(
        this.dnd5e ? this.character : undefined,
        this.rollChoices,
        (change) => {
          this.rollChoices = { ...this.rollChoices, ...change };
          if (change.mode) choose({ rollMode: change.mode });
          this.draw();
        },
        (request) => void this.roll(request),
      );
    if (!this.actorUuid) return notice('no-character', { world: session.world.title });
    if (this.dnd5e)
      return this.character ? characterView(this.character) : h('p', { class: 'loading' }, 'Loading your character…');
    return sheetView(this.sheet, () => void this.loadCharacter());
  }

  private async roll(request: RollRequest): Promise<void> {
    const roller = new Roller(this.api, this.session!, this.actorUuid);
    const { mode, advantage } = this.rollChoices;
    try {
      if (request.kind === 'cast') {
        await roller.cast(request.uuid);
        this.result = { label: request.label, note: 'Cast: its card is in the chat' };
      } else if (request.kind === 'formula') this.result = await roller.formula(request.formula, request.label, mode);
      else this.result = await roller.check(request.kind, request.id, request.label, mode, advantage);
    } catch (error) {
      this.result = { label: request.label, note: error instanceof Error ? error.message : String(error) };
    }
    this.drawResult();
  }

  /** The last roll, big, above the tabs, until the player closes it. */
  private drawResult(): void {
    const result = this.result;
    if (!result) return replaceChildren(this.resultSlot);
    const close = h(
      'button',
      {
        type: 'button',
        class: 'icon-button',
        'aria-label': 'Close',
        onclick: () => ((this.result = undefined), this.drawResult()),
      },
      icon('close'),
    );
    if ('note' in result) {
      replaceChildren(
        this.resultSlot,
        h(
          'section',
          { class: 'result', id: 'result' },
          close,
          h('p', { class: 'result-label' }, result.label),
          h('p', {}, result.note),
        ),
      );
      return;
    }
    replaceChildren(
      this.resultSlot,
      h(
        'section',
        { class: `result result-${result.mode}`, id: 'result', 'aria-live': 'assertive' },
        close,
        h('p', { class: 'result-label' }, result.label),
        h('p', { class: 'result-total', id: 'result-total' }, result.total === undefined ? '?' : String(result.total)),
        h(
          'p',
          { class: 'result-detail' },
          result.total === undefined
            ? result.formula
            : `${result.formula}${result.detail ? ` · ${result.detail}` : ''}`,
        ),
        h('p', { class: 'result-posted' }, POSTED_IN[result.mode]),
      ),
    );
  }

  private async say(text: string): Promise<boolean> {
    try {
      await this.api.post('/chat', { content: text, ...(this.actorUuid ? { speaker: this.actorUuid } : {}) });
      return true;
    } catch (error) {
      this.result = { label: 'Chat', note: error instanceof Error ? error.message : String(error) };
      this.drawResult();
      return false;
    }
  }

  private openDevice(): void {
    if (!this.session) return;
    document.body.append(
      devicePanel(this.stored, this.session, () => {
        this.stopStream?.();
        signOut();
        replaceChildren(this.root, notice('signed-out-here'));
      }),
    );
  }
}

/** A character of another system: its data, and its sheet as the world or the relay's capture renders it. */
async function sheetOf(api: Api, uuid: string, previous: OtherSystemSheet | undefined): Promise<OtherSystemSheet> {
  const scale = String(Math.min(2, window.devicePixelRatio || 1));
  const [actor, image] = await Promise.all([
    api.get<{ data?: Record<string, unknown> }>('/get', { uuid }),
    api.bytes('/sheet', { uuid, format: 'jpeg', scale }).then(
      (blob) => ({ url: URL.createObjectURL(blob) }),
      (error: unknown) => {
        if (error instanceof ApiError && error.failure !== 'refused') throw error;
        return { problem: error instanceof Error ? error.message : String(error) };
      },
    ),
  ]);
  if (previous?.imageUrl) URL.revokeObjectURL(previous.imageUrl);
  return 'url' in image
    ? { actor: dataOf(actor), imageUrl: image.url }
    : { actor: dataOf(actor), problem: image.problem };
}
