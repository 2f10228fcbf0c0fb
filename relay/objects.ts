/** The object without its undefined fields, as JSON would send it. */
export function withoutUndefined<T extends object>(value: T): Partial<T> {
  const result: Partial<T> = {};
  for (const [name, entry] of Object.entries(value)) if (entry !== undefined) result[name as keyof T] = entry;
  return result;
}

type Fields = Record<string, unknown>;

/** A value of a world's JSON as an object, or undefined when it is not one. */
export function fieldsOf(value: unknown): Fields | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : undefined;
}

/** The objects of a list in a world's JSON, anything else left out; no list is an empty one. */
export function listOf(value: unknown): Fields[] {
  return Array.isArray(value) ? value.map(fieldsOf).filter((item): item is Fields => item !== undefined) : [];
}

export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
