// AI assistants: the config to paste into each assistant, the requests waiting to connect (the approval card, with
// toolsets), the assistants connected with what they may do, and each toolset's tools.
import { admin, type AssistantsView, type RelayStatus } from '../admin-api.ts';
import type { AppState, Page } from '../app-state.ts';
import { copyButton, h, icon, replaceChildren, toast, toastRevoked } from '../dom.ts';
import { relativeTime } from '../format.ts';
import { keyRequestsSection } from '../components/key-requests.ts';
import { ASSISTANT_CLIENTS, assistantConfig, type AssistantClient } from '../../../contracts/assistant-configs.ts';
import { TOOLSETS } from '../../../contracts/assistants.ts';

function steps(): HTMLElement {
  const step = (number: number, title: string, text: string) =>
    h('li', { class: 'deck-fact' }, h('span', { class: 'deck-fact-label' }, `${number}. ${title}`), h('p', {}, text));
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'assistants-how' },
    h('div', { class: 'card-header' }, h('h2', { id: 'assistants-how' }, 'Use Tabletop Relay from an AI assistant')),
    h(
      'ol',
      { class: 'deck-facts' },
      step(1, 'Copy', "Copy your assistant's config below into its settings file."),
      step(
        2,
        'Start it',
        'It asks Tabletop Relay to connect and shows a code (Claude Code, VS Code and Cursor open your browser).',
      ),
      step(
        3,
        'Approve',
        'Here, pick what it may do. Play and Prepare are ticked; Delete and Scripts only when you tick them.',
      ),
    ),
  );
}

function configCard(client: AssistantClient, relayUrl: string, key?: string): HTMLElement {
  const config = assistantConfig(client, relayUrl, key);
  const json = JSON.stringify(config.json, null, 2);
  return h(
    'article',
    { class: 'card deck-package', 'data-assistant-client': client, 'aria-labelledby': `assistant-${client}` },
    h(
      'header',
      { class: 'deck-package-head' },
      h('span', { class: 'deck-package-icon' }, icon('assistant')),
      h('div', {}, h('h2', { id: `assistant-${client}` }, config.title), h('p', { class: 'muted small' }, config.file)),
    ),
    h('pre', { class: 'assistant-config', 'data-config': client }, h('code', {}, json)),
    config.command ? h('pre', { class: 'assistant-config' }, h('code', {}, config.command)) : null,
    h('p', { class: 'hint' }, config.note),
    h(
      'div',
      { class: 'deck-actions' },
      copyButton(() => json, 'Copy config', { primary: true }),
      config.command ? copyButton(() => config.command!, 'Copy command') : null,
      client === 'lm-studio' && key === undefined ? makeKeyButton(relayUrl) : null,
    ),
  );
}

/** LM Studio sends a key: one made for it with the default toolsets, shown once inside its config. */
function makeKeyButton(relayUrl: string): HTMLElement {
  const make = h('button', { type: 'button', class: 'button button-secondary' }, icon('keys'), 'Make a key');
  make.addEventListener('click', async () => {
    make.disabled = true;
    try {
      const created = await admin.createAssistantKey({ name: 'LM Studio' });
      make.closest('[data-assistant-client]')?.replaceWith(configCard('lm-studio', relayUrl, created.key));
      toast('Key made: copy the config now, it shows the key this once');
    } catch (error) {
      toast((error as Error).message, 'error');
      make.disabled = false;
    }
  });
  return make;
}

function connectedList(view: AssistantsView, refresh: () => void): HTMLElement {
  if (view.assistants.length === 0)
    return h('p', { class: 'muted' }, 'No assistant is connected yet: approve one, and it is listed here.');
  return h(
    'ul',
    { class: 'assistant-list' },
    ...view.assistants.map((assistant) => {
      const revoke = h('button', { type: 'button', class: 'button button-secondary' }, 'Disconnect');
      revoke.addEventListener('click', async () => {
        revoke.disabled = true;
        try {
          toastRevoked(`${assistant.name} disconnected`, await admin.revokeKey(assistant.id));
          refresh();
        } catch (error) {
          toast((error as Error).message, 'error');
          revoke.disabled = false;
        }
      });
      const toolsets = assistant.assistant.toolsets.map((name) => TOOLSETS[name].title).join(', ');
      return h(
        'li',
        { class: 'card assistant-row', 'data-assistant': assistant.id },
        h('strong', {}, assistant.name),
        h(
          'span',
          { class: 'muted small' },
          `${toolsets}${assistant.assistant.readOnly ? ' · read only' : ''} · `,
          assistant.sessions > 0
            ? `${assistant.sessions} open session${assistant.sessions === 1 ? '' : 's'}`
            : 'not connected now',
          assistant.lastUsedAt ? ` · last call ${relativeTime(assistant.lastUsedAt)}` : '',
        ),
        revoke,
      );
    }),
  );
}

function toolsetsReference(view: AssistantsView): HTMLElement {
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'assistant-toolsets' },
    h('div', { class: 'card-header' }, h('h2', { id: 'assistant-toolsets' }, 'Toolsets and their tools')),
    ...view.toolsets.map((toolset) =>
      h(
        'details',
        { 'data-toolset': toolset.name },
        h(
          'summary',
          {},
          h('strong', {}, toolset.title),
          ` · ${toolset.tools.length} tools${toolset.byDefault ? ' · offered by default' : ''}: ${toolset.blurb}`,
        ),
        h('p', { class: 'muted small' }, `At worst, a misled assistant causes: ${toolset.worstCase}.`),
        h('p', { class: 'small' }, ...toolset.tools.flatMap((tool, index) => [index ? ', ' : '', h('code', {}, tool)])),
      ),
    ),
  );
}

export const assistantsPage: Page = {
  id: 'assistants',
  title: 'AI assistants',
  subtitle: 'Claude, VS Code, Cursor or LM Studio acting on your worlds, with what you allow',
  icon: 'assistant',
  render(state: AppState) {
    const requests = keyRequestsSection((request) => request.toolsets !== undefined);
    const configs = h('div', { class: 'deck-packages' });
    const connected = h('div', {});
    const reference = h('div', {});
    const connectedCard = h(
      'section',
      { class: 'card', 'aria-labelledby': 'assistants-connected' },
      h('div', { class: 'card-header' }, h('h2', { id: 'assistants-connected' }, 'Connected assistants')),
      connected,
    );
    const element = h('div', { class: 'stack' }, requests.element, steps(), configs, connectedCard, reference);
    const refresh = () =>
      admin.assistants().then(
        (view) => {
          replaceChildren(connected, connectedList(view, refresh));
          replaceChildren(reference, toolsetsReference(view));
        },
        (error: unknown) =>
          replaceChildren(connected, h('p', { class: 'banner banner-error' }, (error as Error).message)),
      );
    let shownUrl = '';
    const stop = state.status.follow((status: RelayStatus | undefined) => {
      requests.update(status);
      // A decided request makes or changes a key: the list follows at once.
      void refresh();
      if (!status || status.url === shownUrl) return;
      shownUrl = status.url;
      replaceChildren(configs, ...ASSISTANT_CLIENTS.map((client) => configCard(client, status.url)));
    });
    const tick = setInterval(() => requests.tick(), 1000);
    const poll = setInterval(() => void refresh(), 10_000);
    return {
      element,
      dispose: () => {
        stop();
        clearInterval(tick);
        clearInterval(poll);
      },
    };
  },
};
