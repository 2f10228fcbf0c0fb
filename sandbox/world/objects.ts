// Plain-object helpers in the manner of foundry.utils (getProperty, expandObject, mergeObject, diffObject).

export type PlainObject = Record<string, unknown>;

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** A key that would reach an object's prototype when written as (part of) a path: the setters below skip it. */
function namesPrototype(key: string): boolean {
  return key.split('.').some((segment) => PROTOTYPE_KEYS.has(segment));
}

/** The own entries that are safe to write as paths. */
function safeEntries(object: PlainObject): [string, unknown][] {
  return Object.entries(object).filter(([key]) => !namesPrototype(key));
}

export function isPlainObject(value: unknown): value is PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function deepClone<T>(value: T): T {
  return structuredClone(value);
}

export function getProperty(target: unknown, path: string): unknown {
  let current: unknown = target;
  for (const key of path.split('.')) {
    if (current === null || current === undefined) return undefined;
    current = (current as PlainObject)[key];
  }
  return current;
}

/** Sets a dotted path, making the objects on the way. */
export function setProperty(target: PlainObject, path: string, value: unknown): void {
  if (namesPrototype(path)) return;
  const parts = path.split('.');
  let current = target;
  for (const part of parts.slice(0, -1)) {
    if (!isPlainObject(current[part])) current[part] = {};
    current = current[part] as PlainObject;
  }
  current[parts[parts.length - 1]!] = value;
}

/**
 * `base` with `top` laid over it: objects are combined key by key, any other value of `top` replaces the base's, and
 * keys `top` leaves undefined keep the base's value (how a schema fills in the fields data leaves out). The result
 * shares the values it did not combine with `base` and `top`: clone it before changing it.
 */
export function overlay(base: PlainObject, top: PlainObject): PlainObject {
  const result = { ...base };
  for (const [key, value] of safeEntries(top)) {
    if (value === undefined) continue;
    result[key] =
      isPlainObject(value) && isPlainObject(result[key]) ? overlay(result[key] as PlainObject, value) : value;
  }
  return result;
}

/** Turns `{"system.hp.value": 3}` into `{system: {hp: {value: 3}}}`. */
export function expandObject(flat: PlainObject): PlainObject {
  const expanded: PlainObject = {};
  for (const [key, value] of safeEntries(flat)) {
    const parts = key.split('.');
    let target = expanded;
    for (const part of parts.slice(0, -1)) {
      if (!isPlainObject(target[part])) target[part] = {};
      target = target[part] as PlainObject;
    }
    target[parts[parts.length - 1]!] = isPlainObject(value) ? expandObject(value) : value;
  }
  return expanded;
}

/** Foundry's `-=key`: the update removes `key` (`mergeObject` with `performDeletions`). */
function deletedKey(key: string): string | undefined {
  return key.startsWith('-=') ? key.slice(2) : undefined;
}

/** The parts of `changes` that differ from `original` (arrays compared as a whole); a `-=key` only when `key` is there. */
export function diffObject(original: PlainObject, changes: PlainObject): PlainObject {
  const diff: PlainObject = {};
  for (const [key, value] of safeEntries(changes)) {
    const deleted = deletedKey(key);
    if (deleted !== undefined) {
      if (Object.hasOwn(original, deleted)) diff[key] = null;
      continue;
    }
    const before = original[key];
    if (isPlainObject(value) && isPlainObject(before)) {
      const inner = diffObject(before, value);
      if (Object.keys(inner).length > 0) diff[key] = inner;
    } else if (JSON.stringify(before) !== JSON.stringify(value)) {
      diff[key] = deepClone(value);
    }
  }
  return diff;
}

export function mergeInto(target: PlainObject, changes: PlainObject): void {
  for (const [key, value] of safeEntries(changes)) {
    const deleted = deletedKey(key);
    if (deleted !== undefined) delete target[deleted];
    else if (isPlainObject(value) && isPlainObject(target[key])) mergeInto(target[key] as PlainObject, value);
    else target[key] = deepClone(value);
  }
}
