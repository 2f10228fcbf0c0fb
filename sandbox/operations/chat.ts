// chat-messages, chat-send, chat-delete, chat-flush (module-protocol.md §4.11 Chat). Creating and deleting
// messages fires the chat hooks, so the chat-events channel pushes them.
import type { WorldRequest } from '../../contracts/world-protocol.ts';
import { createChatMessage, serializeChatMessage, type ChatSpeaker } from '../world/chat.ts';
import type { WorldDocument } from '../world/document.ts';
import type { Game } from '../world/game.ts';
import { assertGM, isGM } from '../world/permissions.ts';
import { reply, withUser, type OperationTable } from './context.ts';

/** Public messages are seen by everyone; whispers by their author, their recipients and GMs. */
function canSee(message: WorldDocument, user: WorldDocument): boolean {
  const whisper = (message.source.whisper as string[] | undefined) ?? [];
  return whisper.length === 0 || isGM(user) || message.source.author === user.id || whisper.includes(user.id);
}

/** `ChatMessage.getSpeaker({actor})` for the document a speaker uuid names (a token speaks through its actor). */
function speakerOf(game: Game, uuid: string): ChatSpeaker | undefined {
  const document = game.fromUuid(uuid);
  const actor = document ? (game.actorOf(document) ?? document) : null;
  if (!actor) return undefined;
  return {
    scene: game.viewedScene()?.id ?? null,
    actor: actor.id,
    token: document?.documentName === 'Token' ? document.id : null,
    alias: actor.name,
  };
}

function listMessages(game: Game, request: WorldRequest, user: WorldDocument | null) {
  let messages = game.messages.contents;
  if (user) messages = messages.filter((message) => canSee(message, user));
  // Compared with the message's `type` as the module does: since v12 that is "base", so numeric types match nothing.
  if (request.chatType !== undefined && request.chatType !== null)
    messages = messages.filter((message) => message.source.type === request.chatType);
  if (request.speaker)
    messages = messages.filter(
      (message) => (message.source.speaker as ChatSpeaker | undefined)?.alias === request.speaker,
    );
  messages.sort((a, b) => (b.source.timestamp as number) - (a.source.timestamp as number));
  const offset = Number(request.offset) || 0;
  const limit = Number(request.limit) || 50;
  return {
    messages: messages.slice(offset, offset + limit).map((message) => serializeChatMessage(game, message)),
    total: messages.length,
    offset,
    limit,
  };
}

export const chatOperations: OperationTable = {
  'chat-messages': withUser({ success: false }, (request, { game }, user) =>
    reply(request, { success: true, data: listMessages(game, request, user) }),
  ),

  'chat-send': withUser({ success: false }, (request, { game }, user) => {
    let speaker = typeof request.speaker === 'string' && request.speaker ? speakerOf(game, request.speaker) : undefined;
    if (request.alias) speaker = { ...speaker, alias: String(request.alias) };
    const message = createChatMessage(game, {
      authorId: user?.id ?? game.moduleUserId,
      content: typeof request.content === 'string' ? request.content : String(request.content ?? ''),
      flavor: request.flavor ? String(request.flavor) : undefined,
      speaker,
      whisper: Array.isArray(request.whisper) ? request.whisper.map(String) : undefined,
      type: request.chatType ?? undefined,
    });
    return reply(request, { success: true, data: serializeChatMessage(game, message) });
  }),

  'chat-delete': withUser({ success: false }, (request, { game }, user) => {
    const message = game.messages.get(String(request.messageId));
    if (!message) throw new Error(`Chat message not found: ${request.messageId}`);
    if (user && message.source.author !== user.id && !isGM(user)) {
      throw new Error(`User '${user.name}' does not have permission to delete this message`);
    }
    game.deleteDocument(message);
    return reply(request, { success: true, data: { messageId: request.messageId } });
  }),

  'chat-flush': withUser({ success: false }, (request, { game }, user) => {
    if (user) assertGM(user, 'flush chat messages');
    game.messages.contents.forEach((message) => game.deleteDocument(message));
    return reply(request, { success: true, data: { message: 'All chat messages have been deleted' } });
  }),
};
