// The studio of a new overlay link: its live preview, its options, and the URL to copy into OBS.
import { admin, type NewOverlayLink, type OverlayLink, type RelayStatus } from '../admin-api.ts';
import type { AppState } from '../app-state.ts';
import { copyText, h, icon, replaceChildren, toast } from '../dom.ts';
import { fitScale, overlayUrl, takesOption } from '../overlay-url.ts';
import { viewerName, worldTitle } from './overlay-links.ts';
import {
  defaultOverlayOptions,
  OVERLAY_OPTION_LIMITS,
  OVERLAY_POSITIONS,
  OVERLAY_THEMES,
  OVERLAYS,
  type OverlayName,
  type OverlayOptions,
  type OverlayPosition,
} from '../../../contracts/overlays.ts';
import { field, segmented, numberInput } from './fields.ts';

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

export interface OverlayStudio {
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

/** The overlay in a frame on a checker background, scaled down to the room the page has for it. */
interface Preview {
  figure: HTMLElement;
  /** Loads the overlay at this path, at once or once the options have rested. */
  load(path: string, immediately: boolean): void;
  dispose(): void;
}

function preview(name: string, size: { width: number; height: number }): Preview {
  const frame = h('iframe', {
    class: 'preview-frame',
    id: 'overlay-preview',
    title: `Live preview of ${name}`,
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
  let reload: ReturnType<typeof setTimeout> | undefined;
  const figure = h(
    'figure',
    { class: 'studio-preview' },
    stage,
    h(
      'figcaption',
      { class: 'muted small' },
      scaleNote,
      ' · live: it stays blank until something happens in the world',
    ),
  );
  return {
    figure,
    load: (path, immediately) => {
      clearTimeout(reload);
      if (immediately) frame.src = path;
      else reload = setTimeout(() => (frame.src = path), PREVIEW_DELAY_MS);
    },
    dispose: () => {
      clearTimeout(reload);
      resize.disconnect();
    },
  };
}

/** The link's custom CSS, saved with the link on the server. */
function customCssField(link: OverlayLink, onSaved: () => void): HTMLElement {
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
      onSaved();
    } catch (error) {
      toast((error as Error).message, 'error');
    } finally {
      applyCss.disabled = false;
    }
  });
  return h(
    'div',
    { class: 'field' },
    h('div', { class: 'field-label-row' }, h('label', { for: 'overlay-css' }, 'Custom CSS'), applyCss),
    css,
    h('p', { class: 'hint' }, 'Applied after the overlay’s own styles; kept with the link.'),
  );
}

/** The options an overlay's URL carries, each set as it changes; those the overlay does not take are left out. */
function optionFields(
  overlay: OverlayName,
  options: OverlayOptions,
  set: <K extends keyof OverlayOptions>(name: K, value: OverlayOptions[K]) => void,
  cssField: HTMLElement,
): HTMLElement {
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
  return h(
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
    cssField,
  );
}

/** The button that copies the URL for OBS, and says the browser source's size with it. */
function copyForObsButton(url: () => string, size: { width: number; height: number }): HTMLElement {
  const button = h(
    'button',
    { type: 'button', class: 'button button-primary', id: 'copy-for-obs' },
    icon('copy'),
    h('span', {}, 'Copy for OBS'),
  );
  button.addEventListener('click', async () => {
    const copied = await copyText(url());
    toast(
      copied
        ? `URL copied: give the browser source ${size.width} × ${size.height}`
        : 'Copy failed: select the URL and copy it',
      copied ? 'info' : 'error',
    );
  });
  return button;
}

function studioHeader(state: AppState, link: OverlayLink, verb: 'created' | 'rotated'): HTMLElement {
  return h(
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
      `${OVERLAYS[link.overlay].title} of ${worldTitle(link.clientId, state.status.get())}, ${viewerName(link, state.status.get()).toLowerCase()}.`,
    ),
  );
}

/** The preview on a checker background, the options beside it, and the URL to copy into OBS. */
export function overlayStudio(
  state: AppState,
  created: NewOverlayLink,
  verb: 'created' | 'rotated',
  onDone: () => void,
  onChanged: () => void,
): OverlayStudio {
  const link = created.record;
  const overlay = link.overlay;
  const size = created.size;
  const options: OverlayOptions = defaultOverlayOptions(overlay);
  let origin: string | undefined;

  const urlField = h('input', {
    class: 'input input-mono',
    readonly: true,
    id: 'overlay-url',
    'aria-label': `The URL of ${link.name}`,
  });
  const shown = preview(link.name, size);
  const obsUrl = () => overlayUrl(created.url, overlay, options, origin);
  const previewPath = () => {
    const url = new URL(overlayUrl(created.url, overlay, options));
    return `${url.pathname}${url.search}`;
  };
  const refresh = (immediately = false) => {
    urlField.value = obsUrl();
    shown.load(previewPath(), immediately);
  };
  const set = <K extends keyof OverlayOptions>(name: K, value: OverlayOptions[K]) => {
    options[name] = value;
    refresh();
  };
  const cssField = customCssField(link, () => {
    refresh(true);
    onChanged();
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
    studioHeader(state, link, verb),
    h('div', { class: 'studio-grid' }, optionFields(overlay, options, set, cssField), shown.figure),
    h(
      'div',
      { class: 'obs-copy' },
      addressSlot,
      h('div', { class: 'reveal-row' }, urlField, copyForObsButton(obsUrl, size)),
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
      shown.dispose();
      stopStatus();
    },
  };
}
