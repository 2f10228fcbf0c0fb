// "Deny every request from this address": one click on a pair or key request's card denies all that wait from it and
// refuses new ones until the GM allows it again (the Status page lists the addresses) or the relay restarts.
import { admin } from '../admin-api.ts';
import { h, icon, toast } from '../dom.ts';
import { plural } from '../format.ts';

/** The button on a request's card; none for this computer, whose requests are the GM's own tools and browser. */
export function denyAddressButton(request: { source: string; fromThisComputer: boolean }): HTMLElement | null {
  if (request.fromThisComputer) return null;
  const button = h(
    'button',
    {
      type: 'button',
      class: 'button button-danger-outline',
      'data-action': 'deny-address',
      title: `Deny every pair and key request from ${request.source} until you allow it again or Tabletop Relay restarts`,
    },
    'Deny all from this address',
  );
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      const denied = await admin.denyAddress(request.source);
      const count = denied.pairRequestsDenied + denied.keyRequestsDenied;
      toast(`${denied.address} is refused: ${plural(count, 'request')} denied`);
    } catch (error) {
      button.disabled = false;
      toast((error as Error).message, 'error');
    }
  });
  return button;
}

function deniedRow(address: string): HTMLElement {
  const allow = h('button', { type: 'button', class: 'button button-secondary button-small' }, 'Allow again');
  allow.addEventListener('click', async () => {
    allow.disabled = true;
    try {
      await admin.allowAddress(address);
      toast(`${address} may ask again`);
    } catch (error) {
      allow.disabled = false;
      toast((error as Error).message, 'error');
    }
  });
  return h('li', { class: 'denied-address', 'data-address': address }, h('code', {}, address), allow);
}

/** The addresses denied, each with Allow again; nothing while none is. */
export function deniedAddressesSection(addresses: readonly string[]): HTMLElement | undefined {
  if (addresses.length === 0) return undefined;
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'denied-addresses-title', id: 'denied-addresses' },
    h(
      'div',
      { class: 'card-header' },
      h('h2', { id: 'denied-addresses-title' }, icon('warning'), 'Refused addresses'),
      h(
        'p',
        { class: 'muted' },
        'Pair and key requests from these addresses are refused until you allow them again or Tabletop Relay restarts.',
      ),
    ),
    h('ul', { class: 'denied-addresses' }, ...addresses.map(deniedRow)),
  );
}
