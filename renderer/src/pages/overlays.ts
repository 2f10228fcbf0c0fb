// The Overlays page: make an overlay link for OBS, tune it against a live preview, copy it, and manage the links.
import {
  admin,
  type KnownWorld,
  type NewOverlayLink,
  type OverlayLink,
  type OverlayLinkRequest,
  type RelayStatus,
} from '../admin-api.ts';
import type { AppState, Page } from '../app-state.ts';
import { confirmDialog, copyText, emptyState, h, icon, replaceChildren, toast } from '../dom.ts';
import { roleName } from '../format.ts';
import { fitScale, overlayUrl, takesOption } from '../overlay-url.ts';
import { newestFirst, overlayLinksTable, revokeOverlayLink, viewerName, worldTitle } from './overlay-links.ts';
import {
  defaultOverlayOptions,
  OVERLAY_NAMES,
  OVERLAY_OPTION_LIMITS,
  OVERLAY_POSITIONS,
  OVERLAY_THEMES,
  OVERLAYS,
  type OverlayName,
  type OverlayOptions,
  type OverlayPosition,
} from '../../../contracts/overlays.ts';

/** The room the preview has on the page; the overlay is scaled down to fit it. */
const PREVIEW_ROOM = { width: 400, height: 330 };
/** How long the options rest before the preview reloads with them. */
const PREVIEW_DELAY_MS = 300;
const MAX_CSS_LENGTH = 20_000;

const THEME_LABELS: Record<(typeof OVERLAY_THEMES)[number], string> = {
  dark: 'Dark',
  light: 'Light',
  none: 'None',
};
const POSITION_LABELS: Record<OverlayPosition, string> = {
  'top-left': 'Top left',
  'top-right': 'Top right',
  'bottom-left': 'Bottom left',
  'bottom-right': 'Bottom right',
};

/** A world an overlay can show: a paired one, with its players when it is connected now. */
interface WorldChoice {
  clientId: string;
  title: string;
  connected: boolean;
}

function worldChoices(status: RelayStatus | undefined, known: KnownWorld[]): WorldChoice[] {
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

function field(id: string, label: string, control: HTMLElement, hint?: string): HTMLElement {
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    control,
    hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null,
  );
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
function linkForm(state: AppState, worlds: WorldChoice[], onCreated: (created: NewOverlayLink) => void): HTMLElement {
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

function segmented<T extends string>(
  name: string,
  label: string,
  values: readonly T[],
  labels: Record<T, string>,
  selected: T,
  onPick: (value: T) => void,
): HTMLElement {
  return h(
    'fieldset',
    { class: 'field segmented-field' },
    h('legend', { class: 'label' }, label),
    h(
      'div',
      { class: 'segmented' },
      ...values.map((value) => {
        const radio = h('input', { type: 'radio', name, value, checked: value === selected });
        radio.addEventListener('change', () => onPick(value));
        return h('label', { class: 'segment' }, radio, h('span', {}, labels[value]));
      }),
    ),
  );
}

function numberInput(
  id: string,
  value: number,
  limits: { min: number; max: number },
  onValue: (value: number) => void,
): HTMLInputElement {
  const input = h('input', { class: 'input', type: 'number', id, name: id, ...limits, step: 1, value });
  input.addEventListener('input', () => {
    if (input.validity.valid && input.value !== '') onValue(Number(input.value));
  });
  return input;
}

interface Studio {
  element: HTMLElement;
  dispose(): void;
}

/** Where OBS fetches the overlay from: this computer, or one of its LAN addresses for OBS on another PC. */
function addressChoice(status: RelayStatus | undefined, onPick: (origin: string | undefined) => void): HTMLElement {
  if (!status?.lan.enabled || status.lan.urls.length === 0)
    return h(
      'p',
      { class: 'hint' },
      'OBS on another computer? Turn on LAN access on the ',
      h('a', { href: '#access' }, 'Access page'),
      ' first.',
    );
  const select = h(
    'select',
    { class: 'input', id: 'overlay-address' },
    h('option', { value: '' }, 'OBS runs on this computer'),
    ...status.lan.urls.map((url) =>
      h('option', { value: url }, `OBS runs on another computer: ${url.replace(/^https?:\/\//, '')}`),
    ),
  );
  select.addEventListener('change', () => onPick(select.value || undefined));
  return field(
    'overlay-address',
    'Where OBS runs',
    select,
    'The other computer must be on your network; LAN access lets it reach the relay.',
  );
}

function obsSteps(size: { width: number; height: number }): HTMLElement {
  const step = (n: number, ...text: (string | Node)[]) =>
    h('li', { class: 'obs-step' }, h('span', { class: 'step-number' }, String(n)), h('span', {}, ...text));
  return h(
    'ol',
    { class: 'obs-steps', 'aria-label': 'In OBS' },
    step(1, 'In OBS: ', h('strong', {}, 'Sources → + → Browser'), ', then OK.'),
    step(2, 'Paste the URL into ', h('strong', {}, 'URL'), '.'),
    step(
      3,
      'Set ',
      h('strong', {}, `Width ${size.width}`),
      ' and ',
      h('strong', {}, `Height ${size.height}`),
      ', then OK.',
    ),
  );
}

/** The preview on a checker background, the options beside it, and the URL to copy into OBS. */
function studio(
  state: AppState,
  created: NewOverlayLink,
  verb: 'created' | 'rotated',
  onDone: () => void,
  onChanged: () => void,
): Studio {
  const link = created.record;
  const overlay = link.overlay;
  const description = OVERLAYS[overlay];
  const size = created.size;
  const options: OverlayOptions = defaultOverlayOptions(overlay);
  let origin: string | undefined;

  const urlField = h('input', {
    class: 'input input-mono',
    readonly: true,
    id: 'overlay-url',
    'aria-label': `The URL of ${link.name}`,
  });
  const frame = h('iframe', {
    class: 'preview-frame',
    id: 'overlay-preview',
    title: `Live preview of ${link.name}`,
    width: size.width,
    height: size.height,
    tabindex: -1,
  });
  const scaler = h('div', { class: 'preview-scaler' }, frame);
  const stage = h('div', { class: 'preview-stage' }, scaler);
  const scaleNote = h('span', {});
  const fit = () => {
    const room = {
      width: Math.min(PREVIEW_ROOM.width, stage.clientWidth - 24 || PREVIEW_ROOM.width),
      height: PREVIEW_ROOM.height,
    };
    const scale = fitScale(size, room);
    frame.style.transform = `scale(${scale})`;
    scaler.style.width = `${Math.round(size.width * scale)}px`;
    scaler.style.height = `${Math.round(size.height * scale)}px`;
    scaleNote.textContent = `Preview at ${Math.round(scale * 100)}%`;
  };
  const resize = new ResizeObserver(fit);
  resize.observe(stage);

  const obsUrl = () => overlayUrl(created.url, overlay, options, origin);
  const previewUrl = () => {
    const url = new URL(overlayUrl(created.url, overlay, options));
    return `${url.pathname}${url.search}`;
  };
  let reload: ReturnType<typeof setTimeout> | undefined;
  const refresh = (immediately = false) => {
    urlField.value = obsUrl();
    clearTimeout(reload);
    if (immediately) frame.src = previewUrl();
    else reload = setTimeout(() => (frame.src = previewUrl()), PREVIEW_DELAY_MS);
  };
  const set = <K extends keyof OverlayOptions>(name: K, value: OverlayOptions[K]) => {
    options[name] = value;
    refresh();
  };

  const accent = h('input', { class: 'input input-color', type: 'color', id: 'overlay-accent', value: options.accent });
  accent.addEventListener('input', () => set('accent', accent.value));
  const position = h(
    'select',
    { class: 'input', id: 'overlay-position' },
    ...OVERLAY_POSITIONS.map((value) =>
      h('option', { value, selected: value === options.position }, POSITION_LABELS[value]),
    ),
  );
  position.addEventListener('change', () => set('position', position.value as OverlayPosition));
  const css = h('textarea', {
    class: 'input input-mono',
    id: 'overlay-css',
    rows: 4,
    maxlength: MAX_CSS_LENGTH,
    spellcheck: 'false',
    placeholder: '.overlay { letter-spacing: 0.02em; }',
  });
  css.value = link.customCss;
  const applyCss = h(
    'button',
    { type: 'button', class: 'button button-secondary button-small', id: 'apply-overlay-css' },
    'Save CSS',
  );
  applyCss.addEventListener('click', async () => {
    applyCss.disabled = true;
    try {
      await admin.updateOverlayLink(link.id, { customCss: css.value });
      toast('Custom CSS saved with the link');
      refresh(true);
      onChanged();
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      applyCss.disabled = false;
    }
  });

  const optionFields = h(
    'div',
    { class: 'studio-options' },
    segmented('overlay-theme', 'Theme', OVERLAY_THEMES, THEME_LABELS, options.theme, (value) => set('theme', value)),
    h(
      'div',
      { class: 'option-grid' },
      field('overlay-accent', 'Accent', accent),
      field(
        'overlay-font-size',
        'Font size',
        numberInput('overlay-font-size', options.fontSize, OVERLAY_OPTION_LIMITS.fontSize, (value) =>
          set('fontSize', value),
        ),
      ),
      takesOption(overlay, 'max')
        ? field(
            'overlay-max',
            'Max items',
            numberInput('overlay-max', options.max, OVERLAY_OPTION_LIMITS.max, (value) => set('max', value)),
          )
        : null,
      takesOption(overlay, 'hold')
        ? field(
            'overlay-hold',
            'Hold (s)',
            numberInput('overlay-hold', options.hold, OVERLAY_OPTION_LIMITS.hold, (value) => set('hold', value)),
          )
        : null,
      field('overlay-position', 'Position', position),
    ),
    h(
      'div',
      { class: 'field' },
      h('div', { class: 'field-label-row' }, h('label', { for: 'overlay-css' }, 'Custom CSS'), applyCss),
      css,
      h('p', { class: 'hint' }, 'Applied after the overlay’s own styles; kept with the link.'),
    ),
  );

  const copyForObs = h(
    'button',
    { type: 'button', class: 'button button-primary', id: 'copy-for-obs' },
    icon('copy'),
    h('span', {}, 'Copy for OBS'),
  );
  copyForObs.addEventListener('click', async () => {
    const copied = await copyText(obsUrl());
    toast(
      copied
        ? `URL copied: give the browser source ${size.width} × ${size.height}`
        : 'Copy failed: select the URL and copy it',
      copied ? 'info' : 'error',
    );
  });
  const done = h('button', { type: 'button', class: 'button button-secondary', id: 'overlay-done' }, 'Done');
  done.addEventListener('click', onDone);

  // LAN access turned on or off meanwhile changes where OBS may fetch from.
  const addressSlot = h('div', {});
  let lanShown = '';
  const stopStatus = state.status.follow((status) => {
    const lan = JSON.stringify(status?.lan ?? null);
    if (lan === lanShown) return;
    lanShown = lan;
    if (origin && !status?.lan.urls.includes(origin)) origin = undefined;
    replaceChildren(
      addressSlot,
      addressChoice(status, (picked) => {
        origin = picked;
        refresh();
      }),
    );
    urlField.value = obsUrl();
  });

  refresh(true);
  const element = h(
    'section',
    { class: 'card card-success studio', 'aria-labelledby': 'studio-title', 'data-overlay-link-id': link.id },
    h(
      'div',
      { class: 'card-header' },
      h(
        'h2',
        { id: 'studio-title' },
        icon('check'),
        verb === 'created' ? `"${link.name}" is ready` : `"${link.name}" has a new URL`,
      ),
      h(
        'p',
        {},
        h('strong', {}, 'Copy the URL now: like a key, it is shown only this once. '),
        verb === 'rotated' ? 'The old URL stopped working; paste this one into OBS instead. ' : '',
        `${description.title} of ${worldTitle(link.clientId, state.status.get())}, ${viewerName(link, state.status.get()).toLowerCase()}.`,
      ),
    ),
    h(
      'div',
      { class: 'studio-grid' },
      optionFields,
      h(
        'figure',
        { class: 'studio-preview' },
        stage,
        h(
          'figcaption',
          { class: 'muted small' },
          scaleNote,
          ' · live: it stays blank until something happens in the world',
        ),
      ),
    ),
    h(
      'div',
      { class: 'obs-copy' },
      addressSlot,
      h('div', { class: 'reveal-row' }, urlField, copyForObs),
      h(
        'p',
        { class: 'obs-size' },
        'Browser source size: ',
        h('strong', { id: 'overlay-size' }, `${size.width} × ${size.height}`),
        ' pixels',
      ),
      obsSteps(size),
    ),
    h('div', { class: 'form-actions' }, done),
  );
  return {
    element,
    dispose: () => {
      clearTimeout(reload);
      resize.disconnect();
      stopStatus();
    },
  };
}

function noWorldYet(): HTMLElement {
  return h(
    'div',
    { class: 'card' },
    emptyState(
      'world',
      'Pair a world first',
      'An overlay shows what happens in one of your worlds: the rolls, the combat, the music. Pair your Foundry world on the Status page, then come back to make an overlay.',
      h('a', { class: 'button button-primary', href: '#status' }, 'Go to Status'),
    ),
  );
}

export const overlaysPage: Page = {
  id: 'overlays',
  title: 'Overlays',
  subtitle: 'Live dice, initiative, music and characters for OBS',
  icon: 'overlays',
  render(state: AppState) {
    const top = h('div', { class: 'stack' });
    const listTitle = h(
      'div',
      { class: 'section-title' },
      h('h2', {}, 'Overlay links'),
      h('p', { class: 'muted small' }, 'Read-only links in OBS URLs; also listed with the API keys.'),
    );
    const list = h('div', {});
    const element = h('div', { class: 'stack' }, top, h('div', { class: 'stack overlay-list' }, listTitle, list));
    let known: KnownWorld[] = [];
    let links: OverlayLink[] = [];
    let open: Studio | undefined;
    let worldsKey = '';

    const closeStudio = () => {
      open?.dispose();
      open = undefined;
    };
    const drawTop = () => {
      closeStudio();
      const worlds = worldChoices(state.status.get(), known);
      worldsKey = worlds.map((world) => `${world.clientId}:${world.connected}`).join(',');
      replaceChildren(
        top,
        worlds.length === 0 ? noWorldYet() : linkForm(state, worlds, (made) => show(made, 'created')),
      );
    };
    const show = (made: NewOverlayLink, verb: 'created' | 'rotated') => {
      closeStudio();
      open = studio(state, made, verb, drawTop, () => void reloadList());
      replaceChildren(top, open.element);
      open.element.scrollIntoView({ block: 'start' });
      void reloadList();
    };
    const rotate = async (link: OverlayLink) => {
      const sure = await confirmDialog({
        title: `New URL for "${link.name}"?`,
        message: 'The current URL stops working at once: paste the new one into OBS afterwards.',
        confirm: 'Make a new URL',
      });
      if (!sure) return;
      try {
        show(await admin.rotateOverlayLink(link.id), 'rotated');
      } catch (error) {
        toast((error as Error).message, 'error');
      }
    };
    const revoke = async (link: OverlayLink) => {
      if (!(await revokeOverlayLink(link))) return;
      if (open && top.querySelector(`[data-overlay-link-id="${link.id}"]`)) drawTop();
      await reloadList();
    };
    const drawList = () => {
      listTitle.hidden = links.length === 0;
      replaceChildren(
        list,
        links.length === 0
          ? null
          : overlayLinksTable(links, state.status.get(), known, {
              rotate: (link) => void rotate(link),
              revoke: (link) => void revoke(link),
            }),
      );
    };
    const reloadList = async () => {
      try {
        links = newestFirst((await admin.overlayLinks()).links);
        drawList();
      } catch (error) {
        toast((error as Error).message, 'error');
      }
    };
    const reloadWorlds = async () => {
      try {
        known = (await admin.knownWorlds()).worlds;
      } catch (error) {
        toast((error as Error).message, 'error');
      }
      if (!open) drawTop();
      drawList();
    };
    // A world pairing or connecting changes what the form offers; the open preview stays.
    const stopStatus = state.status.onChange((status) => {
      const worlds = worldChoices(status, known);
      const key = worlds.map((world) => `${world.clientId}:${world.connected}`).join(',');
      if (key !== worldsKey && !open) void reloadWorlds();
    });
    let pending: ReturnType<typeof setTimeout> | undefined;
    const stopActivity = state.activity.onChange(() => {
      clearTimeout(pending);
      pending = setTimeout(() => void reloadList(), 500);
    });
    replaceChildren(top, h('div', { class: 'card skeleton' }));
    void reloadWorlds();
    void reloadList();
    return {
      element,
      dispose: () => {
        closeStudio();
        stopStatus();
        stopActivity();
        clearTimeout(pending);
      },
    };
  },
};
