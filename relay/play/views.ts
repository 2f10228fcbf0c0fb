// The player page's table views, each built afresh by asking the world as the user: the combat as the user sees it,
// the chat messages they see, and the sounds playing.
import type { PlayChatLine, PlayCombat, PlayTrack, PlayViews } from '../../contracts/play.ts';
import { fieldsOf, listOf, numberOf, textOf } from '../objects.ts';
import { plainText } from '../overlays/chat.ts';
import { playingTracks } from '../overlays/now-playing.ts';
import { oldestFirst, speakerName, timeOf } from '../overlays/world.ts';
import { actorsOwnedBy, encountersSeen } from '../world-data/player-sorts.ts';
import { inTurnOrder } from '../world-data/turn-order.ts';
import { sortContextOf, type PlayViewer } from './viewer.ts';

type Fields = Record<string, unknown>;

/** How many of the most recent messages the page shows. */
const CHAT_LINES = 30;

const NO_COMBAT: PlayCombat = { active: false, round: 0, turn: null, combatants: [] };

export const PLAY_VIEW_BUILDERS: { [V in keyof PlayViews]: (viewer: PlayViewer) => Promise<PlayViews[V]> } = {
  combat: combatView,
  chat: chatView,
  playing: playingView,
};

/**
 * The active combat once begun, in turn order. The world lists every combatant whatever user it is asked for, so a
 * player's list is sorted as GET /encounters sorts it (item 23): a combatant the GM hid shows only to its owner.
 */
async function combatView(viewer: PlayViewer): Promise<PlayCombat> {
  const { player } = viewer;
  const answer = await viewer.ask('encounters');
  const seen = player ? await encountersSeen.sort(answer, sortContextOf(viewer, player)) : answer;
  const combat = listOf(seen.encounters).find((encounter) => encounter.current === true);
  const round = numberOf(combat?.round) ?? 0;
  if (!combat || round < 1) return NO_COMBAT;
  const ordered = inTurnOrder(listOf(combat.combatants));
  const mine = player ? await actorsOwnedBy(ordered, sortContextOf(viewer, player)) : new Set<unknown>();
  const turn = numberOf(combat.turn);
  return {
    active: true,
    round,
    turn: turn !== undefined && turn < ordered.length ? turn : null,
    combatants: ordered.map((combatant) => ({
      id: textOf(combatant.id),
      name: textOf(combatant.name),
      initiative: numberOf(combatant.initiative) ?? null,
      defeated: combatant.defeated === true,
      mine: mine.has(combatant.actorUuid),
    })),
  };
}

/** The most recent messages the world shows the user (public ones, their own, and whispers to them), oldest first. */
async function chatView(viewer: PlayViewer): Promise<PlayChatLine[]> {
  const answer = await viewer.ask('chat-messages', { limit: CHAT_LINES, offset: 0 });
  return oldestFirst(listOf(fieldsOf(answer.data)?.messages)).flatMap((message) => {
    const line = chatLineOf(message, viewer.user.id);
    return line ? [line] : [];
  });
}

function chatLineOf(message: Fields, userId: string): PlayChatLine | undefined {
  if (typeof message.id !== 'string') return undefined;
  const total = numberOf(listOf(message.rolls)[0]?.total);
  const text = plainText(textOf(message.content));
  if (text === '' && total === undefined) return undefined;
  const whisper = Array.isArray(message.whisper) && message.whisper.length > 0;
  return {
    id: message.id,
    who: speakerName(message),
    text,
    flavor: plainText(textOf(message.flavor)),
    ...(total === undefined ? {} : { total }),
    whisper,
    mine: fieldsOf(message.author)?.id === userId,
    at: timeOf(message),
  };
}

/**
 * Every sound playing now, with its playlist's name. The world lists every playlist whatever user it is asked for
 * (the GM's soundboard too, which GET /playlists refuses players for), so only what plays is kept: every player hears
 * it, and Foundry shows them a playlist while it plays.
 */
async function playingView(viewer: PlayViewer): Promise<PlayTrack[]> {
  return playingTracks(await viewer.ask('get-playlists'));
}
