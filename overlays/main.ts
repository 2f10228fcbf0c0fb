// The overlay pages' script, run in OBS's browser source. OBS 28–30 embed Chromium 103: this code is ES2020 only (the
// build's esbuild target is es2020 + chrome103 and fails on syntax it cannot lower, tsconfig.overlays.json allows only
// ES2020's library), and overlay.css avoids CSS nesting, :has(), container queries and other post-103 features (the
// build checks it). World data goes into the page as text only, never as HTML.
import {
  isOverlayName,
  type OverlayOptions,
  type OverlayPageConfig,
  type OverlayPosition,
} from '../contracts/overlays.ts';
import { createCharacterCard } from './character-card.ts';
import { createChatTicker } from './chat.ts';
import { followOverlay } from './connection.ts';
import { createDiceFeed } from './dice.ts';
import { element } from './dom.ts';
import { createInitiative } from './initiative.ts';
import { createNowPlaying } from './now-playing.ts';
import type { OverlaySetup, OverlayView } from './overlay-view.ts';

function readConfig(): OverlayPageConfig | undefined {
  const source = document.getElementById('overlay-config')?.textContent;
  if (!source) return undefined;
  try {
    const config = JSON.parse(source) as OverlayPageConfig;
    return isOverlayName(config.overlay) && config.options ? config : undefined;
  } catch {
    return undefined;
  }
}

/** `#rrggbb` as `r, g, b`, for the translucent accents (rgba) that Chromium 103 cannot mix from a colour itself. */
function rgbOf(hex: string): string | undefined {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  return match
    ? match
        .slice(1)
        .map((pair) => parseInt(pair, 16))
        .join(', ')
    : undefined;
}

function applyOptions(overlay: string, options: OverlayOptions, customCss: string): void {
  const position: OverlayPosition = options.position;
  document.body.classList.add('overlay', `overlay-${overlay}`, `theme-${options.theme}`, `position-${position}`);
  const root = document.documentElement.style;
  const rgb = rgbOf(options.accent);
  if (rgb) {
    root.setProperty('--accent', options.accent);
    root.setProperty('--accent-rgb', rgb);
  }
  if (options.fontSize > 0) root.setProperty('--font-size', `${options.fontSize}px`);
  if (customCss) {
    const style = document.createElement('style');
    style.textContent = customCss;
    document.head.append(style);
  }
}

function createView(config: OverlayPageConfig, setup: OverlaySetup): OverlayView<unknown, unknown> {
  switch (config.overlay) {
    case 'dice':
      return createDiceFeed(setup);
    case 'initiative':
      return createInitiative(setup);
    case 'now-playing':
      return createNowPlaying(setup);
    case 'character-card':
      return createCharacterCard(setup, config.sheetUrl);
    case 'chat':
      return createChatTicker(setup);
  }
}

function start(): void {
  const config = readConfig();
  if (!config) return;
  applyOptions(config.overlay, config.options, config.customCss);
  const root = element('main', 'overlay-root');
  document.body.append(root);
  const view = createView(config, { root, options: config.options });
  followOverlay(config, {
    onState: (state) => view.show(state),
    onItem: (item) => view.add(item),
    onGone: () => view.clear(),
  });
}

start();
