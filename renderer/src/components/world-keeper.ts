// A paired world's keeper on the Status page: the "Keep online" switch, what the keeper is doing, its Foundry user and
// passwords (never shown back), the Test button that says in words whether it can log in, and its last changes.
import { admin, type KnownWorld } from '../admin-api.ts';
import { h, replaceChildren, secretInput, toast, toggle } from '../dom.ts';
import { clockTime } from '../format.ts';
import { keepingText, type KeeperPhase, type KeeperView } from '../../../contracts/keeper.ts';

const PHASE_TONE: Record<KeeperPhase, string> = {
  off: 'pill-muted',
  browser: 'pill-success',
  kept: 'pill-success',
  starting: 'pill-warning',
  waiting: 'pill-warning',
  retrying: 'pill-warning',
  stopped: 'pill-danger',
};

const HOW_TO_MAKE_THE_USER =
  "In Foundry, as the GM: Game Settings → User Management → Create User, named for example “Tabletop Relay”, with the Gamemaster role and a password of its own. Only a Gamemaster's browser connects the module; the keeper never uses your own user.";

export interface KeeperHandlers {
  /** The keeper changed on the relay: draw the list again. */
  changed(): Promise<void>;
  /** A form opened or closed; the list is not redrawn under an open one. */
  editing(open: boolean): void;
}

/** The line that says how the world is online, kept counting down while the keeper waits to try again. */
export function keepingLine(keeper: KeeperView, connected: boolean): HTMLElement {
  const line = h(
    'span',
    { class: `pill ${PHASE_TONE[keeper.phase]} keeper-state`, 'data-keeper-phase': keeper.phase },
    keepingText(keeper, connected, new Date()),
  );
  if (keeper.retryAt) {
    line.dataset.retryAt = keeper.retryAt;
    line.dataset.connected = String(connected);
  }
  return line;
}

/** Redraws the countdowns ("Retry in 12 s") of the keeper lines under `root`. */
export function tickKeeperLines(root: ParentNode, keepers: ReadonlyMap<string, KeeperView>): void {
  for (const line of root.querySelectorAll<HTMLElement>('.keeper-state[data-retry-at]')) {
    const keeper = keepers.get(line.closest<HTMLElement>('[data-client-id]')?.dataset.clientId ?? '');
    if (keeper) line.textContent = keepingText(keeper, line.dataset.connected === 'true', new Date());
  }
}

function transitionsList(keeper: KeeperView): HTMLElement | null {
  if (keeper.transitions.length === 0) return null;
  return h(
    'details',
    { class: 'keeper-transitions' },
    h('summary', {}, 'Last changes'),
    h(
      'ol',
      {},
      ...keeper.transitions.map((transition) =>
        h(
          'li',
          {},
          h('time', { datetime: transition.at }, clockTime(transition.at)),
          ' ',
          keepingText({ ...keeper, ...transition, retryAt: undefined }, transition.phase === 'browser', new Date()),
        ),
      ),
    ),
  );
}

export function keeperBlock(world: KnownWorld, name: string, handlers: KeeperHandlers, openForm: boolean): HTMLElement {
  const keeper = world.keeper!;
  const message = h('p', { class: 'keeper-message small', role: 'status', hidden: true });
  const say = (text: string | undefined, tone: 'info' | 'error' = 'info') => {
    message.textContent = text ?? '';
    message.hidden = text === undefined;
    message.classList.toggle('field-error', tone === 'error');
  };
  const settings = h('div', { class: 'keeper-settings' });
  const showSummary = () => {
    const edit = h(
      'button',
      { type: 'button', class: 'button button-link', 'data-action': 'keeper-settings' },
      keeper.username ? 'Change' : 'Set up',
    );
    edit.addEventListener('click', () => showForm());
    replaceChildren(
      settings,
      keeper.username
        ? h('span', {}, 'Logs in as ', h('strong', {}, keeper.username), keeper.passwordSet ? '' : ' (no password yet)')
        : h('span', { class: 'muted' }, 'No Foundry user set'),
      edit,
    );
  };
  const showForm = (why?: string) => {
    handlers.editing(true);
    const field = (label: string, input: HTMLInputElement) =>
      h('label', { class: 'field' }, h('span', {}, label), input);
    const username = h('input', { class: 'input', name: 'keeperUsername', autocomplete: 'off' });
    username.value = keeper.username;
    const password = secretInput({ name: 'keeperPassword' }, keeper.passwordSet, '');
    const adminPassword = secretInput({ name: 'foundryAdminPassword' }, keeper.adminPasswordSet, 'Optional');
    const typed = () => ({
      keeperUsername: username.value.trim() || undefined,
      keeperPassword: password.value === '' ? undefined : password.value,
    });
    const save = h('button', { type: 'submit', class: 'button button-primary button-small' }, 'Save');
    const test = h(
      'button',
      { type: 'button', class: 'button button-secondary button-small', 'data-action': 'keeper-test' },
      'Test',
    );
    const cancel = h('button', { type: 'button', class: 'button button-secondary button-small' }, 'Cancel');
    const close = () => {
      showSummary();
      handlers.editing(false);
    };
    cancel.addEventListener('click', close);
    test.addEventListener('click', async () => {
      test.disabled = true;
      say('Logging in to Foundry…');
      try {
        const result = await admin.testKeeper(world.clientId, typed());
        say(result.message, result.ok ? 'info' : 'error');
      } catch (failure) {
        say((failure as Error).message, 'error');
      } finally {
        test.disabled = false;
      }
    });
    const form = h(
      'form',
      { class: 'keeper-form', novalidate: true },
      why ? h('p', { class: 'banner banner-warning', role: 'alert' }, why) : null,
      h('p', { class: 'muted small' }, HOW_TO_MAKE_THE_USER),
      field('Foundry user', username),
      field('Password', password),
      field("Foundry's administrator password, to launch the world from Foundry's setup screen", adminPassword),
      h('div', { class: 'keeper-form-actions' }, save, test, cancel),
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      save.disabled = true;
      try {
        await admin.setKeeper(world.clientId, {
          ...typed(),
          ...(adminPassword.value === '' ? {} : { foundryAdminPassword: adminPassword.value }),
        });
        toast(`Keeper of ${name} saved`);
        close();
        await handlers.changed();
      } catch (failure) {
        save.disabled = false;
        say((failure as Error).message, 'error');
      }
    });
    replaceChildren(settings, form);
    username.focus();
  };

  const switchOn = async (on: boolean) => {
    if (on && (!world.foundryUrl || !keeper.username || !keeper.passwordSet)) {
      showForm(
        !world.foundryUrl
          ? "Set the world's Foundry address first (above), then the keeper's user"
          : 'Give the keeper a Foundry user of its own and its password, then switch it on',
      );
      throw new Error('The keeper needs its settings first');
    }
    await admin.setKeeper(world.clientId, { keepOnline: on });
    toast(on ? `Keeping ${name} online` : `${name} is no longer kept online`);
    await handlers.changed();
  };

  if (openForm) queueMicrotask(() => showForm());
  else showSummary();
  return h(
    'div',
    { class: 'keeper' },
    h(
      'div',
      { class: 'keeper-head' },
      toggle(`keep-online-${world.clientId}`, 'Keep online', keeper.enabled, switchOn),
      keepingLine(keeper, world.connected),
    ),
    settings,
    message,
    transitionsList(keeper),
  );
}
