// An AI assistant asks to connect (the stdio bridge's and the OAuth sign-in's key request, with toolsets), and the GM
// decides on the AI assistants page in real Chromium: Play and Prepare come ticked, Delete and Scripts never; unticking
// and "Read only" narrow the key. Also the page's screenshot for the README (UPDATE_README_IMAGES=1 commits it).
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer } from '../../scripts/build.ts';
import { launchChromium } from '../../scripts/chromium.ts';
import { call } from '../harness/http.ts';
import { mcpClient, toolNames } from '../harness/mcp.ts';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';
import { openSettings } from './browser-page.ts';

const SCREENSHOTS = join(import.meta.dirname, 'screenshots');
const COMMITTED = join(import.meta.dirname, '..', '..', 'docs', 'images');
let harness: WorldHarness;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await buildRenderer();
  [harness, browser] = await Promise.all([
    startRelayWithWorld({ relay: { keyRequestPollIntervalMs: 100 } }),
    launchChromium(),
  ]);
  page = await openSettings(browser, harness.relay.createAdminLoginUrl(), { width: 1024, height: 900 });
  await page.goto(`${harness.baseUrl}/admin/#assistants`);
  await page.waitForSelector('[data-assistant-client="claude-code"]');
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await harness?.close();
});

describe('the AI assistants page', () => {
  it("shows each assistant's config with this relay's /mcp URL", async () => {
    const claudeCode = await page.$eval('[data-config="claude-code"]', (pre) => JSON.parse(pre.textContent!));
    expect(claudeCode.mcpServers['tabletop-relay']).toEqual({ type: 'http', url: `${harness.baseUrl}/mcp` });
    const desktop = await page.$eval('[data-config="claude-desktop"]', (pre) => JSON.parse(pre.textContent!));
    expect(desktop.mcpServers['tabletop-relay'].args).toContain(String(harness.relay.port));
  });

  it('approves an assistant with Play only, read only: the key lists only the reads of Play', async () => {
    const asked = await call(harness.baseUrl, 'POST', '/auth/key-request', {
      body: { appName: 'Claude Desktop', toolsets: ['play', 'prepare', 'delete'] },
    });
    expect(asked.status, asked.text).toBe(201);
    const card = `.key-request[data-code="${asked.body.code}"]`;
    await page.waitForSelector(`${card} [data-action="approve"]`, { timeout: 3000 });
    const ticked = await page.$$eval(`${card} input[name="toolsets"]`, (boxes) =>
      boxes.map((box) => [(box as HTMLInputElement).value, (box as HTMLInputElement).checked]),
    );
    expect(ticked).toEqual([
      ['play', true],
      ['prepare', true],
      ['delete', false],
    ]);
    await page.evaluate(() => document.getElementById('toasts')?.replaceChildren());
    const shot = join(SCREENSHOTS, 'readme-assistant-approval.png');
    await (await page.$(card))!.screenshot({ path: shot as `${string}.png` });
    if (process.env.UPDATE_README_IMAGES === '1') copyFileSync(shot, join(COMMITTED, 'assistant-approval.png'));
    await page.click(`${card} input[name="toolsets"][value="prepare"]`);
    await page.click(`${card} input[name="readOnly"]`);
    await page.click(`${card} [data-action="approve"]`);
    let polled: any;
    for (let tries = 0; tries < 50; tries += 1) {
      polled = await (await fetch(asked.body.pollUrl)).json();
      if (polled.status !== 'pending') break;
      await new Promise((resolve) => setTimeout(resolve, 110));
    }
    expect(polled.status).toBe('approved');
    const client = await mcpClient(harness.baseUrl, polled.apiKey);
    const names = await toolNames(client);
    await client.close();
    expect(names).toContain('rolls');
    expect(names).toContain('get_playlists');
    expect(names).not.toContain('roll');
    expect(names).not.toContain('create');
    await page.waitForSelector('[data-assistant]', { timeout: 12_000 });
    expect(await page.$eval('[data-assistant]', (row) => row.textContent)).toMatch(/Claude Desktop.*Play · read only/);
  });
});
