// Table: what happens at the table as the player sees it in Foundry: the combat with their turn marked, what is
// playing, and the chat (public messages and their own whispers), newest first under a line to write in it.
import type { PlayChatLine, PlayCombat, PlayTrack } from '../contracts/play.ts';
import { h, icon, replaceChildren } from './dom.ts';

export interface TableViews {
  combat?: PlayCombat;
  chat?: PlayChatLine[];
  playing?: PlayTrack[];
}

/**
 * The Table tab, kept while the page runs: the views are drawn again as they change, while the chat's line to write in
 * stays, its text and its keyboard with it.
 */
export class TableTab {
  readonly element: HTMLElement;
  private readonly live = h('div', { class: 'stack' });
  private readonly chat = h('div', {});

  constructor(onSay: (text: string) => Promise<boolean>) {
    this.element = h(
      'div',
      { class: 'stack', id: 'table' },
      this.live,
      h(
        'section',
        { class: 'card', 'aria-labelledby': 'chat-title' },
        h('h2', { id: 'chat-title' }, 'Chat'),
        sayForm(onSay),
        this.chat,
      ),
    );
  }

  update(views: TableViews): void {
    replaceChildren(this.live, combatCard(views.combat), playingCard(views.playing));
    const lines = views.chat ?? [];
    replaceChildren(
      this.chat,
      lines.length === 0
        ? h('p', { class: 'muted' }, views.chat ? 'No messages yet.' : 'Loading the chat…')
        : h('ol', { class: 'chat', id: 'chat', reversed: true }, ...[...lines].reverse().map(chatLine)),
    );
  }
}

/** Whether the combat's current turn is one of the player's combatants. */
export function isMyTurn(combat: PlayCombat | undefined): boolean {
  if (!combat?.active || combat.turn === null) return false;
  return combat.combatants[combat.turn]?.mine === true;
}

function combatCard(combat: PlayCombat | undefined): HTMLElement | null {
  if (!combat?.active) return null;
  return h(
    'section',
    { class: 'card', id: 'combat', 'aria-labelledby': 'combat-title' },
    h(
      'div',
      { class: 'card-title-row' },
      h('h2', { id: 'combat-title' }, 'Combat'),
      h('span', { class: 'muted' }, `Round ${combat.round}`),
    ),
    isMyTurn(combat) ? h('p', { class: 'your-turn', id: 'your-turn' }, 'Your turn!') : null,
    h(
      'ol',
      { class: 'rows turn-order' },
      ...combat.combatants.map((combatant, index) =>
        h(
          'li',
          {
            class: [
              'row',
              index === combat.turn ? 'current' : '',
              combatant.mine ? 'mine' : '',
              combatant.defeated ? 'defeated' : '',
            ]
              .filter(Boolean)
              .join(' '),
            'aria-current': index === combat.turn ? 'true' : undefined,
          },
          h('span', { class: 'initiative' }, combatant.initiative === null ? '–' : String(combatant.initiative)),
          h('span', { class: 'row-name' }, combatant.name),
          combatant.mine ? h('span', { class: 'badge badge-accent' }, 'You') : null,
        ),
      ),
    ),
  );
}

function playingCard(playing: PlayTrack[] | undefined): HTMLElement | null {
  if (!playing?.length) return null;
  return h(
    'section',
    { class: 'card now-playing', id: 'playing', 'aria-label': 'Now playing' },
    ...playing.map((track) =>
      h(
        'p',
        { class: 'track' },
        icon('music'),
        h('strong', {}, track.track),
        h('span', { class: 'muted' }, ` · ${track.playlist}`),
      ),
    ),
  );
}

function sayForm(onSay: (text: string) => Promise<boolean>): HTMLElement {
  const input = h('input', {
    class: 'input',
    id: 'say',
    name: 'say',
    autocomplete: 'off',
    placeholder: 'Say something',
    'aria-label': 'Chat message',
    maxlength: 2000,
  });
  const send = h('button', { type: 'submit', class: 'button' }, 'Send');
  const form = h('form', { class: 'formula-row', id: 'say-form' }, input, send);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send.disabled = true;
    void onSay(text).then((said) => {
      send.disabled = false;
      if (said) input.value = '';
    });
  });
  return form;
}

function chatLine(line: PlayChatLine): HTMLElement {
  return h(
    'li',
    { class: `chat-line${line.whisper ? ' whisper' : ''}${line.mine ? ' mine' : ''}`, 'data-message-id': line.id },
    h(
      'div',
      { class: 'chat-head' },
      line.whisper ? icon('whisper') : null,
      h('strong', {}, line.who || 'Someone'),
      line.flavor ? h('span', { class: 'muted' }, ` ${line.flavor}`) : null,
    ),
    line.total !== undefined ? h('span', { class: 'chat-total' }, String(line.total)) : null,
    line.text && String(line.total) !== line.text ? h('p', { class: 'chat-text' }, line.text) : null,
  );
}
