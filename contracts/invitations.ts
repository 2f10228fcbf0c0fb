// Player invitations as the admin API, the invitation page and the settings UI share them.

/** An invitation (GET /admin/invitations): one player, one world, one use. The secret is never part of it. */
export interface InvitationView {
  id: string;
  /** The name the player's key gets, which says whose invitation it was. */
  name: string;
  clientId: string;
  worldTitle?: string;
  /** The Foundry user the key acts as. */
  userId: string;
  userName: string;
  /**
   * `open` until the player opens the link; then `used`, and the key is in the keys list; `expired` when nobody opened it
   * before `expiresAt`: the link then answers 410, telling the player to ask the GM for a new one.
   */
  status: 'open' | 'used' | 'expired';
  createdAt: string;
  /** When the link stops working if nobody opened it: a week after it was made, unless the GM chose otherwise. */
  expiresAt: string;
  usedAt?: string;
  /** The key the invitation was exchanged for. */
  keyId?: string;
}

/** POST /admin/invitations: the link holds the secret in its fragment and is in this answer only. */
export interface NewInvitationAnswer extends InvitationView {
  /** The link on the first LAN address (this computer's address while LAN access is off). */
  url: string;
  /** The same link on each of this computer's LAN addresses; empty while LAN access is off. */
  lanUrls: string[];
  /** Whether LAN access is on: without it, players' devices cannot open the link. */
  lanAccess: boolean;
}

/** POST /auth/invitation: what the player pastes into their tool. */
export interface InvitationExchange {
  /** The relay's address as the player's device reached it. */
  relayUrl: string;
  key: string;
  name: string;
  userName: string;
  worldTitle?: string;
  clientId: string;
  scopes: string[];
}

/** POST /auth/invitation/status: an open invitation, for its page to say whose it is before the player takes the key. */
export interface InvitationCheck {
  status: 'open';
  userName: string;
  worldTitle?: string;
  clientId: string;
  expiresAt: string;
}
