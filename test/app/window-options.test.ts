import { describe, expect, it } from 'vitest';
import { externalLinkToOpen, isOnOrigin, isRelayPage, settingsWindowOptions } from '../../main/window-options.ts';

describe('settingsWindowOptions', () => {
  const options = settingsWindowOptions('/app/dist/app/main/preload.cjs', '/app/assets/icon.png');

  it('isolates and sandboxes the settings page, with no Node anywhere', () => {
    expect(options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      preload: '/app/dist/app/main/preload.cjs',
    });
  });

  it('fits the settings UI at 800×600 or larger', () => {
    expect(options.minWidth).toBe(800);
    expect(options.minHeight).toBe(600);
    expect(options.show).toBe(false);
  });
});

describe('isRelayPage', () => {
  const relay = 'http://127.0.0.1:3010';

  it.each([
    ['http://127.0.0.1:3010/admin/', true],
    ['http://127.0.0.1:3010/admin/#keys', true],
    ['http://127.0.0.1:3010/admin/login?code=abc', true],
    ['http://127.0.0.1:3010/docs', false],
    ['http://127.0.0.1:3011/admin/', false],
    ['http://localhost:3010/admin/', false],
    ['https://127.0.0.1:3010/admin/', false],
    ['https://foundryvtt.com/admin/', false],
    ['file:///etc/passwd', false],
    ['not a url', false],
  ])('%s is %s', (url, allowed) => {
    expect(isRelayPage(url, relay)).toBe(allowed);
  });
});

describe('isOnOrigin', () => {
  const foundry = 'http://192.168.1.20:30000';

  it.each([
    ['http://192.168.1.20:30000/join', true],
    ['http://192.168.1.20:30000/game?x=1#chat', true],
    ['http://192.168.1.20:30001/join', false],
    ['https://192.168.1.20:30000/join', false],
    ['http://192.168.1.2:30000/join', false],
    ['http://attacker.example/join', false],
    ['file:///etc/passwd', false],
    ['not a url', false],
  ])('%s is %s', (url, on) => {
    expect(isOnOrigin(url, foundry)).toBe(on);
  });

  it('is false for every page before a capture page has its Foundry', () => {
    expect(isOnOrigin('http://192.168.1.20:30000/join', undefined)).toBe(false);
  });
});

describe('externalLinkToOpen', () => {
  it('opens web links in the system browser', () => {
    expect(externalLinkToOpen('https://foundryvtt.com/packages/foundryvtt-rest-api')).toBe(
      'https://foundryvtt.com/packages/foundryvtt-rest-api',
    );
  });

  it.each(['file:///etc/passwd', 'javascript:alert(1)', 'smb://server/share', 'ms-settings:privacy', 'nonsense'])(
    'refuses %s',
    (url) => {
      expect(externalLinkToOpen(url)).toBeUndefined();
    },
  );
});
