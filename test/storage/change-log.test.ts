import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeView } from '../../contracts/admin-api.ts';
import { ChangeJournal } from '../../relay/journal/change-journal.ts';
import { AppendLog } from '../../relay/storage/append-log.ts';

// The change journal's store: an append-only log of JSON lines (relay/storage/append-log.ts) and the journal kept in it.

let dir: string;
const lines: string[] = [];
const log = { info: () => {}, warn: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tabletop-relay-change-log-'));
  lines.length = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the append-only log', () => {
  it('cuts off a record a kill -9 left half written, and appends after the last whole one', async () => {
    const path = join(dir, 'changes.jsonl');
    writeFileSync(path, '{"n":1}\n{"n":2}\n{"n":');
    const file = new AppendLog(path, log);
    expect(file.read()).toEqual([{ n: 1 }, { n: 2 }]);
    await file.append([{ n: 3 }], true);
    expect(readFileSync(path, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3}\n');
    expect(lines).toEqual([]);
  });

  it('writes the records of one tick together, each writer told once they are on the disk', async () => {
    const path = join(dir, 'changes.jsonl');
    const file = new AppendLog(path, log);
    const written = Promise.all([file.append([{ n: 1 }], true), file.append([{ n: 2 }, { n: 3 }], false)]);
    expect(readdirSync(dir)).toEqual([]);
    await written;
    expect(new AppendLog(path, log).read()).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('leaves a damaged line out and says so, keeping the records around it', () => {
    const path = join(dir, 'changes.jsonl');
    writeFileSync(path, '{"n":1}\nnot json\n{"n":3}\n');
    expect(new AppendLog(path, log).read()).toEqual([{ n: 1 }, { n: 3 }]);
    expect(lines).toEqual([`Line 2 of ${path} is damaged; it is left out`]);
  });
});

describe('the change journal on its log', () => {
  const limits = { maxChanges: 3, maxDays: 30 };
  const fields = (name: string): Omit<ChangeView, 'id'> => ({
    at: new Date().toISOString(),
    clientId: 'fvtt_world',
    by: { name: 'Stream Deck' },
    method: 'PUT',
    path: '/update',
    summary: 'Update a document',
    asked: { name },
    state: 'pending',
    changes: [],
  });
  const open = () => new ChangeJournal(join(dir, 'changes'), () => limits, log);

  it('keeps the newest changes within the limits, each as it last stood, across a restart', async () => {
    const journal = open();
    const made: ChangeView[] = [];
    for (const name of ['A', 'B', 'C', 'D']) made.push(await journal.begin(fields(name)));
    journal.settle(made[3]!.id, { state: 'done' });
    journal.flush();
    const reopened = open().list();
    expect(reopened.map((change) => change.asked.name)).toEqual(['D', 'C', 'B']);
    expect(reopened.map((change) => change.state)).toEqual(['done', 'unknown', 'unknown']);
    expect(lines).toEqual([]);
  });

  it('writes the log anew with the changes it keeps, so it does not grow without end', async () => {
    const journal = open();
    for (let index = 0; index < 600; index += 1) {
      const change = await journal.begin(fields(`rename ${index}`));
      journal.settle(change.id, { state: 'done' });
    }
    journal.flush();
    const records = readFileSync(join(dir, 'changes', 'changes.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(records.length).toBeLessThan(2 * 600);
    expect(
      open()
        .list()
        .map((change) => change.asked.name),
    ).toEqual(['rename 599', 'rename 598', 'rename 597']);
    expect(readdirSync(join(dir, 'changes'))).toEqual(['changes.jsonl']);
  });
});
