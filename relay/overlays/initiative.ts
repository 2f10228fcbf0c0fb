// Initiative: the active combat in turn order, hidden combatants left out, HP only where the link allows it.
import type { CombatantView, InitiativeView } from '../../contracts/overlays.ts';
import type { RelayServices } from '../services.ts';
import { inTurnOrder } from '../world-data/turn-order.ts';
import { hitPointsOf } from './hit-points.ts';
import { fieldsOf, listOf, numberOf, textOf } from '../objects.ts';
import { askWorld, type Fields, type OverlayViewer } from './world.ts';

export const NO_COMBAT: InitiativeView = { active: false, round: 0, turn: -1, combatants: [] };

export async function initiativeView(services: RelayServices, viewer: OverlayViewer): Promise<InitiativeView> {
  const reply = await askWorld(services, viewer, 'encounters');
  const combat = listOf(reply.encounters).find((encounter) => encounter.current === true);
  // A combat set up but not begun (round 0) has no order to show yet.
  if (!combat || !((numberOf(combat.round) ?? 0) > 0)) return NO_COMBAT;
  const ordered = inTurnOrder(listOf(combat.combatants));
  const current = ordered[numberOf(combat.turn) ?? -1];
  const shown = ordered.filter((combatant) => combatant.hidden !== true);
  const combatants = await Promise.all(
    shown.map((combatant) => combatantView(combatant, viewer.hpBars ? services : undefined, viewer)),
  );
  return {
    active: true,
    round: numberOf(combat.round)!,
    turn: current ? shown.indexOf(current) : -1,
    combatants,
  };
}

async function combatantView(
  combatant: Fields,
  services: RelayServices | undefined,
  viewer: OverlayViewer,
): Promise<CombatantView> {
  const view: CombatantView = {
    id: textOf(combatant.id),
    name: textOf(combatant.name),
    initiative: numberOf(combatant.initiative) ?? null,
    defeated: combatant.defeated === true,
  };
  const actorUuid = textOf(combatant.actorUuid);
  if (!services || actorUuid === '') return view;
  const hp = await actorHitPoints(services, viewer, actorUuid);
  return hp ? { ...view, hp: { value: hp.value, max: hp.max } } : view;
}

/** An actor's HP as the link's user may see it: an actor they may not observe has none to show. */
async function actorHitPoints(services: RelayServices, viewer: OverlayViewer, uuid: string) {
  try {
    return hitPointsOf(fieldsOf((await askWorld(services, viewer, 'entity', { uuid })).data));
  } catch {
    return undefined;
  }
}
