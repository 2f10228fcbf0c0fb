// Form controls the pages share: a labelled field, a segmented choice, a number input.
import { h } from '../dom.ts';

export function field(id: string, label: string, control: HTMLElement, hint?: string): HTMLElement {
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    control,
    hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null,
  );
}

export function segmented<T extends string>(
  name: string,
  label: string,
  values: readonly T[],
  labels: Record<T, string>,
  selected: T,
  onPick: (value: T) => void,
): HTMLElement {
  return h(
    'fieldset',
    { class: 'field segmented-field' },
    h('legend', { class: 'label' }, label),
    h(
      'div',
      { class: 'segmented' },
      ...values.map((value) => {
        const radio = h('input', { type: 'radio', name, value, checked: value === selected });
        radio.addEventListener('change', () => onPick(value));
        return h('label', { class: 'segment' }, radio, h('span', {}, labels[value]));
      }),
    ),
  );
}

export function numberInput(
  id: string,
  value: number,
  limits: { min: number; max: number },
  onValue: (value: number) => void,
): HTMLInputElement {
  const input = h('input', { class: 'input', type: 'number', id, name: id, ...limits, step: 1, value });
  input.addEventListener('input', () => {
    if (input.validity.valid && input.value !== '') onValue(Number(input.value));
  });
  return input;
}
