import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRelayWithWorld, type WorldHarness } from '../harness/world.ts';

let harness: WorldHarness;
beforeAll(async () => {
  harness = await startRelayWithWorld();
});
afterAll(() => harness.close());

const PLAYLIST_KEYS = ['description', 'fade', 'folder', 'id', 'mode', 'name', 'playing', 'sorting', 'sounds'];

async function playlistNamed(name: string) {
  const answer = await harness.get('/playlists');
  return answer.body.data.playlists.find((playlist: { name: string }) => playlist.name === name);
}

describe('Playlist', () => {
  it('GET /playlists lists playlists with their sounds', async () => {
    const answer = await harness.get('/playlists');
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('get-playlists-result');
    expect(answer.body.requestId).toMatch(/^get-playlists_\d{13}$/);
    expect(answer.body.data.playlists.length).toBeGreaterThanOrEqual(3);
    for (const playlist of answer.body.data.playlists) {
      expect(Object.keys(playlist).sort()).toEqual(PLAYLIST_KEYS);
      expect(typeof playlist.playing).toBe('boolean');
      expect(Array.isArray(playlist.sounds)).toBe(true);
    }
  });

  it('POST /playlist/play sets playing to true and returns the playlist; /playlist/stop sets it to false', async () => {
    const tavern = await playlistNamed('Tavern Songs');
    expect(tavern.playing).toBe(false);
    const played = await harness.post('/playlist/play', { playlistId: tavern.id });
    expect(played.status).toBe(200);
    expect(played.body.type).toBe('playlist-play-result');
    expect(played.body.data.playlist).toMatchObject({ id: tavern.id, playing: true });
    expect((await playlistNamed('Tavern Songs')).playing).toBe(true);
    const stopped = await harness.post('/playlist/stop', { playlistName: 'tavern songs' });
    expect(stopped.body.type).toBe('playlist-stop-result');
    expect(stopped.body.data.playlist).toMatchObject({ id: tavern.id, playing: false });
  });

  it('POST /playlist/play with soundName plays that one sound', async () => {
    const played = await harness.post('/playlist/play', { playlistName: 'Battle Music', soundName: 'clash of steel' });
    const sounds = played.body.data.playlist.sounds;
    expect(played.body.data.playlist.playing).toBe(true);
    expect(sounds.find((sound: { name: string }) => sound.name === 'Clash of Steel').playing).toBe(true);
    await harness.post('/playlist/stop', { playlistName: 'Battle Music' });
  });

  it('POST /playlist/next keeps the playlist playing and advances to the next sound', async () => {
    const before = await harness.post('/playlist/play', { playlistName: 'Tavern Songs', soundName: 'Tavern Chatter' });
    const playingBefore = before.body.data.playlist.sounds
      .filter((sound: { playing: boolean }) => sound.playing)
      .map((sound: { name: string }) => sound.name);
    expect(playingBefore).toEqual(['Tavern Chatter']);
    const next = await harness.post('/playlist/next', { playlistName: 'Tavern Songs' });
    expect(next.body.type).toBe('playlist-next-result');
    expect(next.body.data.playlist.playing).toBe(true);
    const playingAfter = next.body.data.playlist.sounds
      .filter((sound: { playing: boolean }) => sound.playing)
      .map((sound: { name: string }) => sound.name);
    expect(playingAfter).toHaveLength(1);
    expect(playingAfter).not.toEqual(playingBefore);
    await harness.post('/playlist/stop', { playlistName: 'Tavern Songs' });
  });

  it('POST /playlist/volume sets the volume on the playlist or on one sound, leaving playing unchanged', async () => {
    const onSound = await harness.post('/playlist/volume', {
      playlistName: 'Dungeon Ambience',
      soundName: 'Distant Wind',
      volume: 0.75,
    });
    expect(onSound.status).toBe(200);
    expect(onSound.body.type).toBe('playlist-volume-result');
    const wind = onSound.body.data.playlist.sounds.find((sound: { name: string }) => sound.name === 'Distant Wind');
    expect(wind.volume).toBe(0.75);
    expect(onSound.body.data.playlist.playing).toBe(false);
    const onPlaylist = await harness.post('/playlist/volume', { playlistName: 'Dungeon Ambience', volume: '0.2' });
    expect(onPlaylist.status).toBe(200);
    expect(onPlaylist.body.data.playlist.playing).toBe(false);
  });

  it.each([
    [1.5, "'volume' must be between 0 and 1"],
    [-0.1, "'volume' must be between 0 and 1"],
    ['loud', "'volume' must be a number"],
  ])('POST /playlist/volume with volume %s is a 400', async (volume, error) => {
    const answer = await harness.post('/playlist/volume', { playlistName: 'Tavern Songs', volume });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ error });
  });

  it('POST /playlist/volume without volume is a 400 naming it', async () => {
    const answer = await harness.post('/playlist/volume', { playlistName: 'Tavern Songs' });
    expect(answer.body).toEqual({ error: "'volume' is required" });
  });

  it('playlist routes need playlistId or playlistName', async () => {
    for (const path of ['/playlist/play', '/playlist/stop', '/playlist/next']) {
      const answer = await harness.post(path, {});
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: "Either 'playlistId' or 'playlistName' is required" });
    }
  });

  it("an unknown playlist is a 400 with the world's message", async () => {
    const answer = await harness.post('/playlist/play', { playlistName: 'Polka Hits' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('Playlist not found: Polka Hits');
  });

  it('POST /stop-sound with src stops the sounds playing that file and counts them', async () => {
    await harness.post('/playlist/play', { playlistName: 'Dungeon Ambience' });
    await harness.post('/playlist/play', { playlistName: 'Tavern Songs', soundName: 'Tavern Chatter' });
    const answer = await harness.post('/stop-sound', { src: 'sounds/tavern.ogg' });
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('stop-sound-result');
    expect(answer.body.data).toEqual({ stopped: 1, src: 'sounds/tavern.ogg' });
    const again = await harness.post('/stop-sound', { src: 'sounds/tavern.ogg' });
    expect(again.body.data.stopped).toBe(0);
  });

  it('POST /stop-sound without src stops every playing sound', async () => {
    await harness.post('/playlist/play', { playlistName: 'Tavern Songs', soundName: 'Bardic Ballad' });
    const answer = await harness.post('/stop-sound', {});
    expect(answer.body.data.stopped).toBeGreaterThanOrEqual(2);
    expect(answer.body.data.src).toBeNull();
    const none = await harness.post('/stop-sound', {});
    expect(none.body.data.stopped).toBe(0);
  });

  it('POST /play-sound plays a sound for every client, with the default volume and no loop, until /stop-sound', async () => {
    const answer = await harness.post('/play-sound', { src: 'sounds/door.ogg' });
    expect(answer.status).toBe(200);
    expect(answer.body.type).toBe('play-sound-result');
    expect(answer.body.data).toEqual({ src: 'sounds/door.ogg', volume: 0.5, loop: false });
    const looped = await harness.post('/play-sound', { src: 'sounds/rain.ogg', volume: '0.2', loop: 'true' });
    expect(looped.body.data).toEqual({ src: 'sounds/rain.ogg', volume: 0.2, loop: true });
    expect((await harness.post('/stop-sound', { src: 'sounds/rain.ogg' })).body.data.stopped).toBe(1);
  });

  it.each([
    [{}, "'src' is required"],
    [{ src: 'a.ogg', volume: 2 }, "'volume'"],
  ])('POST /play-sound with %j is a 400 naming the parameter', async (body, error) => {
    const answer = await harness.post('/play-sound', body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain(error);
  });

  it('a player may not control playlists', async () => {
    const answer = await harness.post('/playlist/play', { playlistName: 'Tavern Songs', userId: 'Alice' });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe("User 'Alice' must be a GM to control playlists");
  });
});
