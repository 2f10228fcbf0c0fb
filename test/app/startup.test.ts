import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { boot, type BootApp } from '../../main/startup.ts';

/** An app whose `ready` the test fires by hand, after boot() has returned, as Electron does for an ES-module entry. */
function fakeApp(gotLock: boolean) {
  const events = new EventEmitter();
  let fireReady!: () => void;
  const ready = new Promise<void>((resolve) => (fireReady = resolve));
  const calls: string[] = [];
  const app: BootApp = {
    requestSingleInstanceLock: () => gotLock,
    quit: () => void calls.push('quit'),
    dock: { hide: () => void calls.push('dock.hide') },
    whenReady: () => ready,
    on: (event, listener) => events.on(event, listener),
  };
  const secondInstance = (argv: string[] = ['tabletop-relay']) => events.emit('second-instance', {}, argv);
  return { app, calls, fireReady, secondInstance };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('boot', () => {
  it('returns before ready, then starts once ready comes', async () => {
    const { app, calls, fireReady } = fakeApp(true);
    let starts = 0;
    boot(app, { start: async () => ((starts += 1), { focus: () => undefined }), fail: () => undefined });
    expect(calls).toEqual(['dock.hide']);
    await settle();
    expect(starts).toBe(0);
    fireReady();
    await settle();
    expect(starts).toBe(1);
  });

  it('quits without starting when another copy holds the single-instance lock', async () => {
    const { app, calls, fireReady } = fakeApp(false);
    let started = false;
    boot(app, { start: async () => ((started = true), { focus: () => undefined }), fail: () => undefined });
    fireReady();
    await settle();
    expect(calls).toEqual(['quit']);
    expect(started).toBe(false);
  });

  it('hands a failed start to fail(), never to an unhandled rejection', async () => {
    const { app, fireReady } = fakeApp(true);
    const failures: unknown[] = [];
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      boot(app, {
        start: () => Promise.reject(new Error('port 3010 is already in use')),
        fail: (error) => failures.push(error),
      });
      fireReady();
      await settle();
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(failures).toEqual([new Error('port 3010 is already in use')]);
    expect(unhandled).toEqual([]);
  });

  it('brings the running app forward on a second launch once it has started', async () => {
    const { app, fireReady, secondInstance } = fakeApp(true);
    let focused = 0;
    boot(app, { start: async () => ({ focus: () => void (focused += 1) }), fail: () => undefined });
    secondInstance();
    expect(focused).toBe(0);
    fireReady();
    await settle();
    secondInstance();
    expect(focused).toBe(1);
  });

  it('quits the running app when started again with --quit, instead of bringing it forward', async () => {
    const { app, calls, fireReady, secondInstance } = fakeApp(true);
    let focused = 0;
    boot(app, { start: async () => ({ focus: () => void (focused += 1) }), fail: () => undefined });
    fireReady();
    await settle();
    secondInstance(['tabletop-relay', '--quit']);
    expect(calls).toContain('quit');
    expect(focused).toBe(0);
  });
});
