// execute-js (module-operations.md §8.5): the script runs as an async function body with a read-only `game`
// (script-game.ts).
import { createChatMessage } from '../world/chat.ts';
import type { Game } from '../world/game.ts';
import { isGM } from '../world/permissions.ts';
import { errorMessage, reply, requestUser, type OperationTable } from './context.ts';
import { documentView, scriptGame } from './script-game.ts';

export const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
  ...parameters: string[]
) => (...args: unknown[]) => Promise<unknown>;

function escapeForChat(script: string): string {
  const preview = script.length > 100 ? `${script.slice(0, 100)}…` : script;
  return preview.replace(/</g, '&lt;');
}

export const executeJsOperations: OperationTable = {
  'execute-js': async (request, { game }) => {
    const resolved = requestUser(request, game);
    if ('refusal' in resolved) return resolved.refusal;
    const { user } = resolved;
    const fail = (error: string) => reply(request, { success: false, error });
    if (!game.settings.allowExecuteJs) {
      return fail(
        'execute-js is disabled in REST API module settings. A GM must enable it to allow JavaScript execution.',
      );
    }
    const required = game.settings.codeExecutionPermission;
    if (user && (user.source.role as number) < required) {
      return fail(`User ${user.name} does not have permission to execute code (requires role ${required}+)`);
    }
    const script = request.script;
    if (typeof script !== 'string' || !script) return fail('Invalid script provided');
    if (script.includes('game.settings.set') && script.includes('foundry-rest-api'))
      return fail('Scripts cannot modify REST API module settings');
    let result: unknown;
    try {
      result = await new AsyncFunction('game', 'data', 'user', script)(scriptGame(game), request, documentView(user));
    } catch (error) {
      return fail(`Error executing script: ${errorMessage(error)}`);
    }
    const wire = wireForm(result);
    if (game.settings.notifyOnExecuteJs) notifyGMs(game, script);
    return wire ? reply(request, { success: true, ...wire }) : undefined;
  },
};

/** The result as JSON carries it; a value JSON cannot carry (a cycle) makes the module's send fail silently. */
function wireForm(result: unknown): { result?: unknown } | null {
  try {
    return JSON.parse(JSON.stringify({ result }));
  } catch {
    return null;
  }
}

function notifyGMs(game: Game, script: string): void {
  const whisper = game.users
    .filter((candidate) => isGM(candidate) && candidate.source.active === true)
    .map((gm) => gm.id);
  createChatMessage(game, {
    authorId: game.moduleUserId,
    whisper,
    speaker: { alias: 'REST API Module' },
    content: `<p>A script was executed through the REST API:</p><pre>${escapeForChat(script)}</pre>`,
  });
}
