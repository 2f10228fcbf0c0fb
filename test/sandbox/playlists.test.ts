import { describe, expect, it } from 'vitest';
import { ask, named, recordPushes, sandbox } from './helpers.ts';

function soundStates(reply: any): Record<string, boolean> {
  return Object.fromEntries(
    reply.data.playlist.sounds.map((s: { name: string; playing: boolean }) => [s.name, s.playing]),
  );
}

describe('get-playlists', () => {
  it('serializes playlists with 9 keys and sounds with 7', async () => {
    const world = sandbox();
    const reply = await ask(world, 'get-playlists', { userId: 'Alice' });
    const tavern = reply.data.playlists.find((p: { name: string }) => p.name === 'Tavern Songs');
    expect(Object.keys(tavern)).toEqual([
      'id',
      'name',
      'description',
      'playing',
      'mode',
      'fade',
      'folder',
      'sorting',
      'sounds',
    ]);
    expect(tavern).toMatchObject({
      playing: false,
      mode: 0,
      fade: null,
      sorting: 'm',
      folder: named(world, 'folders', 'Ambience').id,
    });
    expect(tavern.sounds[0]).toEqual({
      id: expect.any(String),
      name: 'Tavern Chatter',
      path: 'sounds/tavern.ogg',
      playing: false,
      volume: 0.5,
      repeat: true,
      fade: null,
    });
    expect(reply.data.playlists.find((p: { name: string }) => p.name === 'Battle Music').folder).toBeNull();
  });
});

describe('playlist controls', () => {
  it('plays a sequential playlist from its first sound, advances, wraps and stops', async () => {
    const world = sandbox();
    const played = await ask(world, 'playlist-play', { playlistName: 'tavern songs' });
    expect(played.data.playlist.playing).toBe(true);
    expect(soundStates(played)).toEqual({ 'Tavern Chatter': true, 'Bardic Ballad': false, 'Clinking Mugs': false });
    const next = await ask(world, 'playlist-next', { playlistName: 'Tavern Songs' });
    expect(soundStates(next)).toEqual({ 'Tavern Chatter': false, 'Bardic Ballad': true, 'Clinking Mugs': false });
    await ask(world, 'playlist-next', { playlistName: 'Tavern Songs' });
    const wrapped = await ask(world, 'playlist-next', { playlistName: 'Tavern Songs' });
    expect(soundStates(wrapped)['Tavern Chatter']).toBe(true);
    const stopped = await ask(world, 'playlist-stop', { playlistId: named(world, 'playlists', 'Tavern Songs').id });
    expect(stopped.data.playlist.playing).toBe(false);
    expect(Object.values(soundStates(stopped))).toEqual([false, false, false]);
    expect((await ask(world, 'playlist-next', { playlistName: 'Tavern Songs' })).data.playlist.playing).toBe(false);
  });

  it('plays one sound exclusively in sequential mode and alongside others in simultaneous mode', async () => {
    const world = sandbox();
    await ask(world, 'playlist-play', { playlistName: 'Tavern Songs' });
    const ballad = await ask(world, 'playlist-play', { playlistName: 'Tavern Songs', soundName: 'BARDIC BALLAD' });
    expect(soundStates(ballad)).toEqual({ 'Tavern Chatter': false, 'Bardic Ballad': true, 'Clinking Mugs': false });
    const all = await ask(world, 'playlist-play', { playlistName: 'Dungeon Ambience' });
    expect(Object.values(soundStates(all))).toEqual([true, true]);
    const noAdvance = await ask(world, 'playlist-next', { playlistName: 'Dungeon Ambience' });
    expect(Object.values(soundStates(noAdvance))).toEqual([true, true]);
  });

  it('sets a sound volume, leaves the playlist level unchanged and validates the value after the lookup', async () => {
    const world = sandbox();
    const reply = await ask(world, 'playlist-volume', {
      playlistName: 'Battle Music',
      soundName: 'Clash of Steel',
      volume: 0.2,
    });
    expect(reply.data.playlist.sounds.find((s: { name: string }) => s.name === 'Clash of Steel').volume).toBe(0.2);
    const whole = await ask(world, 'playlist-volume', { playlistName: 'Battle Music', volume: 0.9 });
    expect(whole.data.playlist).not.toHaveProperty('volume');
    expect((await ask(world, 'playlist-volume', { playlistName: 'Battle Music', volume: 1.5 })).error).toBe(
      'volume must be a number between 0 and 1',
    );
    expect(
      (await ask(world, 'playlist-volume', { playlistName: 'Battle Music', soundName: 'Lute', volume: 7 })).error,
    ).toBe('Sound not found: Lute');
  });

  it('reports missing playlists and refuses players', async () => {
    const world = sandbox();
    expect((await ask(world, 'playlist-play', {})).error).toBe('playlistId or playlistName is required');
    expect((await ask(world, 'playlist-stop', { playlistName: 'Polka' })).error).toBe('Playlist not found: Polka');
    const refused = await ask(world, 'playlist-play', { playlistName: 'Polka', userId: 'Bob' });
    expect(refused).toEqual({
      type: 'playlist-play-result',
      requestId: refused.requestId,
      error: "User 'Bob' must be a GM to control playlists",
    });
    expect(
      (await ask(world, 'playlist-play', { playlistName: 'Tavern Songs', userId: 'Assistant GM' })).data.playlist
        .playing,
    ).toBe(true);
  });

  it('fires updatePlaylist and updatePlaylistSound hooks while the hooks channel is on', async () => {
    const world = sandbox();
    const pushes = recordPushes(world);
    world.setChannel('hooks', true);
    await ask(world, 'playlist-play', { playlistName: 'Tavern Songs' });
    const hooks = pushes.map((p) => (p.data as { hook: string }).hook);
    expect(hooks[0]).toBe('updatePlaylist');
    expect(hooks.filter((h) => h === 'updatePlaylistSound')).toHaveLength(1);
    const [playlistSource, changes, options, userId] = (pushes[0]!.data as { args: any[] }).args;
    expect(playlistSource.name).toBe('Tavern Songs');
    expect(changes).toMatchObject({ playing: true, _id: named(world, 'playlists', 'Tavern Songs').id });
    expect(options).toMatchObject({ diff: true, render: true });
    expect(userId).toBe(world.game.moduleUserId);
  });
});

describe('sounds', () => {
  it('plays a sound with defaults and stops playing audio by src, counting what stopped', async () => {
    const world = sandbox();
    expect((await ask(world, 'play-sound', { src: 'sounds/door.ogg' })).data).toEqual({
      src: 'sounds/door.ogg',
      volume: 0.5,
      loop: false,
    });
    expect((await ask(world, 'play-sound', { src: 'sounds/rain.ogg', volume: 0.1, loop: true })).data).toEqual({
      src: 'sounds/rain.ogg',
      volume: 0.1,
      loop: true,
    });
    await ask(world, 'playlist-play', { playlistName: 'Dungeon Ambience' });
    expect((await ask(world, 'stop-sound', { src: 'sounds/rain.ogg' })).data).toEqual({
      stopped: 1,
      src: 'sounds/rain.ogg',
    });
    expect((await ask(world, 'stop-sound', { src: 'sounds/rain.ogg' })).data).toEqual({
      stopped: 0,
      src: 'sounds/rain.ogg',
    });
    expect((await ask(world, 'stop-sound')).data).toEqual({ stopped: 3, src: null });
    const playlists = (await ask(world, 'get-playlists')).data.playlists;
    expect(playlists.find((p: { name: string }) => p.name === 'Dungeon Ambience').playing).toBe(true);
  });

  it('validates src and requires a GM', async () => {
    const world = sandbox();
    expect((await ask(world, 'play-sound', {})).error).toBe('src is required');
    expect((await ask(world, 'play-sound', { src: 'x.ogg', userId: 'Carol' })).error).toBe(
      "User 'Carol' must be a GM to play sounds",
    );
    expect((await ask(world, 'stop-sound', { userId: 'Carol' })).error).toBe(
      "User 'Carol' must be a GM to stop sounds",
    );
  });

  it('lets one-shot sounds end on their own', async () => {
    let now = 1_000;
    const world = sandbox({ now: () => now });
    await ask(world, 'play-sound', { src: 'sounds/door.ogg' });
    now += 10 * 60_000;
    expect((await ask(world, 'stop-sound')).data.stopped).toBe(0);
  });
});
