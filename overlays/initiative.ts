// Initiative: the active combat's order from the current turn on, the round, and HP bars where the link allows them.
import type { CombatantView, InitiativeView } from '../contracts/overlays.ts';
import { element, meter, text } from './dom.ts';
import type { OverlaySetup, OverlayView } from './overlay-view.ts';

/** The combatants shown: all of them in order, or, when more than `max`, `max` of them from the current turn on. */
function visible(view: InitiativeView, max: number): { combatant: CombatantView; index: number }[] {
  const all = view.combatants.map((combatant, index) => ({ combatant, index }));
  if (all.length <= max) return all;
  const start = Math.min(Math.max(view.turn, 0), all.length - 1);
  return [...all.slice(start), ...all.slice(0, start)].slice(0, max);
}

function row(combatant: CombatantView, current: boolean, startsTurn: boolean): HTMLElement {
  const classes = ['combatant'];
  if (current) classes.push('current');
  if (startsTurn) classes.push('entering');
  if (combatant.defeated) classes.push('defeated');
  const main = element('span', 'combatant-main', text('span', 'name', combatant.name));
  if (combatant.hp) main.append(meter(combatant.hp.value, combatant.hp.max, 'meter hp'));
  const entry = element(
    'li',
    classes.join(' '),
    text('span', 'initiative-value', combatant.initiative === null ? '–' : combatant.initiative),
    main,
  );
  entry.dataset.id = combatant.id;
  return entry;
}

export function createInitiative({ root, options }: OverlaySetup): OverlayView<InitiativeView> {
  let currentTurn = '';
  const clear = (): void => {
    currentTurn = '';
    root.replaceChildren();
  };
  return {
    show(view) {
      if (!view.active || view.combatants.length === 0) return clear();
      const current = view.combatants[view.turn];
      const turnKey = `${view.round}:${current?.id ?? ''}`;
      const startsTurn = turnKey !== currentTurn;
      currentTurn = turnKey;
      const rows = visible(view, options.max).map(({ combatant, index }) =>
        row(combatant, index === view.turn, startsTurn && index === view.turn),
      );
      const head = element(
        'header',
        'panel-head',
        text('span', 'panel-label', 'Initiative'),
        text('span', 'round', `Round ${view.round}`),
      );
      root.replaceChildren(element('section', 'card initiative', head, element('ol', 'combatants', ...rows)));
    },
    add() {},
    clear,
  };
}
