// The settings UI's pieces of page: icons, empty states and the like, built with the shared element builder.
import { h, type Child } from '../../web/dom.ts';

export { append, h, replaceChildren } from '../../web/dom.ts';

const ICONS: Record<string, string> = {
  status: '<path d="M3 12h4l3 8 4-16 3 8h4"/>',
  keys: '<circle cx="7.5" cy="15.5" r="4.5"/><path d="m10.7 12.3 9.3-9.3M16 7l3 3M14 9l2 2"/>',
  access: '<circle cx="12" cy="12" r="9"/><path d="M3 12h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18"/>',
  capture:
    '<rect x="3" y="6" width="18" height="14" rx="2"/><circle cx="12" cy="13" r="3.5"/><path d="M8 6l1.5-2h5L16 6"/>',
  activity: '<path d="M4 6h16M4 12h16M4 18h10"/>',
  copy: '<rect x="9" y="9" width="11" height="11" rx="2"/><path d="M5 15V5a2 2 0 0 1 2-2h8"/>',
  check: '<path d="m5 12 5 5L20 7"/>',
  plus: '<path d="M12 5v14M5 12h14"/>',
  world: '<path d="M12 2 21 7v10l-9 5-9-5V7z"/><path d="m3 7 9 5 9-5M12 12v10"/>',
  warning: '<path d="M12 3 2 21h20z"/><path d="M12 10v5M12 18v.5"/>',
  link: '<path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1"/><path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1"/>',
  pause: '<rect x="6" y="5" width="4" height="14" rx="1"/><rect x="14" y="5" width="4" height="14" rx="1"/>',
  folder: '<path d="M3 6a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z"/>',
  players:
    '<circle cx="9" cy="8" r="3.5"/><path d="M2.5 20a6.5 6.5 0 0 1 13 0"/><circle cx="17" cy="9" r="2.5"/><path d="M16 14a5 5 0 0 1 6 5"/>',
  overlays:
    '<rect x="2.5" y="4" width="19" height="13" rx="2"/><path d="M8 21h8M12 17v4"/><rect x="12.5" y="9.5" width="6" height="4.5" rx="1"/>',
  // One per overlay, named as the overlay.
  dice: '<rect x="4" y="4" width="16" height="16" rx="3.5"/><path d="M8.5 8.5h.01M15.5 15.5h.01M12 12h.01M15.5 8.5h.01M8.5 15.5h.01" stroke-width="2.6"/>',
  initiative: '<path d="M10 6h10M10 12h10M10 18h10"/><path d="m3.5 9 3 3-3 3"/>',
  'now-playing': '<path d="M9 18V5.5l11-2.5v13"/><circle cx="6" cy="18" r="3"/><circle cx="17" cy="16" r="3"/>',
  'character-card':
    '<rect x="3" y="5" width="18" height="14" rx="2"/><circle cx="9" cy="11" r="2.5"/><path d="M5.5 16.5a3.5 3.5 0 0 1 7 0M15 10h3M15 14h3"/>',
  'stream-deck':
    '<rect x="3" y="4.5" width="18" height="15" rx="3"/><rect x="6.5" y="8" width="4" height="3.5" rx="0.8"/><rect x="13.5" y="8" width="4" height="3.5" rx="0.8"/><rect x="6.5" y="13" width="4" height="3.5" rx="0.8"/><rect x="13.5" y="13" width="4" height="3.5" rx="0.8"/>',
  companion:
    '<rect x="2.5" y="6" width="19" height="12" rx="2.5"/><path d="M6.5 10h2M11 10h2M15.5 10h2M6.5 14h2M11 14h2M15.5 14h2"/>',
  download: '<path d="M12 4v11M7 10.5l5 4.5 5-4.5M5 20h14"/>',
  assistant:
    '<path d="M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9z"/><path d="M19 15l.8 2.2L22 18l-2.2.8L19 21l-.8-2.2L16 18l2.2-.8z"/>',
  chat: '<path d="M4 5h16v11H9.5L4 20z"/><path d="M8 9h8M8 12.5h5"/>',
};

export function icon(name: keyof typeof ICONS | string, className = 'icon'): SVGElement {
  const template = document.createElement('template');
  template.innerHTML = `<svg class="${className}" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round">${ICONS[name] ?? ''}</svg>`;
  return template.content.firstElementChild as SVGElement;
}

/** A polite announcement for screen readers and a short visible toast. */
/** A warning asks the GM to act (free disk space), so it stays long enough to be read. */
const TOAST_SHOWN_MS = { info: 3200, error: 3200, warning: 15_000 };

export function toast(message: string, kind: 'info' | 'error' | 'warning' = 'info'): void {
  const region = document.getElementById('toasts');
  if (!region) return;
  const item = h('div', { class: `toast toast-${kind}`, role: kind === 'info' ? 'status' : 'alert' }, message);
  region.append(item);
  setTimeout(() => item.classList.add('toast-leaving'), TOAST_SHOWN_MS[kind]);
  setTimeout(() => item.remove(), TOAST_SHOWN_MS[kind] + 400);
}

/** Says a revocation was done and, when the relay could not store it yet, what the GM must do about the disk. */
export function toastRevoked(done: string, answer: { warning?: string }): void {
  if (answer.warning) toast(`${done}. ${answer.warning}`, 'warning');
  else toast(done);
}

export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const field = h('textarea', { class: 'visually-hidden', readonly: true });
    field.value = text;
    document.body.append(field);
    field.select();
    const copied = document.execCommand('copy');
    field.remove();
    return copied;
  }
}

/** A Copy button that confirms for a moment. */
export function copyButton(
  text: () => string,
  label = 'Copy',
  options: { primary?: boolean; small?: boolean } = {},
): HTMLButtonElement {
  const classes = [
    'button',
    options.primary ? 'button-primary' : 'button-secondary',
    options.small ? 'button-small' : '',
  ];
  const button = h('button', { type: 'button', class: classes.join(' ').trim() }, icon('copy'), h('span', {}, label));
  button.addEventListener('click', async () => {
    const copied = await copyText(text());
    const span = button.querySelector('span');
    if (!span) return;
    span.textContent = copied ? 'Copied' : 'Copy failed';
    button.classList.toggle('is-done', copied);
    setTimeout(() => {
      span.textContent = label;
      button.classList.remove('is-done');
    }, 1600);
  });
  return button;
}

/** A modal confirmation, with what it is about below its message; resolves true when the GM confirms. */
export function confirmDialog(options: {
  title: string;
  message: string;
  confirm: string;
  danger?: boolean;
  details?: HTMLElement;
}): Promise<boolean> {
  return new Promise((resolve) => {
    const dialog = h(
      'dialog',
      { class: 'dialog', 'aria-labelledby': 'dialog-title' },
      h(
        'form',
        { method: 'dialog' },
        h('h2', { id: 'dialog-title' }, options.title),
        h('p', {}, options.message),
        options.details,
        h(
          'div',
          { class: 'dialog-actions' },
          h('button', { class: 'button button-secondary', value: 'cancel' }, 'Cancel'),
          h(
            'button',
            { class: `button ${options.danger ? 'button-danger' : 'button-primary'}`, value: 'confirm' },
            options.confirm,
          ),
        ),
      ),
    );
    dialog.addEventListener('close', () => {
      resolve(dialog.returnValue === 'confirm');
      dialog.remove();
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

export function emptyState(iconName: string, title: string, text: string, ...extra: Child[]): HTMLElement {
  return h(
    'div',
    { class: 'empty' },
    h('div', { class: 'empty-icon' }, icon(iconName)),
    h('h3', {}, title),
    h('p', {}, text),
    ...extra,
  );
}

/** A labelled switch; a change that fails flips it back and says why. */
export function toggle(
  id: string,
  label: string,
  checked: boolean,
  onChange: (on: boolean) => Promise<void>,
): HTMLElement {
  const input = h('input', { type: 'checkbox', role: 'switch', id, class: 'switch-input', checked });
  input.addEventListener('change', async () => {
    input.disabled = true;
    try {
      await onChange(input.checked);
    } catch (error) {
      input.checked = !input.checked;
      toast((error as Error).message, 'error');
    } finally {
      input.disabled = false;
    }
  });
  return h(
    'label',
    { class: 'switch', for: id },
    input,
    h('span', { class: 'switch-track', 'aria-hidden': 'true' }),
    h('span', { class: 'switch-label' }, label),
  );
}

/**
 * A password field for a secret the relay keeps sealed and never shows back: empty, saying whether one is stored, so
 * that leaving it empty keeps the stored one.
 */
export function secretInput(
  attributes: { name: string; id?: string },
  stored: boolean,
  empty: string,
): HTMLInputElement {
  return h('input', {
    class: 'input',
    type: 'password',
    autocomplete: 'new-password',
    ...attributes,
    placeholder: stored ? '•••••••• (saved; type to replace)' : empty,
  });
}
