// The player page: signs in with the key an invitation left on the device, then shows the player's character, their
// dice and the table, live from one stream. Every state the page can be in says what the player can do about it.
import type { PlayChatLine, PlayCombat, PlaySession, PlayTrack } from '../contracts/play.ts';
import { ApiError, apiWith, dataOf, type Api } from './api.ts';
import { characterView } from './character-view.ts';
import { characterOf, DETAILS, type Character } from './dnd5e.ts';
import { h, icon, replaceChildren } from './dom.ts';
import { devicePanel, notice, type Notice } from './notices.ts';
import { rollView, type RollChoices, type RollRequest } from './roll-view.ts';
import { POSTED_IN, Roller, type RollResult } from './rolls.ts';
import { sheetView, type OtherSystemSheet } from './sheet-view.ts';
import { choices, choose, signIn, signOut, type SignIn } from './sign-in.ts';
import { follow } from './stream.ts';
import { isMyTurn, TableTab, type TableViews } from './table-view.ts';

type Tab = 'character' | 'roll' | 'table';

const TABS: [Tab, string, Parameters<typeof icon>[0]][] = [
  ['character', 'Character', 'character'],
  ['roll', 'Roll', 'dice'],
  ['table', 'Table', 'table'],
];

/** How long the page waits after an actor's change before reading the character again: one read per burst. */
const CHANGE_SETTLE_MS = 120;
/** How often a page whose world is away looks again, and one whose relay did not answer. */
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

/** A roll's result, or a word about an action that has none (a spell cast, a refusal). */
type Shown = RollResult | { label: string; note: string };

class PlayerPage {
  private readonly root: HTMLElement;
  private readonly stored: SignIn;
  private readonly api: Api;
  private session: PlaySession | undefined;
  private actorUuid: string | undefined;
  private character: Character | undefined;
  private sheet: OtherSystemSheet | undefined;
  private readonly views: TableViews = {};
  private tab: Tab = 'character';
  private rollChoices: RollChoices = { mode: choices().rollMode, advantage: 'normal' };
  /** The stream: opening for the first time, open, or dropped and opening again. */
  private connection: 'opening' | 'live' | 'down' = 'opening';
  private shown: Shown | undefined;
  private stopStream: (() => void) | undefined;
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly header = h('header', { class: 'topbar' });
  private readonly liveDot = h('span', { class: 'live-dot', id: 'live', role: 'status' });
  private readonly notLive = h(
    'p',
    { class: 'not-live', id: 'not-live', hidden: true },
    'Not live: the relay does not answer. Trying again…',
  );
  private readonly content = h('div', { class: 'content', id: 'content' });
  private readonly resultSlot = h('div', { class: 'result-slot' });
  private readonly tabBar = h('nav', { class: 'tabbar', 'aria-label': 'Sections' });
  private readonly tabButtons = new Map<Tab, HTMLButtonElement>();
  private readonly table = new TableTab((text) => this.say(text));

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
    this.buildChrome(this.session);
    replaceChildren(this.root, this.header, this.content, this.resultSlot, this.tabBar);
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
      this.updateChrome();
      // The Roll tab is left as it is: a formula being typed stays.
      if (this.tab === 'character') this.draw();
    } catch (error) {
      if (error instanceof ApiError && error.failure !== 'refused') this.failed(error, () => void this.start());
    }
  }

  private openStream(): void {
    this.stopStream?.();
    const url = new URL('/play/events', location.origin);
    if (this.actorUuid) url.searchParams.set('actorUuid', this.actorUuid);
    this.stopStream = follow(url.href, this.api.headers(), {
      open: () => this.setConnection('live'),
      down: () => this.setConnection('down'),
      refused: (error) => this.failed(error, () => void this.start()),
      event: (name, data) => this.onEvent(name, data),
    });
  }

  private onEvent(name: string, data: unknown): void {
    if (name === 'combat') this.views.combat = data as PlayCombat;
    else if (name === 'chat') this.views.chat = data as PlayChatLine[];
    else if (name === 'playing') this.views.playing = data as PlayTrack[];
    else if (name.startsWith('actor-')) return this.characterChanged();
    else return;
    this.table.update(this.views);
    this.updateChrome();
  }

  private characterChanged(): void {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.loadCharacter(), CHANGE_SETTLE_MS);
  }

  private setConnection(connection: 'live' | 'down'): void {
    this.connection = connection;
    this.updateChrome();
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
    this.shown = undefined;
    this.updateChrome();
    this.draw();
    window.scrollTo(0, 0);
  }

  /** The header (which world or character, whose, whether live, this device) and the tabs, made once. */
  private buildChrome(session: PlaySession): void {
    const { characters } = session;
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
    const whose = characters.length > 1 ? `${session.user.name} · ${session.world.title}` : session.user.name;
    replaceChildren(
      this.header,
      h('div', { class: 'topbar-main' }, title, h('span', { class: 'muted small' }, whose)),
      this.liveDot,
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
      this.notLive,
    );
    for (const [tab, label, mark] of TABS) {
      const button = h(
        'button',
        { type: 'button', class: 'tab', 'data-tab': tab, onclick: () => this.show(tab) },
        icon(mark),
        h('span', {}, label),
      );
      this.tabButtons.set(tab, button);
    }
    replaceChildren(this.tabBar, ...this.tabButtons.values());
    this.updateChrome();
  }

  /** What the header and tabs say now: whether the page is live, which tab is open, whether it is the player's turn. */
  private updateChrome(): void {
    const live = this.connection === 'live';
    this.liveDot.className = `live-dot ${live ? 'live' : 'down'}`;
    this.liveDot.setAttribute('aria-label', live ? 'Live' : 'Connecting');
    this.liveDot.title = live ? 'Live' : 'Connecting';
    this.notLive.hidden = this.connection !== 'down';
    for (const [tab, button] of this.tabButtons) {
      button.classList.toggle('active', tab === this.tab);
      button.classList.toggle('alert', tab === 'table' && isMyTurn(this.views.combat));
      if (tab === this.tab) button.setAttribute('aria-current', 'page');
      else button.removeAttribute('aria-current');
    }
    document.title = `${this.character?.name ?? this.session?.user.name ?? 'Player'} · Tabletop`;
  }

  /** The open tab, drawn from what the page holds now. */
  private draw(): void {
    if (!this.session) return;
    replaceChildren(this.content, this.tabContent(this.session));
    this.drawShown();
  }

  private tabContent(session: PlaySession): HTMLElement {
    if (this.tab === 'table') {
      this.table.update(this.views);
      return this.table.element;
    }
    if (this.tab === 'roll')
      return rollView(
        this.dnd5e ? this.character : undefined,
        this.rollChoices,
        (change) => {
          this.rollChoices = { ...this.rollChoices, ...change };
          if (change.mode) choose({ rollMode: change.mode });
        },
        (request) => void this.roll(request),
      );
    if (!this.actorUuid) return notice('no-character', { world: session.world.title });
    if (!this.dnd5e) return sheetView(this.sheet, () => void this.loadCharacter());
    return this.character ? characterView(this.character) : h('p', { class: 'loading' }, 'Loading your character…');
  }

  private async roll(request: RollRequest): Promise<void> {
    const roller = new Roller(this.api, this.session!, this.actorUuid);
    const { mode, advantage } = this.rollChoices;
    try {
      if (request.kind === 'cast') {
        await roller.cast(request.uuid);
        this.shown = { label: request.label, note: 'Cast: its card is in the chat' };
      } else if (request.kind === 'formula') this.shown = await roller.formula(request.formula, request.label, mode);
      else this.shown = await roller.check(request.kind, request.id, request.label, mode, advantage);
    } catch (error) {
      if (error instanceof ApiError && error.failure !== 'refused') return this.failed(error, () => void this.start());
      this.shown = { label: request.label, note: error instanceof Error ? error.message : String(error) };
    }
    this.drawShown();
  }

  /** The last roll, big, above the tabs, until the player closes it or opens another tab. */
  private drawShown(): void {
    const shown = this.shown;
    if (!shown) return replaceChildren(this.resultSlot);
    const close = h(
      'button',
      {
        type: 'button',
        class: 'icon-button',
        'aria-label': 'Close',
        onclick: () => {
          this.shown = undefined;
          this.drawShown();
        },
      },
      icon('close'),
    );
    if ('note' in shown) {
      replaceChildren(
        this.resultSlot,
        h(
          'section',
          { class: 'result', id: 'result' },
          close,
          h('p', { class: 'result-label' }, shown.label),
          h('p', {}, shown.note),
        ),
      );
      return;
    }
    const blind = shown.total === undefined;
    replaceChildren(
      this.resultSlot,
      h(
        'section',
        { class: `result result-${shown.mode}`, id: 'result', 'aria-live': 'assertive' },
        close,
        h('p', { class: 'result-label' }, shown.label),
        h('p', { class: 'result-total', id: 'result-total' }, blind ? '?' : String(shown.total)),
        h(
          'p',
          { class: 'result-detail' },
          blind || !shown.detail ? shown.formula : `${shown.formula} · ${shown.detail}`,
        ),
        h('p', { class: 'result-posted' }, POSTED_IN[shown.mode]),
      ),
    );
  }

  private async say(text: string): Promise<boolean> {
    try {
      await this.api.post('/chat', { content: text, ...(this.actorUuid ? { speaker: this.actorUuid } : {}) });
      return true;
    } catch (error) {
      this.shown = { label: 'Chat', note: error instanceof Error ? error.message : String(error) };
      this.drawShown();
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
