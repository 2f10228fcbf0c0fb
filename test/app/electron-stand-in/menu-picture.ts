// How the stand-in shows a context menu. Electron hands the menu to the system, which draws it with its own widgets; the
// stand-in draws the same items (labels read as Electron reads them, ticks, separators, greyed-out items, submenu
// arrows, hidden items left out) in a page of its Chromium, so a test can look at what the GM would see.
import type { Browser } from 'puppeteer-core';
import type { Menu, MenuItem } from './desktop.ts';

const STYLE = `
  body { margin: 0; padding: 8px; background: #3c3f41; font: 14px system-ui, sans-serif; }
  ul { display: inline-block; margin: 0; padding: 4px 0; list-style: none; min-width: 240px;
       background: #fafafa; color: #1f1f1f; border: 1px solid #b8b8b8; box-shadow: 0 4px 12px #0006; }
  li { display: flex; gap: 8px; padding: 5px 16px 5px 8px; white-space: nowrap; }
  li.disabled { color: #8a8a8a; }
  li.separator { padding: 0; margin: 4px 0; border-top: 1px solid #d6d6d6; }
  .tick { width: 14px; text-align: center; }
  .label { flex: 1; }
`;

function escaped(text: string): string {
  return text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);
}

/**
 * A label as Electron shows it: `&&` is one `&`, and a single `&` marks the next letter as the access key, which menus
 * show only while Alt is held (https://github.com/electron/electron/issues/9584), so it is left out.
 */
function shownLabel(label: string): string {
  return label.replace(/&(&?)/g, '$1');
}

function itemMarkup(item: MenuItem): string {
  if (item.type === 'separator') return '<li class="separator" role="separator"></li>';
  const ticked = (item.type === 'checkbox' || item.type === 'radio') && item.checked;
  const arrow = item.submenu ? '<span>▸</span>' : '';
  return (
    `<li class="${item.enabled ? 'enabled' : 'disabled'}" role="menuitem">` +
    `<span class="tick">${ticked ? '✓' : ''}</span><span class="label">${escaped(shownLabel(item.label))}</span>${arrow}</li>`
  );
}

export function menuMarkup(menu: Menu): string {
  const items = menu.items.filter((item) => item.visible).map(itemMarkup);
  return `<!doctype html><style>${STYLE}</style><ul role="menu">${items.join('')}</ul>`;
}

/** Draws the menu, saves its PNG at `path` and answers its lines as shown: "✓ " before a ticked one, " (greyed)" after
 * one that cannot be pressed. */
export async function pictureMenu(browser: Browser, menu: Menu, path: string): Promise<string[]> {
  const page = await browser.newPage();
  try {
    await page.setContent(menuMarkup(menu));
    const list = (await page.$('ul'))!;
    await list.screenshot({ path: path as `${string}.png` });
    return await page.$$eval('li[role="menuitem"]', (items) =>
      items.map((item) => {
        const line = (item.textContent ?? '').replace(/^✓/, '✓ ');
        return item.classList.contains('disabled') ? `${line} (greyed)` : line;
      }),
    );
  } finally {
    await page.close();
  }
}
