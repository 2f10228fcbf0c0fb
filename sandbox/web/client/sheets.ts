// Document sheets as the two client generations render them: v12 (Application, jQuery `element`, render(true)
// returning at once and drawing on a later tick) and v13 (ApplicationV2, HTMLElement `element`, awaited render).
import { sheetBoxOf } from '../../images/sheet-painter.ts';
import { OWNERSHIP, type WorldDocument } from '../../world/document.ts';
import { getProperty } from '../../world/objects.ts';
import type { Flavour } from '../flavour.ts';

export interface DocumentSheet {
  readonly rendered: boolean;
  render(options?: unknown): unknown;
  close(options?: unknown): Promise<unknown>;
}

const WINDOW_POSITION = { left: 140, top: 70 };

function escapeHtml(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function imagePath(path: string | null): string {
  if (!path) return '/icons/svg/mystery-man.svg';
  return path.startsWith('/') || /^https?:/.test(path) ? path : `/${path}`;
}

function abilitiesHtml(document: WorldDocument): string {
  const abilities = getProperty(document.source, 'system.abilities') as Record<string, { value?: number }> | undefined;
  if (!abilities) return '';
  const cells = Object.entries(abilities).map(
    ([key, ability]) =>
      `<div class="ability"><span>${escapeHtml(key.toUpperCase())}</span><b>${escapeHtml(ability.value ?? 10)}</b></div>`,
  );
  return `<div class="abilities">${cells.join('')}</div>`;
}

function hitPointsHtml(document: WorldDocument): string {
  const hp = getProperty(document.source, 'system.attributes.hp') as { value?: number; max?: number } | undefined;
  if (!hp?.max) return '';
  const share = Math.max(0, Math.min(1, (hp.value ?? 0) / hp.max));
  return `<div class="hit-points" title="${escapeHtml(hp.value)} / ${escapeHtml(hp.max)}"><div class="value" style="width:${(share * 100).toFixed(1)}%"></div></div>`;
}

function itemsHtml(document: WorldDocument): string {
  if (document.documentName !== 'Actor') return '';
  const rows = document
    .collection('Item')
    .contents.slice(0, 12)
    .map(
      (item) => `<li><img src="${escapeHtml(imagePath(item.img))}" alt=""><span>${escapeHtml(item.name)}</span></li>`,
    );
  return `<ul class="items">${rows.join('')}</ul>`;
}

/** The sheet's inner markup, sized to `sheetBoxOf` (the same box the world's own sheet painter uses). */
export function sheetFrameHtml(document: WorldDocument): string {
  const box = sheetBoxOf(document);
  const subtitle = [document.documentName, document.type].filter(Boolean).join(' · ');
  return `<div class="sandbox-frame" style="width:${box.width}px;height:${box.height}px">
  <header class="window-header"><h4 class="window-title">${escapeHtml(document.name)}</h4></header>
  <section class="window-content">
    <div class="sheet-banner"><img class="profile" src="${escapeHtml(imagePath(document.img))}" alt=""><div><h1>${escapeHtml(document.name)}</h1><div class="subtitle">${escapeHtml(subtitle)}</div></div></div>
    <div class="sheet-swatch"></div>
    ${abilitiesHtml(document)}${hitPointsHtml(document)}${itemsHtml(document)}
  </section>
</div>`;
}

function createWindow(document: WorldDocument, classes: string): HTMLElement {
  const element = globalThis.document.createElement('div');
  element.className = `${classes} sandbox-sheet ${document.documentName.toLowerCase()}`;
  element.id = `${document.documentName.toLowerCase()}-sheet-${document.id}`;
  const box = sheetBoxOf(document);
  Object.assign(element.style, {
    left: `${WINDOW_POSITION.left}px`,
    top: `${WINDOW_POSITION.top}px`,
    width: `${box.width}px`,
    height: `${box.height}px`,
    zIndex: '100',
  });
  element.innerHTML = sheetFrameHtml(document);
  return element;
}

/** What v12 hands out as `app.element`: a jQuery object, read as `element[0]`. */
interface JQueryLike {
  readonly 0: HTMLElement;
  readonly length: 1;
}

class SheetV12 implements DocumentSheet {
  element: JQueryLike | null = null;
  readonly #document: WorldDocument;

  constructor(document: WorldDocument) {
    this.#document = document;
  }

  get rendered(): boolean {
    return this.element !== null;
  }

  /** Returns the application at once and draws on a later tick, as v12's Application#render does. */
  render(force?: boolean): this {
    if (!force && !this.rendered) return this;
    setTimeout(() => {
      const element = createWindow(this.#document, 'app window-app sheet');
      this.element?.[0].remove();
      globalThis.document.body.append(element);
      this.element = { 0: element, length: 1 };
    }, 30);
    return this;
  }

  async close(): Promise<this> {
    this.element?.[0].remove();
    this.element = null;
    return this;
  }
}

class SheetV13 implements DocumentSheet {
  element: HTMLElement | null = null;
  readonly #document: WorldDocument;

  constructor(document: WorldDocument) {
    this.#document = document;
  }

  get rendered(): boolean {
    return this.element !== null;
  }

  async render(options?: boolean | { force?: boolean }): Promise<this> {
    const force = options === true || (typeof options === 'object' && options?.force === true);
    if (!force && !this.rendered) return this;
    await new Promise((resolve) => setTimeout(resolve, 10));
    const element = createWindow(this.#document, 'application sheet');
    this.element?.remove();
    globalThis.document.body.append(element);
    this.element = element;
    return this;
  }

  async close(): Promise<this> {
    this.element?.remove();
    this.element = null;
    return this;
  }
}

export function createSheet(document: WorldDocument, flavour: Flavour): DocumentSheet {
  return flavour === 'v12' ? new SheetV12(document) : new SheetV13(document);
}

/** Foundry's level names for testUserPermission. */
export function ownershipLevel(level: string | number): number {
  if (typeof level === 'number') return level;
  return OWNERSHIP[level as keyof typeof OWNERSHIP] ?? OWNERSHIP.OWNER;
}
