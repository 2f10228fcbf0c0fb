// What executeJavaScript gives back (https://www.electronjs.org/docs/latest/api/web-contents#contentsexecutejavascriptcode-usergesture):
// the result crosses from the renderer as a structured clone, so Dates, Maps, Sets, RegExps and BigInts survive and
// what cannot be cloned (functions, DOM nodes, symbols…) rejects the call. The page's value comes through DevTools'
// deep serialization; typed arrays and Errors, which Electron clones, are not reproduced.
import type { Protocol } from 'puppeteer-core';

type Serialized = Protocol.Runtime.DeepSerializedValue;

const NOT_CLONEABLE = 'An object could not be cloned.';
const SPECIAL_NUMBERS: Record<string, number> = {
  NaN: Number.NaN,
  '-0': -0,
  Infinity: Number.POSITIVE_INFINITY,
  '-Infinity': Number.NEGATIVE_INFINITY,
};

export function structuredCloneOf(serialized: Serialized | undefined): unknown {
  return revive(serialized, new Map());
}

/** Repeated and circular references come once with their value and later by internal id alone. */
function revive(serialized: Serialized | undefined, seen: Map<string, unknown>): unknown {
  if (!serialized) return undefined;
  const id = (serialized as { internalId?: string }).internalId;
  if (id !== undefined && seen.has(id) && serialized.value === undefined) return seen.get(id);
  const remember = <T>(value: T): T => {
    if (id !== undefined) seen.set(id, value);
    return value;
  };
  const { type, value } = serialized;
  switch (type) {
    case 'undefined':
      return undefined;
    case 'null':
      return null;
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return typeof value === 'string' ? SPECIAL_NUMBERS[value] : value;
    case 'bigint':
      return BigInt(value);
    case 'date':
      return new Date(value);
    case 'regexp':
      return new RegExp(value.pattern, value.flags);
    case 'array': {
      const array = remember([] as unknown[]);
      for (const item of value as Serialized[]) array.push(revive(item, seen));
      return array;
    }
    case 'set': {
      const set = remember(new Set<unknown>());
      for (const item of value as Serialized[]) set.add(revive(item, seen));
      return set;
    }
    case 'map': {
      const map = remember(new Map<unknown, unknown>());
      for (const [key, item] of value as [string | Serialized, Serialized][])
        map.set(typeof key === 'string' ? key : revive(key, seen), revive(item, seen));
      return map;
    }
    case 'object': {
      const object = remember({} as Record<string, unknown>);
      for (const [key, item] of value as [string | Serialized, Serialized][])
        object[typeof key === 'string' ? key : String(revive(key, seen))] = revive(item, seen);
      return object;
    }
    default:
      throw new Error(NOT_CLONEABLE);
  }
}

/** What the code threw, or its promise rejected with: an Error keeps its message. */
export function thrownBy(details: Protocol.Runtime.ExceptionDetails): Error {
  const exception = details.exception;
  if (exception?.subtype === 'error') {
    const firstLine = (exception.description ?? details.text).split('\n')[0]!;
    return new Error(firstLine.replace(/^[\w$]*Error: /, ''));
  }
  return new Error(
    exception && 'value' in exception ? String(exception.value) : (exception?.description ?? details.text),
  );
}
