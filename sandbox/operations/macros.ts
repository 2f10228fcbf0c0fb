// macros and macro-execute (module-protocol.md §4.11 Macro). Execution needs the module setting `allowMacroExecute`.
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import { evaluateRoll } from '../dice.ts';
import { createChatMessage } from '../world/chat.ts';
import { OWNERSHIP, type WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import { isPlainObject } from '../world/objects.ts';
import { assertWritePermission, hasPermission, isGM } from '../world/permissions.ts';
import { reply, withUser, type OperationTable } from './context.ts';
import { AsyncFunction } from './execute-js.ts';
import { scriptGame } from './script-game.ts';

const ROLL_COMMANDS = /^\/(r|roll|gmr|gmroll|br|broll|sr|selfroll|pr|publicroll)\s+(.+)$/i;
const GM_ROLL = /^\/(gmr|gmroll|br|broll)\s/i;

function macroRow(game: Game, macro: WorldDocument) {
  const source = macro.source;
  return {
    uuid: macro.uuid,
    id: macro.id,
    name: macro.name,
    type: source.type || 'unknown',
    author: game.users.get(source.author as string)?.name || 'unknown',
    command: source.command || '',
    img: macro.img,
    scope: source.scope,
    canExecute: true,
  };
}

/** A chat macro posts its command as a message; roll commands post the evaluated roll (GM rolls whispered to GMs). */
function runChatMacro(game: Game, command: string): WorldDocument {
  const roll = ROLL_COMMANDS.exec(command.trim());
  if (!roll) return createChatMessage(game, { authorId: game.moduleUserId, content: command });
  const whisper = GM_ROLL.test(command.trim()) ? game.users.filter(isGM).map((user) => user.id) : [];
  return createChatMessage(game, {
    authorId: game.moduleUserId,
    whisper,
    rolls: [evaluateRoll(roll[2]!, game.diceRandom)],
  });
}

/** A script macro runs as Foundry runs it; a throwing script is reported by Foundry as a notification, not an error. */
async function runScriptMacro(game: Game, command: string, args: unknown): Promise<unknown> {
  const notifications = { info: () => {}, warn: () => {}, error: () => {} };
  try {
    return await new AsyncFunction('game', 'ui', 'scope', 'args', command)(
      scriptGame(game),
      { notifications },
      { args },
      args,
    );
  } catch {
    return undefined;
  }
}

async function executeMacro(request: WorldRequest, game: Game, user: WorldDocument | null) {
  if (!game.settings.allowMacroExecute)
    throw new Error('Macro execution is disabled in REST API module settings. A GM must enable allowMacroExecute.');
  const uuid = request.uuid as string | undefined;
  if (!uuid) throw new Error('Macro UUID is required');
  const macro = game.fromUuid(uuid);
  if (!macro) throw new Error(`Macro not found with UUID: ${uuid}`);
  if (macro.documentName !== 'Macro') throw new Error(`Entity with UUID ${uuid} is not a macro`);
  if (user) assertWritePermission(game, macro, user, 'execute');
  const args = isPlainObject(request.args) ? request.args : {};
  const command = String(macro.source.command ?? '');
  const result =
    macro.source.type === 'chat' ? runChatMacro(game, command).toObject() : await runScriptMacro(game, command, args);
  return reply(request, { uuid, success: true, result: typeof result === 'object' ? result : { value: result } });
}

export const macroOperations: OperationTable = {
  macros: withUser({ macros: [] }, (request, { game }, user) => {
    const visible = game.collections.macros.filter(
      (macro) => !user || hasPermission(game, macro, user, OWNERSHIP.LIMITED),
    );
    return reply(request, { macros: visible.map((macro) => macroRow(game, macro)) });
  }),

  'macro-execute': withUser(
    (request) => ({ uuid: request.uuid || '', success: false }),
    (request, { game }, user) => executeMacro(request, game, user),
  ),
};
