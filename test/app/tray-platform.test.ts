import { describe, expect, it } from 'vitest';
import { trayPlatformOf } from '../../main/tray-platform.ts';

describe('trayPlatformOf', () => {
  it('Windows: a left click opens the settings, full-colour icons, the waiting count in the tooltip', () => {
    expect(trayPlatformOf('win32')).toEqual({
      clickOpensSettings: true,
      templateImages: false,
      countBesideIcon: false,
    });
  });

  it('macOS: the click opens the menu, template icons the menu bar tints, the waiting count beside the icon', () => {
    expect(trayPlatformOf('darwin')).toEqual({
      clickOpensSettings: false,
      templateImages: true,
      countBesideIcon: true,
    });
  });

  it('Linux: everything through the menu, as AppIndicator ignores clicks', () => {
    expect(trayPlatformOf('linux')).toEqual({
      clickOpensSettings: false,
      templateImages: false,
      countBesideIcon: false,
    });
  });
});
