// The form that makes an overlay link: the overlay, the world, whose eyes it sees through, what the overlay needs.
import {
  admin,
  type KnownWorld,
  type NewOverlayLink,
  type OverlayLinkRequest,
  type RelayStatus,
} from '../admin-api.ts';
import type { AppState } from '../app-state.ts';
import { h, icon, replaceChildren, toast } from '../dom.ts';
import { roleName } from '../format.ts';
import { OVERLAY_NAMES, OVERLAYS, type OverlayName } from '../../../contracts/overlays.ts';
import { field } from './fields.ts';

/** A world an overlay can show: a paired one, with its players when it is connected now. */
interface WorldChoice {
  clientId: string;
  title: string;
  connected: boolean;
}

export function worldChoices(status: RelayStatus | undefined, known: KnownWorld[]): WorldChoice[] {
  const connected = (status?.worlds ?? []).map((world) => ({
    clientId: world.clientId,
    title: world.worldTitle || world.clientId,
    connected: true,
  }));
  const others = known
    .filter((world) => !connected.some((choice) => choice.clientId === world.clientId))
    .map((world) => ({ clientId: world.clientId, title: world.worldTitle || world.clientId, connected: false }));
  return [...connected, ...others];
}

function overlayPicker(selected: OverlayName, onPick: (overlay: OverlayName) => void): HTMLElement {
  const choices = OVERLAY_NAMES.map((name) => {
    const overlay = OVERLAYS[name];
    const radio = h('input', {
      type: 'radio',
      name: 'overlay',
      value: name,
      class: 'overlay-choice-input',
      checked: name === selected,
    });
    radio.addEventListener('change', () => onPick(name));
    return h(
      'label',
      { class: 'overlay-choice', 'data-overlay': name },
      radio,
      h('span', { class: 'overlay-choice-icon' }, icon(name)),
      h('span', { class: 'overlay-choice-title' }, overlay.title),
      h('span', { class: 'overlay-choice-blurb' }, overlay.blurb),
      h('span', { class: 'overlay-choice-size' }, `${overlay.size.width} × ${overlay.size.height}`),
    );
  });
  return h('fieldset', { class: 'overlay-choices' }, h('legend', { class: 'visually-hidden' }, 'Overlay'), ...choices);
}

function playerSelect(world: WorldChoice | undefined, status: RelayStatus | undefined): HTMLSelectElement {
  const select = h(
    'select',
    { class: 'input', id: 'overlay-viewer', name: 'userId', 'aria-describedby': 'overlay-viewer-hint' },
    h('option', { value: '' }, 'As the table sees it'),
  );
  const players = status?.worlds.find((candidate) => candidate.clientId === world?.clientId)?.players ?? [];
  for (const player of players)
    select.append(h('option', { value: player.id }, `As ${player.name} · ${roleName(player.role)}`));
  select.disabled = players.length === 0;
  return select;
}

/** The form that makes a link: the world, whose eyes it sees through, and what the chosen overlay needs besides. */
export function overlayLinkForm(
  state: AppState,
  worlds: WorldChoice[],
  onCreated: (created: NewOverlayLink) => void,
): HTMLElement {
  let overlay: OverlayName = 'dice';
  const name = h('input', {
    class: 'input',
    id: 'overlay-name',
    name: 'name',
    maxlength: 100,
    autocomplete: 'off',
  });
  const world = h(
    'select',
    { class: 'input', id: 'overlay-world', name: 'clientId', required: true },
    ...worlds.map((choice) =>
      h('option', { value: choice.clientId }, choice.connected ? choice.title : `${choice.title} (not connected)`),
    ),
  );
  const viewerSlot = h('div', {});
  const currentWorld = () => worlds.find((choice) => choice.clientId === world.value);
  const drawViewer = () => {
    const choice = currentWorld();
    replaceChildren(
      viewerSlot,
      field(
        'overlay-viewer',
        'Player view',
        playerSelect(choice, state.status.get()),
        choice?.connected
          ? 'As the table sees it: public rolls and chat only. As a player: also their own whispers and hidden rolls, never the GM’s or other players’.'
          : 'Connect this world to pick one of its players; until then the overlay shows what the whole table sees.',
      ),
    );
  };
  world.addEventListener('change', drawViewer);
  drawViewer();

  const actor = h('input', {
    class: 'input input-mono',
    id: 'overlay-actor',
    name: 'actorUuid',
    maxlength: 200,
    placeholder: 'Actor.a1b2c3d4e5f6g7h8',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  const actorField = field(
    'overlay-actor',
    'Character',
    actor,
    'The actor’s UUID. In Foundry, open the character’s sheet and right-click the ID button in its title bar: that copies the UUID.',
  );
  const hpBars = h('input', { type: 'checkbox', id: 'overlay-hp-bars', name: 'hpBars' });
  const hpField = h(
    'div',
    { class: 'field' },
    h('label', { class: 'check' }, hpBars, h('span', {}, 'Show HP as bars')),
    h(
      'p',
      { class: 'hint' },
      'Off unless you allow it: viewers then see how hurt every combatant is, monsters included.',
    ),
  );
  const submit = h(
    'button',
    { type: 'submit', class: 'button button-primary', id: 'create-overlay-link' },
    'Create link',
  );
  const showOverlayFields = () => {
    actorField.hidden = overlay !== 'character-card';
    actor.required = overlay === 'character-card';
    hpField.hidden = overlay !== 'initiative';
    name.placeholder = `e.g. ${OVERLAYS[overlay].title} for stream`;
  };
  showOverlayFields();

  const form = h(
    'form',
    { class: 'card overlay-form', 'aria-labelledby': 'overlay-form-title' },
    h(
      'div',
      { class: 'card-header' },
      h('h2', { id: 'overlay-form-title' }, 'New overlay'),
      h(
        'p',
        { class: 'muted' },
        'Each overlay gets a link of its own: read-only, for one world, revocable here at any time.',
      ),
    ),
    overlayPicker(overlay, (picked) => {
      overlay = picked;
      showOverlayFields();
    }),
    h(
      'div',
      { class: 'field-grid overlay-form-fields' },
      field('overlay-world', 'World', world),
      viewerSlot,
      actorField,
      hpField,
      field('overlay-name', 'Name', name, 'Optional: how the link is listed.'),
    ),
    h('div', { class: 'form-actions' }, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const choice = currentWorld();
    if (!choice) return;
    const viewer = form.querySelector<HTMLSelectElement>('#overlay-viewer')?.value ?? '';
    const request: OverlayLinkRequest = {
      overlay,
      clientId: choice.clientId,
      name: name.value.trim() || `${OVERLAYS[overlay].title} · ${choice.title}`,
      ...(viewer ? { userId: viewer } : {}),
      ...(overlay === 'character-card' ? { actorUuid: actor.value.trim() } : {}),
      ...(overlay === 'initiative' ? { hpBars: hpBars.checked } : {}),
    };
    submit.disabled = true;
    try {
      onCreated(await admin.createOverlayLink(request));
    } catch (error) {
      toast((error as Error).message, 'error');
      submit.disabled = false;
    }
  });
  return form;
}
