// Connected worlds as the routing kernel reads them, without a socket: an id, its players, its metadata, and the
// registry's lookups and requests. The world link's own tests (test/protocol, test/security) use real sockets.
import type { PlayerListEntry } from '../../contracts/world-protocol.ts';
import type { Tabletop } from '../../relay/tabletop/tabletop.ts';
import type { WorldReply } from '../../relay/tabletop/pending-requests.ts';
import type { WorldConnection } from '../../relay/tabletop/world-connection.ts';

export function fakeWorld(clientId: string, players: PlayerListEntry[] = []): WorldConnection {
  return {
    clientId,
    players,
    metadata: { worldTitle: `World ${clientId}` },
  } as Partial<WorldConnection> as WorldConnection;
}

/** A request the kernel sent a world. */
export interface SentRequest {
  clientId: string;
  operation: string;
  message: Record<string, unknown>;
}

/** How a fake world answers an operation: its reply message (the text is that message's JSON). */
export type FakeAnswer = (request: SentRequest) => WorldReply['message'];

/**
 * The registry of connected worlds: `world` and `worlds` as the relay's, and `request` answered by `answer`, each request
 * kept in `sent` and each lookup and request told to `onUse` (the pipeline's step order).
 */
export function fakeTabletop(
  worlds: WorldConnection[],
  answer: FakeAnswer = ({ operation }) => ({ type: `${operation}-result` }),
  onUse: (step: 'world' | 'request') => void = () => {},
): Tabletop & { sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const fake = {
    sent,
    world: (clientId: string) => {
      onUse('world');
      return worlds.find((world) => world.clientId === clientId);
    },
    worlds: () => {
      onUse('world');
      return [...worlds];
    },
    request: async (world: WorldConnection, operation: string, message: Record<string, unknown>) => {
      onUse('request');
      const request = { clientId: world.clientId, operation, message };
      sent.push(request);
      const reply = answer(request);
      return { message: reply, text: JSON.stringify(reply) };
    },
  };
  return fake as Partial<Tabletop> as Tabletop & { sent: SentRequest[] };
}
