// CONFIG.statusEffects as Foundry core and the dnd5e system define them: names are unlocalized i18n keys.
import type { StatusEffectConfig } from './game.ts';

const CORE_STATUSES = [
  'dead',
  'unconscious',
  'sleep',
  'stun',
  'prone',
  'restrain',
  'paralysis',
  'fly',
  'blind',
  'deaf',
  'silence',
  'fear',
  'burning',
  'frozen',
  'shock',
  'corrode',
  'bleeding',
  'disease',
  'poison',
  'curse',
  'regen',
  'degen',
  'hover',
  'burrow',
  'upgrade',
  'downgrade',
  'invisible',
  'target',
  'eye',
  'bless',
  'coldShield',
  'fireShield',
  'magicShield',
  'holyShield',
];

const DND5E_CONDITIONS: [id: string, key: string][] = [
  ['blinded', 'DND5E.ConBlinded'],
  ['charmed', 'DND5E.ConCharmed'],
  ['deafened', 'DND5E.ConDeafened'],
  ['exhaustion', 'DND5E.ConExhaustion'],
  ['frightened', 'DND5E.ConFrightened'],
  ['grappled', 'DND5E.ConGrappled'],
  ['incapacitated', 'DND5E.ConIncapacitated'],
  ['invisible', 'DND5E.ConInvisible'],
  ['paralyzed', 'DND5E.ConParalyzed'],
  ['petrified', 'DND5E.ConPetrified'],
  ['poisoned', 'DND5E.ConPoisoned'],
  ['prone', 'DND5E.ConProne'],
  ['restrained', 'DND5E.ConRestrained'],
  ['stunned', 'DND5E.ConStunned'],
  ['unconscious', 'DND5E.ConUnconscious'],
];

const DND5E_STATUSES = [
  'dead',
  'bleeding',
  'burning',
  'burrowing',
  'concentrating',
  'cursed',
  'dodging',
  'flying',
  'hiding',
  'hovering',
  'marked',
  'sleeping',
  'stable',
  'surprised',
  'transformed',
];

export function statusEffectsFor(systemId: string): StatusEffectConfig[] {
  if (systemId !== 'dnd5e') {
    return CORE_STATUSES.map((id) => ({
      id,
      name: `EFFECT.Status${id[0]!.toUpperCase()}${id.slice(1)}`,
      img: `icons/svg/${id}.svg`,
    }));
  }
  const statuses = DND5E_STATUSES.map((id) => ({
    id,
    name: `EFFECT.DND5E.Status${id[0]!.toUpperCase()}${id.slice(1)}`,
    img: `systems/dnd5e/icons/svg/statuses/${id}.svg`,
  }));
  const conditions = DND5E_CONDITIONS.map(([id, key]) => ({
    id,
    name: key,
    img: `systems/dnd5e/icons/svg/statuses/${id}.svg`,
  }));
  return [statuses[0]!, ...[...conditions, ...statuses.slice(1)].sort((a, b) => a.id.localeCompare(b.id))];
}
