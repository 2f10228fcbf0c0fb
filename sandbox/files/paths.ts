// Turning caller-supplied paths into store paths, refusing anything that could reach outside the data folder.

export class UnsafePathError extends Error {
  constructor(input: string) {
    super(`Refused path ${JSON.stringify(input)}: paths must stay inside the world's data folder`);
  }
}

/** Percent-decodes until stable, so "%252e%252e" is judged as "..". Malformed escapes are judged as written. */
function fullyDecoded(input: string): string {
  let current = input;
  for (let round = 0; round < 5; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return current;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

function isUnsafe(text: string): boolean {
  if (text.includes('\0') || text.includes('\\')) return true;
  if (text.startsWith('/') || /^[a-zA-Z]:/.test(text)) return true;
  return text.split('/').some((segment) => segment === '..');
}

/**
 * A store path: relative, "/"-separated, without empty or "." segments. "" and "/" name the root. Refuses `..`
 * segments, absolute and drive paths, backslashes and NUL bytes, also when they are percent-encoded.
 */
export function storePath(input: unknown): string {
  const text = typeof input === 'string' ? input : String(input ?? '');
  if (text === '' || text === '/') return '';
  if (isUnsafe(text) || isUnsafe(fullyDecoded(text))) throw new UnsafePathError(text);
  return text
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.')
    .join('/');
}

export function joinStorePath(dir: string, name: string): string {
  return dir ? `${dir}/${name}` : name;
}

export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? '' : path.slice(0, slash);
}

export function baseNameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
