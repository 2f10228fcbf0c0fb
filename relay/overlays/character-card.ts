// The character card: one actor's name, portrait, HP, AC and a few system fields (dnd5e's; another system shows what
// it has in the same places).
import type { CharacterCardView } from '../../contracts/overlays.ts';
import { HttpError } from '../errors.ts';
import type { RelayServices } from '../services.ts';
import { hitPointsOf } from './hit-points.ts';
import { fieldsOf, listOf, numberOf, textOf } from '../objects.ts';
import { askWorld, type Fields, type OverlayViewer } from './world.ts';

export async function characterCardView(services: RelayServices, viewer: OverlayViewer): Promise<CharacterCardView> {
  if (!viewer.actorUuid)
    throw new HttpError(404, 'This overlay link names no actor: choose the character in the settings UI (Overlays)');
  const reply = await askWorld(services, viewer, 'entity', { uuid: viewer.actorUuid });
  const actor = fieldsOf(reply.data);
  if (!actor) throw new HttpError(404, `Entity not found: ${viewer.actorUuid}`);
  return cardOf(actor);
}

export function cardOf(actor: Fields): CharacterCardView {
  const card: CharacterCardView = { name: textOf(actor.name), fields: fieldsShown(actor) };
  const portrait = portraitOf(actor.img);
  if (portrait) card.portrait = portrait;
  const hp = hitPointsOf(actor);
  if (hp) card.hp = hp;
  const ac = armourClassOf(actor);
  if (ac !== undefined) card.ac = ac;
  return card;
}

/**
 * Only an image the page may load under its CSP (`img-src 'self' data:`): a data URL. A file path of the world is
 * served by Foundry, not the relay, so the card shows the name's initials instead.
 */
function portraitOf(img: unknown): string | undefined {
  return typeof img === 'string' && /^data:image\/(png|jpeg|webp|gif);base64,/i.test(img) ? img : undefined;
}

function armourClassOf(actor: Fields): number | undefined {
  const ac = fieldsOf(fieldsOf(fieldsOf(actor.system)?.attributes)?.ac);
  return numberOf(ac?.value) ?? numberOf(ac?.flat);
}

/** Class and level (or challenge rating) and walking speed, as a dnd5e sheet's header shows them. */
function fieldsShown(actor: Fields): CharacterCardView['fields'] {
  const system = fieldsOf(actor.system);
  const details = fieldsOf(system?.details);
  const fields: CharacterCardView['fields'] = [];
  const classes = listOf(actor.items)
    .filter((item) => item.type === 'class')
    .map((item) => `${textOf(item.name)} ${numberOf(fieldsOf(item.system)?.levels) ?? ''}`.trim());
  if (classes.length > 0) fields.push({ label: 'Class', value: classes.join(' / ') });
  const level = numberOf(details?.level);
  if (level !== undefined) fields.push({ label: 'Level', value: String(level) });
  const cr = numberOf(details?.cr);
  if (cr !== undefined) fields.push({ label: 'CR', value: challengeRating(cr) });
  const movement = fieldsOf(fieldsOf(system?.attributes)?.movement);
  const walk = numberOf(movement?.walk);
  if (walk !== undefined) fields.push({ label: 'Speed', value: `${walk} ${textOf(movement?.units) || 'ft'}` });
  return fields;
}

function challengeRating(cr: number): string {
  const fractions: Record<number, string> = { 0.125: '1/8', 0.25: '1/4', 0.5: '1/2' };
  return fractions[cr] ?? String(cr);
}
