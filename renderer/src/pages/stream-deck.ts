import { admin, type IntegrationPackage, type NewKey, type RelayStatus } from '../admin-api.ts';
import type { AppState, Page } from '../app-state.ts';
import { copyButton, h, icon, replaceChildren, toast } from '../dom.ts';
import { relativeTime } from '../format.ts';
import { keyRequestsSection } from '../components/key-requests.ts';
import {
  DEFAULT_RELAY_URL,
  DECK_SCOPES,
  type IntegrationPackageName,
} from '../../../contracts/integration-packages.ts';

interface PackageText {
  icon: string;
  /** Who runs it, under the title. */
  host: string;
  whatItIs: string;
  install: string;
  firstUse: string;
}

const TEXT: Record<IntegrationPackageName, PackageText> = {
  'stream-deck': {
    icon: 'stream-deck',
    host: "For Elgato's Stream Deck app",
    whatItIs: "Keys and dials for rolls, combat turns, hit points, music, macros and the world's status.",
    install: "Download it and double-click the file: Elgato's Stream Deck app installs it.",
    firstUse: 'Keys show "Approve in Tabletop Relay" and the request appears here: approve it if the codes match.',
  },
  companion: {
    icon: 'companion',
    host: 'For Bitfocus Companion 4.3 or later',
    whatItIs: 'The same actions for Companion, with feedbacks, variables and presets.',
    install: 'In Companion, Modules → Import module package; then add a Tabletop Relay connection.',
    firstUse:
      'Its status shows a code and the request from Bitfocus Companion appears here; or Make a key and paste it.',
  },
};

function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function facts(text: PackageText): HTMLElement {
  const fact = (label: string, body: string) =>
    h('li', { class: 'deck-fact' }, h('span', { class: 'deck-fact-label' }, label), h('p', {}, body));
  return h(
    'ul',
    { class: 'deck-facts' },
    fact('What it is', text.whatItIs),
    fact('Install', text.install),
    fact('First use', text.firstUse),
  );
}

/** How to build the file, where its download would be. */
function notBuilt(view: IntegrationPackage): HTMLElement {
  return h(
    'div',
    { class: 'banner banner-warning deck-not-built', role: 'status' },
    icon('warning'),
    h(
      'span',
      {},
      h('strong', {}, 'Not built yet. '),
      'Build it with ',
      h('code', {}, view.buildCommand),
      ' in the Tabletop Relay folder, then open this page again.',
    ),
  );
}

function downloadLink(view: IntegrationPackage): HTMLElement {
  return h(
    'a',
    { class: 'button button-primary', href: view.path, download: view.file?.name, 'data-download': view.name },
    icon('download'),
    'Download',
  );
}

function fileFacts(file: NonNullable<IntegrationPackage['file']>): HTMLElement {
  return h(
    'p',
    { class: 'muted small deck-file' },
    h('span', { class: 'deck-file-name' }, file.name),
    ` · ${fileSize(file.bytes)} · built ${relativeTime(file.builtAt)}`,
  );
}

/** Makes a key with the deck's scopes and shows it once, in `shownIn`, to paste into Companion's connection. */
function companionKeyButton(shownIn: HTMLElement): HTMLElement {
  const make = h(
    'button',
    { type: 'button', class: 'button button-secondary', id: 'companion-key' },
    icon('keys'),
    'Make a key',
  );
  make.addEventListener('click', async () => {
    make.disabled = true;
    try {
      const created = await admin.createKey({ name: 'Companion', scopes: [...DECK_SCOPES] });
      replaceChildren(shownIn, revealedKey(created));
    } catch (error) {
      toast((error as Error).message, 'error');
      make.disabled = false;
    }
  });
  return make;
}

function revealedKey(created: NewKey): HTMLElement {
  const field = h('input', {
    class: 'input input-mono',
    readonly: true,
    id: 'companion-key-value',
    'aria-label': 'The API key for Companion',
  });
  field.value = created.key;
  return h(
    'div',
    { class: 'deck-key-revealed' },
    h(
      'div',
      { class: 'reveal-row' },
      field,
      copyButton(() => created.key, 'Copy key', { primary: true }),
    ),
    h(
      'p',
      { class: 'hint' },
      "Shown only this once: paste it in the connection's API key. API keys lists it as Companion.",
    ),
  );
}

function packageCard(view: IntegrationPackage): HTMLElement {
  const text = TEXT[view.name];
  const keyShown = h('div', {});
  const actions = h(
    'div',
    { class: 'deck-actions' },
    view.file ? downloadLink(view) : null,
    view.name === 'companion' ? companionKeyButton(keyShown) : null,
  );
  return h(
    'article',
    { class: 'card deck-package', 'data-package': view.name, 'aria-labelledby': `deck-${view.name}-title` },
    h(
      'header',
      { class: 'deck-package-head' },
      h('span', { class: 'deck-package-icon' }, icon(text.icon)),
      h('div', {}, h('h2', { id: `deck-${view.name}-title` }, view.title), h('p', { class: 'muted small' }, text.host)),
    ),
    facts(text),
    h(
      'div',
      { class: 'deck-package-foot' },
      view.file ? null : notBuilt(view),
      actions,
      view.file ? fileFacts(view.file) : null,
      keyShown,
    ),
  );
}

/** Where the plugin and the module look for the relay, and what to set when this relay is elsewhere. */
function addressNote(status: RelayStatus | undefined): HTMLElement {
  const url = status?.url;
  const moved = url !== undefined && url !== DEFAULT_RELAY_URL;
  const lanUrl = status?.lan.urls?.[0];
  return h(
    'section',
    { class: 'card deck-notes', 'aria-label': 'Good to know' },
    h(
      'div',
      { class: 'deck-note' },
      icon('link'),
      h(
        'p',
        {},
        h('strong', {}, 'Relay URL. '),
        'Both look for the relay at ',
        h('code', {}, DEFAULT_RELAY_URL),
        moved
          ? h('span', {}, '; this relay is at ', h('code', {}, url), ': set that as their Relay URL.')
          : ', where this relay is: nothing to set.',
        ' From another computer, use ',
        lanUrl ? h('code', {}, lanUrl) : 'the LAN address (turn on LAN access under Access)',
        '.',
      ),
    ),
    h(
      'div',
      { class: 'deck-note' },
      icon('activity'),
      h(
        'p',
        {},
        h('strong', {}, 'The guide. '),
        h('code', {}, 'docs/STREAM-DECK.md'),
        ' in the Tabletop Relay folder: each key pictured, the scopes each action needs, Companion’s variables and presets, and troubleshooting.',
      ),
    ),
  );
}

export const streamDeckPage: Page = {
  id: 'stream-deck',
  title: 'Stream Deck',
  subtitle: 'Buttons for your table, on an Elgato Stream Deck or in Bitfocus Companion',
  icon: 'stream-deck',
  render(state: AppState) {
    const keyRequests = keyRequestsSection();
    const packages = h(
      'div',
      { class: 'deck-packages' },
      h('div', { class: 'card skeleton', 'aria-busy': 'true' }),
      h('div', { class: 'card skeleton', 'aria-busy': 'true' }),
    );
    const notes = h('div', {});
    const element = h('div', { class: 'stack' }, keyRequests.element, packages, notes);
    admin.downloads().then(
      ({ packages: views }) => replaceChildren(packages, ...views.map(packageCard)),
      (error: unknown) => replaceChildren(packages, h('p', { class: 'banner banner-error' }, (error as Error).message)),
    );
    const stop = state.status.follow((status) => {
      keyRequests.update(status);
      replaceChildren(notes, addressNote(status));
    });
    const tick = setInterval(() => keyRequests.tick(), 1000);
    return {
      element,
      dispose: () => {
        stop();
        clearInterval(tick);
      },
    };
  },
};
