// The chat ticker: recent public messages, speaker and text, as a feed that fades out.
import type { ChatLineView } from '../contracts/overlays.ts';
import { element, text } from './dom.ts';
import { createFeed } from './feed.ts';
import type { OverlaySetup, OverlayView } from './overlay-view.ts';

function chatLine(line: ChatLineView): HTMLElement {
  return element(
    'li',
    'card chat-line',
    element('span', 'accent-bar'),
    element('div', 'chat-body', text('span', 'who', line.who), text('span', 'chat-text', line.text)),
  );
}

export function createChatTicker(setup: OverlaySetup): OverlayView<ChatLineView[], ChatLineView> {
  return createFeed(setup, chatLine);
}
