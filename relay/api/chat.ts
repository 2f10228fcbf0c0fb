import { z } from 'zod';
import { flag, text, textList, wholeNumber } from '../routing/parameters.ts';
import { streamRoute, worldRoute, type Route } from '../routing/route.ts';
import { GM_ONLY_IN_WORLD, WORLD_FILTERS } from '../routing/player-view.ts';
import { deleting } from '../journal/changes.ts';
import { chatLog } from '../journal/touched.ts';

const chatType = () => wholeNumber({ min: 0, max: 5 });

export const chatRoutes: Route[] = [
  worldRoute({
    method: 'GET',
    path: '/chat',
    summary: 'The chat log, newest first, a page at a time',
    access: { scope: 'chat:read' },
    playerView: WORLD_FILTERS,
    parameters: z.object({
      limit: wholeNumber({ min: 1, max: 500 }).default(50).describe('Messages per page'),
      offset: wholeNumber({ min: 0 }).default(0).describe('Messages to skip'),
      chatType: chatType().optional().describe('Message style: a CONST.CHAT_MESSAGE_STYLES number'),
      speaker: text().optional().describe('Speaker alias or actor id'),
    }),
    operation: 'chat-messages',
  }),
  worldRoute({
    method: 'POST',
    path: '/chat',
    summary: 'Post a chat message',
    access: { scope: 'chat:write' },
    playerView: { passes: "the message is the user's own" },
    from: 'body',
    parameters: z.object({
      content: text().describe('Message HTML'),
      whisper: textList().optional().describe('User ids to whisper to'),
      speaker: text().optional().describe('Actor or token UUID speaking'),
      alias: text().optional().describe('Name to show as the speaker'),
      chatType: chatType().optional().describe('Message style'),
      flavor: z.string({ error: 'must be a string' }).optional().describe('Flavor text'),
    }),
    operation: 'chat-send',
    changes: {
      notUndoable:
        'a message the table has read cannot be taken back; delete it (DELETE /chat/{messageId}) if it must go, which can be undone',
    },
    moduleFailures: [
      {
        error: /is not a valid type for the ChatMessage Document class/,
        status: 400,
        explanation:
          "On Foundry 14 the foundry-rest-api module 3.4.1 sends chatType as the message's document type, which Foundry 14 refuses: leave chatType out",
      },
    ],
  }),
  worldRoute({
    method: 'DELETE',
    path: '/chat/{messageId}',
    summary: 'Delete one chat message',
    access: { scope: 'chat:write' },
    playerView: { passes: "the world deletes only the user's own messages" },
    parameters: z.object({ messageId: text().describe('Chat message id') }),
    operation: 'chat-delete',
    changes: { touches: (p) => [`ChatMessage.${p.messageId}`], predict: deleting },
  }),
  worldRoute({
    method: 'DELETE',
    path: '/chat',
    summary: 'Delete every chat message',
    access: { scope: 'chat:write' },
    playerView: GM_ONLY_IN_WORLD,
    parameters: z.object({}),
    operation: 'chat-flush',
    changes: { touches: (_p, askWorld) => chatLog(askWorld), predict: deleting },
  }),
  streamRoute({
    method: 'GET',
    path: '/chat/subscribe',
    summary: 'Stream chat messages: chat-create, chat-update, chat-delete (Server-Sent Events)',
    access: { scope: 'events:subscribe' },
    playerView: { passes: 'the stream sends a key bound to a user only the messages that user sees (seenBy)' },
    parameters: z.object({
      speaker: text().optional().describe('Only messages from this speaker'),
      type: chatType().optional().describe('Only messages of this style'),
      whisperOnly: flag().optional().describe('Only whispers'),
    }),
    stream: 'chat',
    filter: (p) => ({ speaker: p.speaker, chatType: p.type, whisperOnly: p.whisperOnly }),
  }),
];
