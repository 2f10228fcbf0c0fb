// The shared parameter schemas (relay/routing/parameters.ts): what a query string's text or a JSON body's value becomes,
// and the words of the 400 that names a bad one. Every route table builds on these, over HTTP and /ws/api alike.
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  describeIssue,
  flag,
  jsonText,
  number,
  oneOf,
  optionalShownText,
  record,
  shownText,
  text,
  textList,
  wholeNumber,
  worldText,
} from '../../relay/routing/parameters.ts';

/** The 400 message a route with these parameters answers for this input, or the parsed parameters when it accepts it. */
function parsed(shape: z.ZodRawShape, input: Record<string, unknown>): unknown {
  const result = z.object(shape).safeParse(input);
  return result.success ? result.data : describeIssue(result.error.issues[0]!, input);
}

describe('parameters: flags', () => {
  it('reads true and false as a query string spells them, in any case', () => {
    for (const value of ['true', 'TRUE', ' True ', '1', true])
      expect(parsed({ on: flag() }, { on: value })).toEqual({ on: true });
    for (const value of ['false', 'False', '0', false])
      expect(parsed({ on: flag() }, { on: value })).toEqual({ on: false });
  });

  it('refuses any other word, naming the parameter', () => {
    expect(parsed({ on: flag() }, { on: 'yes' })).toBe("'on' must be true or false");
    expect(parsed({ on: flag() }, { on: 1 })).toBe("'on' must be true or false");
  });
});

describe('parameters: numbers', () => {
  it('reads a number from its text and takes a JSON number as it is', () => {
    expect(parsed({ limit: number() }, { limit: '20' })).toEqual({ limit: 20 });
    expect(parsed({ limit: number() }, { limit: ' 2.5 ' })).toEqual({ limit: 2.5 });
    expect(parsed({ limit: number() }, { limit: 7 })).toEqual({ limit: 7 });
  });

  it('refuses text that is no number, blank text included', () => {
    expect(parsed({ limit: number() }, { limit: 'twenty' })).toBe("'limit' must be a number");
    expect(parsed({ limit: number() }, { limit: '  ' })).toBe("'limit' must be a number");
  });

  it('says the whole range when it has both ends, and the one end otherwise', () => {
    expect(parsed({ limit: number({ min: 1, max: 10 }) }, { limit: '11' })).toBe("'limit' must be between 1 and 10");
    expect(parsed({ limit: number({ min: 1, max: 10 }) }, { limit: '0' })).toBe("'limit' must be between 1 and 10");
    expect(parsed({ limit: number({ min: 1 }) }, { limit: '0' })).toBe("'limit' must be at least 1");
    expect(parsed({ limit: number({ max: 5 }) }, { limit: '6' })).toBe("'limit' must be at most 5");
    expect(parsed({ limit: number({ min: 1, max: 10 }) }, { limit: '10' })).toEqual({ limit: 10 });
  });

  it('refuses a fraction where a whole number is wanted', () => {
    expect(parsed({ count: wholeNumber() }, { count: '2.5' })).toBe("'count' must be a whole number");
    expect(parsed({ count: wholeNumber({ min: 0 }) }, { count: '3' })).toEqual({ count: 3 });
  });
});

describe('parameters: lists and objects', () => {
  it('reads a comma-separated list without blanks, or a JSON array', () => {
    expect(parsed({ types: textList() }, { types: ' Actor, Item,,JournalEntry ' })).toEqual({
      types: ['Actor', 'Item', 'JournalEntry'],
    });
    expect(parsed({ types: textList() }, { types: '' })).toEqual({ types: [] });
    expect(parsed({ types: textList() }, { types: '["Actor","Item, with a comma"]' })).toEqual({
      types: ['Actor', 'Item, with a comma'],
    });
    expect(parsed({ types: textList() }, { types: ['Scene'] })).toEqual({ types: ['Scene'] });
  });

  it('refuses a list of other things than strings, and a JSON array it cannot read', () => {
    expect(parsed({ types: textList() }, { types: '[1, 2]' })).toBe("'types.0' must hold only strings");
    expect(parsed({ types: textList() }, { types: 7 })).toBe(
      "'types' must be a comma-separated list or a JSON array of strings",
    );
  });

  it('reads a JSON object from its text and takes an object as it is', () => {
    expect(parsed({ data: record() }, { data: '{"name":"Goblin","hp":{"value":7}}' })).toEqual({
      data: { name: 'Goblin', hp: { value: 7 } },
    });
    expect(parsed({ data: record() }, { data: { name: 'Goblin' } })).toEqual({ data: { name: 'Goblin' } });
  });

  it('refuses text that is not a JSON object', () => {
    for (const data of ['{name: Goblin}', 'Goblin', 7]) {
      expect(parsed({ data: record() }, { data })).toBe("'data' must be a JSON object");
    }
  });

  it('reads JSON text only when it is an object or an array', () => {
    expect(jsonText(' {"a":1} ')).toEqual({ a: 1 });
    expect(jsonText('[1]')).toEqual([1]);
    expect(jsonText('"a"')).toBeUndefined();
    expect(jsonText('12')).toBeUndefined();
    expect(jsonText('{"a":')).toBeUndefined();
  });
});

describe('parameters: text', () => {
  it('trims text and refuses it empty or not text at all', () => {
    expect(parsed({ name: text() }, { name: '  Goblin ' })).toEqual({ name: 'Goblin' });
    expect(parsed({ name: text() }, { name: '   ' })).toBe("'name' must not be empty");
    expect(parsed({ name: text() }, { name: 7 })).toBe("'name' must be a string");
  });

  it('refuses text shown to the GM when it is too long or does not show as it reads', () => {
    expect(parsed({ name: shownText(8) }, { name: 'Stream Deck' })).toBe("'name' is at most 8 characters");
    const reversed = parsed({ name: shownText(40) }, { name: 'Deck\u202Egnp.exe' });
    expect(reversed).toMatch(/^'name' must be plain text on one line/);
    expect(parsed({ name: shownText(40) }, { name: 'Stream\nDeck' })).toMatch(/^'name' must be plain text/);
    expect(parsed({ label: optionalShownText(20) }, {})).toEqual({});
  });

  it("cleans a world's text instead of refusing it, refusing only text too long to clean", () => {
    expect(parsed({ title: worldText(64) }, { title: 'Curse\u202E of\nStrahd' })).toEqual({ title: 'Curse of Strahd' });
    expect(parsed({ title: worldText(64) }, { title: ' \u200B ' })).toEqual({ title: '' });
    expect(parsed({ title: worldText(5) }, { title: 'x'.repeat(6) })).toBe("'title' is too long");
  });

  it('names the values a choice takes', () => {
    expect(parsed({ format: oneOf(['png', 'jpeg']) }, { format: 'gif' })).toBe("'format' must be one of png, jpeg");
    expect(parsed({ format: oneOf(['png', 'jpeg']) }, { format: 'png' })).toEqual({ format: 'png' });
  });
});

describe('parameters: the 400 message', () => {
  it('says a missing parameter is required, by its dotted path', () => {
    expect(parsed({ formula: text() }, {})).toBe("'formula' is required");
    expect(parsed({ data: z.object({ name: text() }) }, { data: {} })).toBe("'data.name' is required");
  });

  it('names the parameter of a wrong value, not calling it missing', () => {
    expect(parsed({ data: z.object({ name: text() }) }, { data: { name: 7 } })).toBe("'data.name' must be a string");
  });

  it('says a problem of the whole input in its own words', () => {
    const schema = z
      .object({ a: z.string().optional(), b: z.string().optional() })
      .refine((value) => value.a || value.b, {
        error: 'Either a or b is required',
      });
    const result = schema.safeParse({});
    expect(result.success).toBe(false);
    expect(describeIssue(result.error!.issues[0]!, {})).toBe('Either a or b is required');
  });
});
