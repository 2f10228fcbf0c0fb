/** The object without its undefined fields, as JSON would send it. */
export function withoutUndefined<T extends object>(value: T): Partial<T> {
  const result: Partial<T> = {};
  for (const [name, entry] of Object.entries(value)) if (entry !== undefined) result[name as keyof T] = entry;
  return result;
}
