// Functions that run inside the Foundry page. Each is sent as source text, so each stands alone: no imports,
// no helpers from outside its own body, JSON in and out.
/* eslint-disable @typescript-eslint/no-explicit-any */

export interface LoginInput {
  username: string;
  password: string;
}

export type LoginOutcome =
  | { state: 'joined'; redirect: string }
  | { state: 'in-game' }
  | { state: 'admin-password' }
  | { state: 'failed'; error: string; reason: LoginRefusal };

/** Why Foundry's login did not let the user in: the page never came, no such user, the user is in already, or a refusal. */
export type LoginRefusal = 'no-login-page' | 'unknown-user' | 'user-busy' | 'refused';

/**
 * On Foundry's /join page: picks the user by name and posts `/join` from the page (module-protocol.md §7.3),
 * bypassing the form so that an empty password is sent too.
 */
export async function joinFoundry(input: LoginInput): Promise<LoginOutcome> {
  const deadline = Date.now() + 30_000;
  while (!document.querySelector('input[name="password"]')) {
    if ((globalThis as any).game?.ready || document.querySelector('#ui-left, #sidebar, #game, .vtt'))
      return { state: 'in-game' };
    if (document.querySelector('input[name="adminPassword"]')) return { state: 'admin-password' };
    if (Date.now() > deadline)
      return { state: 'failed', error: 'The Foundry login page did not appear', reason: 'no-login-page' };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const select = document.querySelector('select[name="userid"]') as HTMLSelectElement | null;
  let userid = input.username;
  if (select) {
    const wanted = input.username.trim().toLowerCase();
    const option = [...select.options].find(
      (candidate) => candidate.text.trim().toLowerCase() === wanted || candidate.value === input.username,
    );
    if (!option) return { state: 'failed', error: `No Foundry user named '${input.username}'`, reason: 'unknown-user' };
    if (option.disabled) {
      const error = `Foundry user '${input.username}' is already logged in elsewhere`;
      return { state: 'failed', error, reason: 'user-busy' };
    }
    userid = option.value;
  }
  const response = await fetch('/join', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ action: 'join', userid, password: input.password }),
  });
  const answer = (await response.json().catch(() => ({}))) as {
    status?: string;
    redirect?: string;
    error?: string;
    message?: string;
  };
  if (!response.ok || answer.status !== 'success') {
    return {
      state: 'failed',
      error: answer.error ?? answer.message ?? `Foundry refused the login (HTTP ${response.status})`,
      reason: 'refused',
    };
  }
  return { state: 'joined', redirect: answer.redirect ?? '/game' };
}

/** On Foundry's administrator page (`/auth`, shown while no world is launched): posts the administrator password. */
export async function passAdminPage(adminPassword: string): Promise<{ ok: true } | { ok: false; error: string }> {
  const response = await fetch('/auth', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ action: 'adminAuth', adminPassword }),
  });
  const answer = (await response.json().catch(() => ({}))) as { status?: string; error?: string; message?: string };
  if (response.ok && answer.status === 'success') return { ok: true };
  return { ok: false, error: answer.error ?? answer.message ?? `HTTP ${response.status}` };
}

export interface GameFacts {
  version: string;
  userName: string;
  userRole: number;
  /** The world setting `foundry-rest-api.clientId`: the client id the world paired with. */
  clientId: string;
  worldId: string;
  worldTitle: string;
  systemId: string;
  systemTitle: string;
  systemVersion: string;
  /** Whether the foundry-rest-api module is enabled in this world: without it no page connects to a relay. */
  moduleActive: boolean;
}

/** Waits until `game.ready` and says who is logged in to which world; null if it never gets ready. */
export async function waitForGame(timeoutMs: number): Promise<GameFacts | null> {
  const deadline = Date.now() + timeoutMs;
  const g = () => (globalThis as any).game;
  while (!g()?.ready) {
    if (Date.now() > deadline) return null;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const game = g();
  let clientId: string;
  try {
    clientId = String(game.settings.get('foundry-rest-api', 'clientId') ?? '');
  } catch {
    clientId = '';
  }
  return {
    version: String(game.version ?? game.release?.version ?? ''),
    userName: String(game.user?.name ?? ''),
    userRole: Number(game.user?.role ?? 0),
    clientId,
    worldId: String(game.world?.id ?? ''),
    worldTitle: String(game.world?.title ?? ''),
    systemId: String(game.system?.id ?? ''),
    systemTitle: String(game.system?.title ?? ''),
    systemVersion: String(game.system?.version ?? ''),
    moduleActive: game.modules?.get?.('foundry-rest-api')?.active === true,
  };
}

/**
 * Foundry's client settings that make a page that nobody looks at cheap: no game canvas (Foundry's "Disable Game
 * Canvas", kept in localStorage) and every volume at zero. Read when the game page loads.
 */
export function quietClientSettings(): void {
  for (const [key, value] of [
    ['core.noCanvas', true],
    ['core.globalPlaylistVolume', 0],
    ['core.globalAmbientVolume', 0],
    ['core.globalInterfaceVolume', 0],
  ] as const)
    localStorage.setItem(key, JSON.stringify(value));
}

/** Stores the connection token where the module reads it (module-protocol.md §3.6). */
export function seedConnectionToken(token: string): void {
  localStorage.setItem('foundry-rest-api.connectionToken', JSON.stringify(token));
}

export interface SheetTarget {
  uuid?: string;
  selected?: boolean;
  actor?: boolean;
  userId?: string;
  /** Any observable actor (the settings UI's test capture). */
  anyActor?: boolean;
}

export type OpenedSheet =
  { box: { x: number; y: number; width: number; height: number }; handle: string } | { error: string };

/**
 * Resolves the document, checks that the requesting user may observe it, renders its sheet (v12: jQuery element,
 * sync render; v13+: HTMLElement, awaited render), pins it to the top-left corner and measures its full box. Long
 * because the page receives it as one source text: it can call no helper outside its own body.
 */
export async function openSheet(target: SheetTarget): Promise<OpenedSheet> {
  const g = (globalThis as any).game;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  let user: any = null;
  if (target.userId) {
    const wanted = target.userId.toLowerCase();
    user =
      g.users.get(target.userId) ??
      g.users.find((candidate: any) => String(candidate.name).toLowerCase() === wanted) ??
      null;
    if (!user) return { error: `User not found: ${target.userId}` };
  }
  let entity: any = null;
  if (target.uuid) {
    entity = await (globalThis as any).fromUuid(target.uuid).catch(() => null);
  } else if (target.selected) {
    const token = (globalThis as any).canvas?.tokens?.controlled?.[0];
    entity = target.actor ? (token?.actor ?? null) : (token?.document ?? null);
  } else if (target.anyActor) {
    entity = g.actors.contents.find((actor: any) => actor.testUserPermission(g.user, 'OBSERVER')) ?? null;
  }
  if (user && entity && !entity.testUserPermission(user, 'OBSERVER')) {
    return { error: `User '${user.name}' does not have permission to view this sheet` };
  }
  if (!entity) return { error: 'Entity not found' };
  const sheet = entity.sheet;
  if (!sheet) return { error: 'Actor has no sheet' };
  const generation = Number(g.release?.generation ?? String(g.version).split('.')[0]);
  if (generation >= 13) await sheet.render({ force: true });
  else sheet.render(true);
  const elementOf = (): HTMLElement | null => {
    const element = sheet.element;
    if (!element) return null;
    return element instanceof HTMLElement ? element : (element[0] ?? null);
  };
  const deadline = Date.now() + 3000;
  while (!elementOf()?.isConnected) {
    if (Date.now() > deadline) return { error: 'Failed to capture sheet screenshot' };
    await sleep(20);
  }
  const element = elementOf()!;
  const images = [...element.querySelectorAll('img')].filter((image) => !image.complete);
  await Promise.race([
    Promise.all(
      images.map(
        (image) =>
          new Promise((resolve) => {
            image.addEventListener('load', resolve, { once: true });
            image.addEventListener('error', resolve, { once: true });
          }),
      ),
    ),
    sleep(2000),
  ]);
  await document.fonts?.ready;
  Object.assign(element.style, {
    position: 'fixed',
    left: '0px',
    top: '0px',
    right: 'auto',
    bottom: 'auto',
    margin: '0px',
    transform: 'none',
    width: 'auto',
    height: 'auto',
    maxWidth: 'none',
    maxHeight: 'none',
    overflow: 'visible',
    zIndex: '2147483647',
    transition: 'none',
    animation: 'none',
  });
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const frame = element.getBoundingClientRect();
  let right = frame.left + Math.max(element.offsetWidth, element.scrollWidth, frame.width);
  let bottom = frame.top + Math.max(element.offsetHeight, element.scrollHeight, frame.height);
  for (const descendant of element.querySelectorAll('*')) {
    const box = descendant.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    right = Math.max(right, box.right);
    bottom = Math.max(bottom, box.bottom);
  }
  const registry = ((globalThis as any).__tabletopRelaySheets ??= new Map<string, unknown>());
  const handle = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  registry.set(handle, sheet);
  const x = Math.floor(frame.left);
  const y = Math.floor(frame.top);
  return { box: { x, y, width: Math.ceil(right) - x, height: Math.ceil(bottom) - y }, handle };
}

/** Closes a sheet `openSheet` rendered, without its closing animation. */
export async function closeSheet(handle: string): Promise<void> {
  const registry = (globalThis as any).__tabletopRelaySheets as Map<string, any> | undefined;
  const sheet = registry?.get(handle);
  registry?.delete(handle);
  await sheet?.close({ animate: false });
}
