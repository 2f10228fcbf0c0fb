import { z } from 'zod';
import { isShownText, shownClean, UNSHOWN_TEXT_ERROR } from '../shown-text.ts';

// Schemas for parameters that may arrive as query strings ("true", "20", "a,b") or as typed JSON body values.
// Each carries the message that ends up in the 400 answer after the parameter's name.

function fromQueryBoolean(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const lower = value.trim().toLowerCase();
  if (lower === 'true' || lower === '1') return true;
  if (lower === 'false' || lower === '0') return false;
  return value;
}

function fromQueryNumber(value: unknown): unknown {
  if (typeof value !== 'string' || value.trim() === '') return value;
  const number = Number(value);
  return Number.isNaN(number) ? value : number;
}

/** What JSON text of an object or an array parses to; undefined for any other text. */
export function jsonText(value: string): unknown {
  const text = value.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function fromListString(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text.startsWith('[')) return jsonText(text) ?? value;
  return text === ''
    ? []
    : text
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
}

function fromJsonString(value: unknown): unknown {
  if (typeof value !== 'string' || !value.trim().startsWith('{')) return value;
  return jsonText(value) ?? value;
}

export const text = () => z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' });

/**
 * Text the GM reads as a caller sent it (a tool's name, an invitation's label): refused (400) unless it shows as it reads
 * (`isShownText`); at most `max` characters.
 */
export const shownText = (max: number) =>
  text()
    .max(max, { error: `is at most ${max} characters` })
    .refine(isShownText, { error: UNSHOWN_TEXT_ERROR });

/** `shownText` that may be left out or empty. */
export const optionalShownText = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .max(max, { error: `is at most ${max} characters` })
    .refine(isShownText, { error: UNSHOWN_TEXT_ERROR })
    .optional();

/**
 * Text a world sends about itself (its id, its title, its system's): what does not show as it reads is cleaned out
 * (`shownClean`), never refused, as the GM typed it in Foundry and the unmodified module cannot be told.
 */
export const worldText = (max: number) =>
  z
    .string({ error: 'must be a string' })
    .max(max, { error: 'is too long' })
    .transform((value) => shownClean(value, max));

/** A Foundry address as the GM opens it in the browser, e.g. http://localhost:30000. */
export const foundryAddress = () =>
  text()
    .max(2000)
    .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, { error: 'must be an http(s) URL such as http://localhost:30000' });

export const flag = () => z.preprocess(fromQueryBoolean, z.boolean({ error: 'must be true or false' }));

interface Range {
  min?: number;
  max?: number;
}

function within(schema: z.ZodNumber, { min, max }: Range): z.ZodNumber {
  const error = min !== undefined && max !== undefined ? `must be between ${min} and ${max}` : undefined;
  let bounded = schema;
  if (min !== undefined) bounded = bounded.min(min, { error: error ?? `must be at least ${min}` });
  if (max !== undefined) bounded = bounded.max(max, { error: error ?? `must be at most ${max}` });
  return bounded;
}

export const number = (range: Range = {}) =>
  z.preprocess(fromQueryNumber, within(z.number({ error: 'must be a number' }), range));

export const wholeNumber = (range: Range = {}) =>
  z.preprocess(
    fromQueryNumber,
    within(z.number({ error: 'must be a number' }).int({ error: 'must be a whole number' }), range),
  );

export const textList = () =>
  z.preprocess(
    fromListString,
    z.array(z.string({ error: 'must hold only strings' }), {
      error: 'must be a comma-separated list or a JSON array of strings',
    }),
  );

export const record = () =>
  z.preprocess(fromJsonString, z.record(z.string(), z.unknown(), { error: 'must be a JSON object' }));

export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: `must be one of ${values.join(', ')}` });
}

/** The value at the issue's path, looking into JSON text as the list and object schemas read it (`types=[1,2]`). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    const container = typeof value === 'string' ? jsonText(value) : value;
    if (typeof container !== 'object' || container === null) return undefined;
    value = (container as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** The 400 message for the first problem zod found in the input, naming the parameter. */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const name = issue.path.map(String).join('.');
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) return `'${name}' is required`;
  if (name === '') return issue.message;
  return `'${name}' ${issue.message}`;
}
