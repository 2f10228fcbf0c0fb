// The key presets (contracts/scopes.ts) as buttons that tick a form's scope boxes: in the New API key form, and on a
// tool's key request, where a preset ticks only what the tool asked for.
import { KEY_PRESETS } from '../../contracts/scopes.ts';
import { h } from './dom.ts';

export interface PresetPicker {
  element: HTMLElement;
  /** Presses the button of the preset the ticked boxes match, whoever ticked them. */
  sync(): void;
}

/**
 * One button per preset: a press ticks exactly the preset's scopes among the boxes (never more than they offer), and
 * `onChange` follows. A preset none of whose scopes is offered cannot be pressed. `compact` leaves the descriptions to
 * the buttons' tooltips.
 */
export function presetPicker(
  boxes: () => HTMLInputElement[],
  onChange: () => void,
  { compact = false } = {},
): PresetPicker {
  // Where presets grant the same among the boxes (a request that asked for little), the one the GM pressed shows
  // pressed; unpressed, only a preset offered whole does.
  let chosen: string | undefined;
  const grants = (scopes: readonly string[]) =>
    boxes()
      .filter((box) => scopes.includes(box.value))
      .map((box) => box.value);
  const buttons = KEY_PRESETS.map((preset) => {
    const button = h(
      'button',
      {
        type: 'button',
        class: compact ? 'preset preset-compact' : 'preset',
        'data-preset': preset.id,
        'aria-pressed': 'false',
        title: preset.description,
      },
      h('strong', {}, preset.title),
      compact ? null : h('span', { class: 'preset-description' }, preset.description),
    );
    button.addEventListener('click', () => {
      for (const box of boxes()) box.checked = (preset.scopes as readonly string[]).includes(box.value);
      chosen = preset.id;
      sync();
      onChange();
    });
    return { id: preset.id, scopes: preset.scopes as readonly string[], button };
  });
  const sync = () => {
    const ticked = boxes()
      .filter((box) => box.checked)
      .map((box) => box.value)
      .sort()
      .join();
    const matching = buttons.filter(({ scopes }) => {
      const granted = grants(scopes);
      return granted.length > 0 && granted.sort().join() === ticked;
    });
    const shown =
      matching.find(({ id }) => id === chosen) ??
      matching.find(({ scopes }) => grants(scopes).length === scopes.length);
    for (const { scopes, button } of buttons) {
      button.disabled = grants(scopes).length === 0;
      button.setAttribute('aria-pressed', String(button === shown?.button));
    }
  };
  const element = h(
    'div',
    { class: compact ? 'preset-choices preset-choices-compact' : 'preset-choices', role: 'group' },
    ...buttons.map(({ button }) => button),
  );
  return { element, sync };
}
