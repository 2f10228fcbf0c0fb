#!/usr/bin/env node
// A tool's whole key-request flow against Tabletop Relay, with nothing but Node (20 or later):
//   1. ask the relay for a key with the scopes a Stream Deck setup needs (POST /auth/key-request, no key needed);
//   2. show the short code, so the GM can check it is this request they approve in Tabletop Relay's settings;
//   3. poll the request's private URL until the GM decides (GET pollUrl, every `interval` seconds);
//   4. make one call with the new key (POST /roll).
// The key is printed once and written to disk only with --save FILE (readable by you alone).
//
//   node examples/key-request.mjs [--relay http://127.0.0.1:3010] [--name "Stream Deck"] [--scopes a,b] [--save FILE]
import { chmodSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const STREAM_DECK_SCOPES = ['roll:execute', 'playlist:control', 'encounter:manage', 'macro:execute', 'effects:write'];

const { values: options } = parseArgs({
  options: {
    relay: { type: 'string', default: process.env.TABLETOP_RELAY_URL ?? 'http://127.0.0.1:3010' },
    name: { type: 'string', default: 'Stream Deck' },
    scopes: { type: 'string', default: STREAM_DECK_SCOPES.join(',') },
    save: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (options.help) {
  console.log(
    'Usage: node examples/key-request.mjs [--relay URL] [--name NAME] [--scopes a,b,c] [--save FILE]\n' +
      'Asks Tabletop Relay for an API key, waits for the GM to approve it, then rolls a d20 with it.',
  );
  process.exit(0);
}

const relay = options.relay.replace(/\/+$/, '');
const sleep = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

async function json(response) {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return { error: text };
  }
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

async function askForKey() {
  const response = await fetch(`${relay}/auth/key-request`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      appName: options.name,
      appDescription: 'Buttons that roll, play music, advance combat, run macros and toggle effects',
      scopes: options.scopes.split(',').map((scope) => scope.trim()),
    }),
  });
  const body = await json(response);
  if (response.status !== 201) fail(`The relay refused the key request (${response.status}): ${body.error}`);
  return body;
}

/** Polls until the GM decides; answers the approval (apiKey, scopes, clientIds, userId). */
async function waitForApproval(request) {
  let interval = request.interval;
  for (;;) {
    await sleep(interval);
    const response = await fetch(request.pollUrl);
    const body = await json(response);
    if (response.status === 429) {
      // Polled too fast: wait as long as the relay says, and poll a little slower from now on.
      interval += 1;
      await sleep(Number(response.headers.get('retry-after') ?? interval));
      continue;
    }
    if (response.status === 410) fail('The request expired before it was approved; run this script again.');
    if (response.status !== 200) fail(`The relay answered ${response.status}: ${body.error}`);
    if (body.status === 'approved') return body;
    if (body.status === 'denied') fail('The GM denied the request.');
  }
}

async function rollWith(apiKey) {
  const response = await fetch(`${relay}/roll`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ formula: '1d20', flavor: `${options.name} is connected`, createChatMessage: true }),
  });
  const body = await json(response);
  if (response.status !== 200) fail(`The key works, but the roll did not (${response.status}): ${body.error}`);
  return body.data.roll.total;
}

const request = await askForKey();
console.log(`Your code: ${request.code}`);
console.log(
  `Approve it in Tabletop Relay: open the settings (${request.approvalUrl}) on the computer running the relay, check the code is ${request.code}, and click Approve.`,
);
console.log(`Waiting up to ${Math.round(request.expiresIn / 60)} minutes…`);
const approval = await waitForApproval(request);
console.log(`Approved with the scopes: ${approval.scopes.join(', ')}`);
if (approval.userId) console.log(`The key acts as the user ${approval.userId}.`);
if (approval.clientIds.length > 0) console.log(`The key reaches only: ${approval.clientIds.join(', ')}`);
console.log(`Your API key (shown once; send it as the x-api-key header): ${approval.apiKey}`);
if (options.save) {
  writeFileSync(options.save, `${approval.apiKey}\n`, { mode: 0o600 });
  chmodSync(options.save, 0o600);
  console.log(`Saved to ${options.save}, readable by you alone.`);
}
if (approval.scopes.includes('roll:execute'))
  console.log(`Rolled 1d20 with the new key: ${await rollWith(approval.apiKey)}`);
