// How each system opens the settings link (systems other than the one the tests run on are checked by their opener's
// command line only): macOS `open`, Windows cmd's `start` (https://learn.microsoft.com/windows-server/administration/windows-commands/start,
// whose first quoted argument is the window title), Linux `xdg-open` in a desktop session; nothing under CI.
import { describe, expect, it } from 'vitest';
import { browserOpener } from '../cli/open-browser.ts';

const URL = 'http://127.0.0.1:3010/admin/login?code=abc';

describe('browserOpener', () => {
  it("names each system's own opener", () => {
    expect(browserOpener(URL, 'darwin', {})).toEqual({ command: 'open', args: [URL] });
    expect(browserOpener(URL, 'win32', {})).toEqual({ command: 'cmd', args: ['/c', 'start', '""', URL] });
    expect(browserOpener(URL, 'linux', { DISPLAY: ':0' })).toEqual({ command: 'xdg-open', args: [URL] });
    expect(browserOpener(URL, 'linux', { WAYLAND_DISPLAY: 'wayland-0' })).toEqual({ command: 'xdg-open', args: [URL] });
  });

  it('opens nothing under CI, nor in a Linux session without a display', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const)
      expect(browserOpener(URL, platform, { CI: 'true', DISPLAY: ':0' })).toBeUndefined();
    expect(browserOpener(URL, 'linux', {})).toBeUndefined();
    expect(browserOpener(URL, 'linux', { CI: 'false', DISPLAY: ':0' })).toEqual({ command: 'xdg-open', args: [URL] });
  });
});
