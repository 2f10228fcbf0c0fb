import { describe, expect, it, vi } from 'vitest';

const created: { options: Record<string, unknown>; data: Record<string, unknown> }[] = [];

vi.mock('electron-store', () => ({
  default: class FakeStore {
    readonly options: Record<string, unknown>;
    data: Record<string, unknown>;
    constructor(options: Record<string, unknown>) {
      this.options = options;
      this.data = structuredClone(options.defaults as Record<string, unknown>);
      created.push(this);
    }
    get store() {
      return this.data;
    }
    set(values: Record<string, unknown>) {
      this.data = values;
    }
  },
}));

const { DESKTOP_DEFAULTS, openDesktopStore } = await import('../../main/store.ts');

describe('desktop settings store', () => {
  it('starts on 3010, this computer only, no web origin, no autostart', () => {
    expect(DESKTOP_DEFAULTS).toEqual({
      port: 3010,
      lanAccess: false,
      corsOrigins: [],
      allowedHosts: [],
      startAtLogin: false,
    });
    expect(openDesktopStore().get()).toEqual(DESKTOP_DEFAULTS);
  });

  it('gives electron-store the defaults and a schema, and starts over on an invalid file', () => {
    openDesktopStore();
    const { options } = created.at(-1)!;
    expect(options).toMatchObject({ name: 'settings', defaults: DESKTOP_DEFAULTS, clearInvalidConfig: true });
    expect(Object.keys(options.schema as object).sort()).toEqual(Object.keys(DESKTOP_DEFAULTS).sort());
  });

  it('keeps what is not changed', () => {
    const store = openDesktopStore();
    store.update({ lanAccess: true });
    expect(store.update({ port: 3020 })).toEqual({ ...DESKTOP_DEFAULTS, lanAccess: true, port: 3020 });
  });

});
