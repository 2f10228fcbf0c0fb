import { z } from 'zod';
import { flag, number, oneOf, record, text, textList } from '../routing/parameters.ts';
import type { PlayerView } from '../routing/route.ts';
import { worldRoute, type HttpMethod, type Route } from '../routing/route.ts';
import type { WorldOperation } from '../../contracts/operations.ts';
import type { WorldChanges } from '../journal/changes.ts';
import { actorNamed, selectedTokens } from '../journal/touched.ts';
import type { WorldAsk } from '../tabletop/world-ask.ts';
import { ROLLED } from './roll.ts';

// D&D 5e routes exist only for worlds running the dnd5e system. The schemas name the parameters the module reads and
// pass any other field through, as system-specific options vary between module versions.

const actor = {
  actorUuid: text().optional().describe('Actor UUID'),
  actorName: text().optional().describe('Actor name'),
};
const item = {
  itemUuid: text().optional().describe('Item UUID'),
  itemName: text().optional().describe('Item name'),
};
const rollOptions = {
  advantage: flag().optional().describe('Roll with advantage'),
  disadvantage: flag().optional().describe('Roll with disadvantage'),
  bonus: text().optional().describe('Extra formula, e.g. 1d4'),
  createChatMessage: flag().optional().describe('Post the roll to the chat log'),
};
// The world checks the ability, as with the reference relay: its refusal (`Invalid ability 'x'. Valid abilities: …`) is what clients match.
const ability = text().describe('str, dex, con, int, wis or cha');
type Fields = Record<string, unknown>;

/** The module reads only an actor the user observes and changes only one they own (module-operations.md §1). */
const ACTOR_IN_WORLD: PlayerView = {
  passes: 'the world reads only an actor the user observes, and changes only one they own',
};

/** Whom a route acts on: the parameters that name it, one rule per party that one of them is given, and its actors. */
interface Subject {
  shape: z.ZodRawShape;
  rules: { given: (p: Fields) => boolean; error: string }[];
  /** The actors a change of the route touches, for the change journal. */
  actors: (p: Fields, askWorld: WorldAsk) => Promise<string[]>;
}

const optionalText = (value: unknown) => (typeof value === 'string' ? value : undefined);

const namedActor: Subject = {
  shape: actor,
  rules: [
    {
      given: (p) => p.actorUuid !== undefined || p.actorName !== undefined,
      error: "Either 'actorUuid' or 'actorName' is required",
    },
  ],
  actors: (p, askWorld) => actorNamed(optionalText(p.actorUuid), optionalText(p.actorName), askWorld),
};

// The module's rests and experience take the actor by UUID or as the first selected token's, never by name.
const actorOrSelected: Subject = {
  shape: { actorUuid: actor.actorUuid, selected: flag().optional().describe("The first selected token's actor") },
  rules: [
    {
      given: (p) => p.actorUuid !== undefined || p.selected === true,
      error: "Either 'actorUuid' or 'selected' is required",
    },
  ],
  actors: async (p, askWorld) =>
    p.actorUuid !== undefined ? [String(p.actorUuid)] : (await selectedTokens(askWorld, true)).slice(0, 1),
};

const currencyParties: Subject = {
  shape: {
    sourceActorUuid: text().optional().describe('Giving actor UUID'),
    sourceActorName: text().optional().describe('Giving actor name'),
    targetActorUuid: text().optional().describe('Receiving actor UUID'),
    targetActorName: text().optional().describe('Receiving actor name'),
  },
  rules: [
    {
      given: (p) => p.sourceActorUuid !== undefined || p.sourceActorName !== undefined,
      error: "Either 'sourceActorUuid' or 'sourceActorName' is required",
    },
    {
      given: (p) => p.targetActorUuid !== undefined || p.targetActorName !== undefined,
      error: "Either 'targetActorUuid' or 'targetActorName' is required",
    },
  ],
  actors: async (p, askWorld) => [
    ...(await actorNamed(optionalText(p.sourceActorUuid), optionalText(p.sourceActorName), askWorld)),
    ...(await actorNamed(optionalText(p.targetActorUuid), optionalText(p.targetActorName), askWorld)),
  ],
};

function dnd5eRoute(
  method: HttpMethod,
  operation: WorldOperation,
  summary: string,
  shape: z.ZodRawShape,
  options: { path?: string; subject?: Subject; changes?: WorldChanges } = {},
): Route {
  const { path = operation, subject = namedActor } = options;
  // A route that is not a GET changes its actors (uses, slots, hit dice, coins, death saves), read before and after.
  const changes = method === 'GET' ? undefined : (options.changes ?? { touches: subject.actors });
  const parameters = subject.rules.reduce<z.ZodType<Fields, Fields>>(
    (schema, rule) => schema.refine(rule.given, { error: rule.error }),
    z.looseObject({ ...subject.shape, ...shape }),
  );
  return worldRoute({
    method,
    path: `/dnd5e/${path}`,
    summary,
    access: { scope: 'dnd5e' },
    playerView: ACTOR_IN_WORLD,
    parameters,
    ...('bonus' in shape ? { formulaFields: ['bonus'] } : {}),
    operation,
    ...(changes ? { changes } : {}),
  });
}

function useRoute(kind: 'ability' | 'feature' | 'spell' | 'item'): Route {
  return dnd5eRoute('POST', `use-${kind}`, `Use an actor's ${kind}`, {
    abilityUuid: text().optional().describe(`The ${kind}'s UUID`),
    abilityName: text().optional().describe(`The ${kind}'s name`),
    targetUuid: text().optional().describe('Target token or actor UUID'),
    targetName: text().optional().describe('Target name'),
  });
}

export const dnd5eRoutes: Route[] = [
  dnd5eRoute('GET', 'get-actor-details', 'Abilities, skills, resources, spells and more of an actor', {
    details: textList().optional().describe('Which parts, e.g. resources,spells,skills'),
  }),
  dnd5eRoute('POST', 'modify-item-charges', "Change an item's charges", {
    ...item,
    amount: number().describe('Charges to add (negative to spend)'),
  }),
  useRoute('ability'),
  useRoute('feature'),
  useRoute('spell'),
  useRoute('item'),
  dnd5eRoute(
    'POST',
    'modify-experience',
    'Add experience points',
    { amount: number().describe('Points to add (negative to remove)') },
    { subject: actorOrSelected },
  ),
  dnd5eRoute(
    'POST',
    'short-rest',
    'Take a short rest',
    {
      autoHD: flag().optional().describe('Spend hit dice automatically'),
      autoHDThreshold: number().optional().describe('Spend while HP is below this'),
    },
    { subject: actorOrSelected },
  ),
  dnd5eRoute(
    'POST',
    'long-rest',
    'Take a long rest',
    { newDay: flag().optional().describe('Recover daily uses') },
    { subject: actorOrSelected },
  ),
  dnd5eRoute(
    'POST',
    'skill-check',
    'Roll a skill check',
    { skill: text().describe('Skill id: acr, ath, ste, prc, …'), ...rollOptions },
    { changes: ROLLED },
  ),
  dnd5eRoute('POST', 'ability-save', 'Roll an ability saving throw', { ability, ...rollOptions }, { changes: ROLLED }),
  dnd5eRoute('POST', 'ability-check', 'Roll an ability check', { ability, ...rollOptions }, { changes: ROLLED }),
  dnd5eRoute('POST', 'death-save', 'Roll a death saving throw', rollOptions),
  dnd5eRoute('GET', 'get-concentration', 'Whether an actor concentrates, and on what', {}, { path: 'concentration' }),
  dnd5eRoute('POST', 'break-concentration', "End an actor's concentration", {}),
  dnd5eRoute('POST', 'concentration-save', 'Roll a concentration save against damage', {
    damage: number().describe('Damage taken'),
    ...rollOptions,
  }),
  dnd5eRoute('POST', 'equip-item', 'Equip or unequip an item', { ...item, equipped: flag().describe('true to equip') }),
  dnd5eRoute('POST', 'attune-item', 'Attune or unattune an item', {
    ...item,
    attuned: flag().describe('true to attune'),
  }),
  dnd5eRoute(
    'POST',
    'transfer-currency',
    'Move coins from one actor to another',
    { currency: record().describe('Coins by denomination, e.g. {"gp": 10}') },
    { subject: currencyParties },
  ),
  dnd5eRoute('POST', 'modify-currency', "Change an actor's coins", {
    currency: oneOf(['pp', 'gp', 'ep', 'sp', 'cp']).describe('Denomination'),
    amount: number().describe('Coins to add (negative to remove)'),
  }),
  dnd5eRoute('POST', 'prepare-spell', 'Prepare or unprepare a spell', {
    spellName: text().describe('Spell name'),
    prepared: flag().describe('true to prepare'),
  }),
];
