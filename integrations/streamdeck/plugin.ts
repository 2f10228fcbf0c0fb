// The Tabletop Relay Stream Deck plugin: started by the Stream Deck app with its registration arguments.
import streamDeck from '@elgato/streamdeck';
import { deckActions } from './actions.ts';
import { Deck } from './deck.ts';

const deck = new Deck();
for (const action of deckActions(deck)) streamDeck.actions.registerAction(action);
await streamDeck.connect();
await deck.start();
