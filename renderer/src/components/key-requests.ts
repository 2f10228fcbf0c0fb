// The Status page's key requests: a tool asked for an API key (POST /auth/key-request) and waits for the GM, who checks
// the code it shows, grants some or all of the scopes it asked for, binds a player or worlds, and approves or denies.
import { admin, type KeyRequest, type RelayStatus, type World } from '../admin-api.ts';
import { h, icon } from '../dom.ts';
import { countdown, roleName } from '../format.ts';
import { presetPicker } from '../key-presets.ts';
import { isWriteScope, scopeWords } from '../scopes.ts';
import { denyAddressButton } from './denied-addresses.ts';
import { decisionButtons, waitingCardsSection, type WaitingCardsSection } from './waiting-cards.ts';
import { askFirstField } from './key-form.ts';
import type { KeyRequestApproval } from '../../../contracts/admin-api.ts';
import { DEFAULT_TOOLSETS, TOOLSETS, type ToolsetName } from '../../../contracts/assistants.ts';

let nextId = 0;

/** Only a web address becomes a link: a tool names its own URL, and the GM's click must not run anything. */
function appLink(url: string | undefined): HTMLElement | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return h('span', { class: 'key-request-url muted small' }, url);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    return h('span', { class: 'key-request-url muted small' }, url);
  return h(
    'a',
    { class: 'key-request-url small', href: parsed.href, target: '_blank', rel: 'noopener noreferrer' },
    icon('link'),
    parsed.host + (parsed.pathname === '/' ? '' : parsed.pathname),
  );
}

function scopeChoice(scope: string, risky: boolean): HTMLElement {
  const write = !risky && isWriteScope(scope);
  const flag = risky
    ? h(
        'span',
        { class: 'scope-flag scope-flag-danger' },
        icon('warning'),
        scope === 'execute-js' ? 'Runs any script as the GM' : 'Grant only knowingly',
      )
    : write
      ? h('span', { class: 'scope-flag scope-flag-write' }, 'Changes the world')
      : null;
  return h(
    'label',
    { class: `check scope-choice${risky ? ' scope-choice-danger' : write ? ' scope-choice-write' : ''}` },
    // A risky scope is granted only when the GM ticks it: never by approving in a hurry.
    h('input', { type: 'checkbox', name: 'scopes', value: scope, checked: !risky }),
    h('span', { class: 'scope-words' }, scopeWords(scope)),
    h('code', {}, scope),
    flag,
  );
}

function scopesField(request: KeyRequest): HTMLElement {
  const risky = new Set(request.riskyScopes);
  // Reading first, then what changes the world, then what must be ticked by hand.
  const rank = (scope: string) => (risky.has(scope) ? 2 : isWriteScope(scope) ? 1 : 0);
  const scopes = [...request.scopes].sort((a, b) => rank(a) - rank(b));
  const choices = h('div', { class: 'scope-choices' }, ...scopes.map((scope) => scopeChoice(scope, risky.has(scope))));
  // A preset ticks what it and the request share: an approval never grants more than was asked.
  const presets = presetPicker(
    () => [...choices.querySelectorAll<HTMLInputElement>('input')],
    () => undefined,
    {
      compact: true,
    },
  );
  choices.addEventListener('change', presets.sync);
  presets.sync();
  return h(
    'fieldset',
    { class: 'key-request-field key-request-scopes' },
    h('legend', { class: 'label' }, `Scopes it asks for (${scopes.length})`),
    h('div', { class: 'preset-row' }, h('span', { class: 'muted small' }, 'Grant as:'), presets.element),
    choices,
    h(
      'p',
      { class: 'hint' },
      risky.size > 0
        ? 'Untick a scope to grant less. Flagged red: left out unless you tick it.'
        : 'Untick a scope to grant less than the tool asked for.',
    ),
  );
}

/** Toolsets that only a tick grants: what deletes, and scripts that may do anything. */
const RISKY_TOOLSETS: readonly ToolsetName[] = ['delete', 'scripts'];

/** An AI assistant's request: the GM picks its toolsets (Play and Prepare ticked, risky ones never) and read only. */
function toolsetsField(toolsets: ToolsetName[]): HTMLElement {
  const choice = (toolset: ToolsetName) => {
    const risky = RISKY_TOOLSETS.includes(toolset);
    return h(
      'label',
      { class: `check scope-choice${risky ? ' scope-choice-danger' : ''}` },
      h('input', {
        type: 'checkbox',
        name: 'toolsets',
        value: toolset,
        checked: DEFAULT_TOOLSETS.includes(toolset),
      }),
      h('strong', {}, TOOLSETS[toolset].title),
      h('span', { class: 'muted small' }, TOOLSETS[toolset].blurb),
      risky
        ? h(
            'span',
            { class: 'scope-flag scope-flag-danger' },
            icon('warning'),
            `At worst: ${TOOLSETS[toolset].worstCase}`,
          )
        : null,
    );
  };
  return h(
    'fieldset',
    { class: 'key-request-field key-request-toolsets' },
    h('legend', { class: 'label' }, `What the assistant may do (${toolsets.length} asked)`),
    h('div', { class: 'scope-choices' }, ...toolsets.map(choice)),
    h(
      'label',
      { class: 'check key-request-read-only' },
      h('input', { type: 'checkbox', name: 'readOnly', value: 'true' }),
      h('strong', {}, 'Read only'),
      h('span', { class: 'muted small' }, 'It may look at the world but change nothing.'),
    ),
    h(
      'p',
      { class: 'hint' },
      'A prompt can steer an assistant: grant what you would let a stranger do at your table. Flagged red: left out unless you tick it.',
    ),
  );
}

function playerOptions(request: KeyRequest, worlds: World[], id: string): HTMLSelectElement {
  const select = h('select', { class: 'input', id, name: 'userId' });
  // A tool that asked to act as a player may be given another one, never none.
  if (!request.userId) select.append(h('option', { value: '' }, 'Any user'));
  let askedFound = false;
  for (const world of worlds) {
    if (world.players.length === 0) continue;
    const group = h('optgroup', { label: world.worldTitle || world.clientId });
    for (const player of world.players) {
      // A tool may name its user by id or by name.
      const asked = request.userId !== undefined && (player.id === request.userId || player.name === request.userId);
      askedFound ||= asked;
      group.append(
        h(
          'option',
          { value: player.id, selected: asked },
          `${player.name} · ${roleName(player.role)}${asked ? ' (asked)' : ''}`,
        ),
      );
    }
    select.append(group);
  }
  if (request.userId && !askedFound)
    select.prepend(h('option', { value: request.userId, selected: true }, `${request.userId} (asked)`));
  return select;
}

function worldChoices(request: KeyRequest, worlds: World[]): HTMLElement {
  const titleOf = (clientId: string) => worlds.find((world) => world.clientId === clientId)?.worldTitle || clientId;
  const asked = request.clientIds.length > 0;
  const offered = asked ? request.clientIds : worlds.map((world) => world.clientId);
  if (offered.length === 0)
    return h('p', { class: 'muted small key-request-every-world' }, 'Every world you pair: none is connected now.');
  return h(
    'div',
    { class: 'choices' },
    ...offered.map((clientId) =>
      h(
        'label',
        { class: 'check' },
        h('input', { type: 'checkbox', name: 'clientIds', value: clientId, checked: asked }),
        h('span', {}, titleOf(clientId)),
      ),
    ),
  );
}

function approvalOf(form: HTMLFormElement, request: KeyRequest): KeyRequestApproval | string {
  const data = new FormData(form);
  const scopes = data.getAll('scopes').map(String);
  const toolsets = data.getAll('toolsets').map(String) as ToolsetName[];
  if (request.toolsets && toolsets.length === 0) return 'Tick at least one toolset, or deny the request';
  if (!request.toolsets && scopes.length === 0) return 'Tick at least one scope, or deny the request';
  const clientIds = data.getAll('clientIds').map(String);
  if (request.clientIds.length > 0 && clientIds.length === 0) return 'Tick at least one of the worlds it asked for';
  const name = String(data.get('name') ?? '').trim();
  const userId = String(data.get('userId') ?? '');
  const askBeforeChanges = data.get('askBeforeChanges') === 'on';
  return {
    name: name || request.appName,
    ...(request.toolsets ? { toolsets, readOnly: data.get('readOnly') === 'true' } : { scopes }),
    ...(userId ? { userId } : {}),
    ...(clientIds.length > 0 ? { clientIds } : {}),
    ...(askBeforeChanges ? { askBeforeChanges } : {}),
  };
}

/** Who asks: the tool's name, description and page, where from, until when, and the code the tool shows. */
function requestHeading(request: KeyRequest, id: string): HTMLElement {
  return h(
    'div',
    { class: 'key-request-head' },
    h('div', { class: 'key-request-icon' }, icon('keys')),
    h(
      'div',
      { class: 'key-request-app' },
      h('strong', { id: `${id}-title`, class: 'key-request-name' }, request.appName),
      request.appDescription ? h('span', { class: 'key-request-description' }, request.appDescription) : null,
      appLink(request.appUrl),
      h(
        'span',
        { class: 'muted small' },
        'From ',
        h('code', { class: 'key-request-source' }, request.source),
        ' · expires in ',
        h('span', { 'data-expires': request.expiresAt }, countdown(request.expiresAt)),
      ),
    ),
    h(
      'div',
      { class: 'key-request-code' },
      h('span', { class: 'key-request-code-label' }, 'Code in the tool'),
      h('span', { class: 'code-big', 'data-key-request-code': request.code }, request.code),
      h('span', { class: 'muted small' }, 'Approve only if it matches'),
    ),
  );
}

function requestCard(request: KeyRequest, status: RelayStatus): HTMLElement {
  const id = `key-request-${(nextId += 1)}`;
  const name = h('input', {
    class: 'input',
    id: `${id}-name`,
    name: 'name',
    maxlength: 100,
    autocomplete: 'off',
    value: request.appName,
  });
  const { approve, deny, decide } = decisionButtons(
    async (approved) => {
      if (!approved) {
        await admin.denyKeyRequest(request.code);
        return `Key request from ${request.appName} denied`;
      }
      const approval = approvalOf(form, request);
      if (typeof approval === 'string') throw new Error(approval);
      await admin.approveKeyRequest(request.code, approval);
      return `Approved: ${request.appName} receives its key`;
    },
    { submits: true },
  );
  const form = h(
    'form',
    { class: 'key-request-form', 'aria-label': `Key request from ${request.appName}` },
    request.toolsets ? toolsetsField(request.toolsets) : scopesField(request),
    h(
      'div',
      { class: 'key-request-bindings' },
      h(
        'div',
        { class: 'field' },
        h('label', { for: `${id}-name` }, 'Key name'),
        name,
        h('p', { class: 'hint' }, 'As listed under API keys.'),
      ),
      h(
        'div',
        { class: 'field' },
        h('label', { for: `${id}-user` }, 'Act as player'),
        playerOptions(request, status.worlds, `${id}-user`),
        h(
          'p',
          { class: 'hint' },
          request.userId ? 'It asked to act as this user.' : "Bind one: calls act with that player's permissions.",
        ),
      ),
      h(
        'div',
        { class: 'field' },
        h('span', { class: 'label' }, 'Worlds'),
        worldChoices(request, status.worlds),
        h(
          'p',
          { class: 'hint' },
          request.clientIds.length > 0 ? 'It asked for these worlds only.' : 'None ticked: every world.',
        ),
      ),
      askFirstField(),
    ),
    h(
      'div',
      { class: 'key-request-actions' },
      h('span', { class: 'muted small' }, 'The tool receives the key once, at its next check.'),
      denyAddressButton(request),
      deny,
      approve,
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void decide(true);
  });
  return h(
    'li',
    {
      class: 'key-request',
      'data-code': request.code,
      'data-expires-at': request.expiresAt,
      tabindex: -1,
      'aria-labelledby': `${id}-title`,
    },
    requestHeading(request, id),
    form,
  );
}

/** The waiting key requests, all of them or those `shown` picks (the AI assistants page shows assistants' only). */
export function keyRequestsSection(shown: (request: KeyRequest) => boolean = () => true): WaitingCardsSection {
  return waitingCardsSection({
    id: 'key-requests',
    hashKind: 'key-request',
    sectionClass: 'key-requests-card',
    listClass: 'key-requests',
    intro: 'Approve only a tool you just set up that shows the same code. Its key holds only what you tick.',
    iconName: 'keys',
    heading: (count) => (count === 1 ? 'A tool asks for an API key' : `${count} tools ask for API keys`),
    waiting: (status) => (status?.keyRequests ?? []).filter(shown),
    card: (request, status) => requestCard(request, status!),
  });
}
