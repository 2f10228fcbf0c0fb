// The fast benchmark peer: a world that connects over the 3.x protocol (`?id=`, then `{type:"auth", token}`) and answers
// every request at once from canned records, so that the server in front of it is what the benchmark measures.
import WebSocket from 'ws';

export interface PeerOptions {
  /** The server's HTTP base URL; the peer connects to its /relay. */
  serverUrl: string;
  clientId: string;
  token: string;
}

export interface Peer {
  /** Pushes `count` roll-data events, one every `intervalMs`, each stamped with its send time (`sentAt`, ms). */
  pushRolls(count: number, intervalMs: number): Promise<void>;
  /** Builds the `sheet-screenshot` answer: a PNG data URL of `bytes` bytes (base64 makes the frame 4/3 of that). */
  prepareSheet(bytes: number): void;
  close(): Promise<void>;
}

const ROLL_RECORDS = [1, 2, 3].map((index) => ({
  id: `roll${index}`,
  messageId: `msg${index}`,
  user: { id: 'gm', name: 'Gamemaster' },
  speaker: { alias: 'Goblin' },
  flavor: 'Attack',
  rollTotal: 12 + index,
  formula: '1d20+5',
  isCritical: false,
  isFumble: false,
  dice: [{ faces: 20, results: [{ result: 7 + index, active: true }] }],
  timestamp: 1_700_000_000_000 + index,
}));
const ROLLS_JSON = JSON.stringify(ROLL_RECORDS);
const ROLL_JSON = JSON.stringify({
  id: 'manual_1',
  chatMessageCreated: false,
  roll: {
    formula: '1d20+5',
    total: 17,
    isCritical: false,
    isFumble: false,
    dice: ROLL_RECORDS[0]!.dice,
    timestamp: 1_700_000_000_000,
  },
});
const SEARCH_JSON = JSON.stringify(
  ['Goblin', 'Goblin Boss', 'Hobgoblin'].map((name, index) => ({
    documentType: 'Actor',
    id: `actor${index}`,
    name,
    uuid: `Actor.actor${index}`,
  })),
);

/**
 * The one actor a journaled write touches, about the size of a monster with its attacks: read whole (`entity`) before and
 * after each `update`, which moves its hit points, so every write is a change the journal records.
 */
const ACTOR = {
  _id: 'actor0',
  name: 'Goblin',
  type: 'npc',
  img: 'icons/svg/mystery-man.svg',
  system: { attributes: { hp: { value: 7, max: 7 }, ac: { flat: 15 } }, details: { cr: 0.25 } },
  items: ['Scimitar', 'Shortbow', 'Nimble Escape', 'Hide Armor', 'Shield'].map((name, index) => ({
    _id: `item${index}`,
    name,
    type: 'weapon',
    system: { description: { value: `<p>${name}. ${'A goblin carries it into every ambush. '.repeat(12)}</p>` } },
  })),
  effects: [],
  flags: {},
};

/** The canned body of each operation's reply, after `type` and `requestId`. */
const ANSWERS: Record<string, string> = {
  rolls: `"data":${ROLLS_JSON}`,
  roll: `"success":true,"data":${ROLL_JSON}`,
  search: `"query":"goblin","results":${SEARCH_JSON}`,
};

export function connectPeer(options: PeerOptions): Promise<Peer> {
  const url = new URL('/relay', options.serverUrl.replace(/^http/, 'ws'));
  url.searchParams.set('id', options.clientId);
  url.searchParams.set('worldTitle', 'Benchmark World');
  const socket = new WebSocket(url);
  let sheetAnswer = '"success":false,"error":"no sheet prepared"';

  socket.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { type: string; requestId?: unknown };
    if (typeof message.requestId !== 'string') return;
    if (message.type === 'update') ACTOR.system.attributes.hp.value += 1;
    const body =
      message.type === 'sheet-screenshot'
        ? sheetAnswer
        : message.type === 'entity' || message.type === 'update'
          ? `"data":${JSON.stringify(ACTOR)}`
          : (ANSWERS[message.type] ?? '"data":{}');
    socket.send(`{"type":"${message.type}-result","requestId":${JSON.stringify(message.requestId)},${body}}`);
  });

  const peer: Peer = {
    async pushRolls(count, intervalMs) {
      for (let index = 0; index < count; index += 1) {
        const roll = { ...ROLL_RECORDS[0]!, id: `pushed${index}`, sentAt: performance.timeOrigin + performance.now() };
        socket.send(JSON.stringify({ type: 'roll-data', data: roll }));
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    },
    prepareSheet(bytes) {
      const imageData = `data:image/png;base64,${Buffer.alloc(bytes, 0x5a).toString('base64')}`;
      sheetAnswer = `"success":true,"imageData":"${imageData}","width":4096,"height":4096`;
    },
    close: () =>
      new Promise((resolve) => {
        socket.once('close', () => resolve());
        socket.close();
      }),
  };

  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify({ type: 'auth', token: options.token })));
    socket.once('message', (data) => {
      const first = JSON.parse(data.toString()) as { type: string };
      if (first.type === 'auth-success') resolve(peer);
      else reject(new Error(`The server refused the peer: ${data.toString()}`));
    });
    socket.once('close', (code, reason) =>
      reject(new Error(`The server closed the peer's socket (${code} ${reason.toString()})`)),
    );
  });
}
