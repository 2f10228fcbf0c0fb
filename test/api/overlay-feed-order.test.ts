import { describe, expect, it } from 'vitest';
import { oldestFirst } from '../../relay/overlays/world.ts';

// The chat log as the world lists it (`chat-messages`): newest first by timestamp, and messages of one millisecond in
// the order they were made (a stable sort of the log by timestamp, descending).
describe("a feed's messages, oldest first", () => {
  it('keeps the order messages of the same millisecond were made in', () => {
    const listed = [
      { id: 'c', timestamp: 200 },
      { id: 'a', timestamp: 100 },
      { id: 'b', timestamp: 100 },
    ];
    expect(oldestFirst(listed).map((message) => message.id)).toEqual(['a', 'b', 'c']);
  });

  it('puts an older message first wherever the world listed it', () => {
    const listed = [
      { id: 'old', timestamp: 100 },
      { id: 'new', timestamp: 300 },
      { id: 'mid', timestamp: 200 },
    ];
    expect(oldestFirst(listed).map((message) => message.id)).toEqual(['old', 'mid', 'new']);
  });
});
