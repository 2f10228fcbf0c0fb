// Words for times and counts, as the GM reads them.

export function relativeTime(iso: string | undefined, now = Date.now()): string {
  if (!iso) return 'Never';
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return 'Unknown';
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return days === 1 ? 'yesterday' : `${days} days ago`;
}

/** How long until a time to come, rounded: "in 7 days", "in 5 h", "in 12 min"; "now" once it came. */
export function timeUntil(iso: string, now = Date.now()): string {
  const minutes = Math.round((Date.parse(iso) - now) / 60_000);
  if (!Number.isFinite(minutes) || minutes < 1) return 'now';
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `in ${hours} h`;
  return `in ${Math.round(hours / 24)} days`;
}

export function durationSince(iso: string, now = Date.now()): string {
  const minutes = Math.floor((now - Date.parse(iso)) / 60_000);
  if (!Number.isFinite(minutes) || minutes < 1) return 'less than a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

export function countdown(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((Date.parse(iso) - now) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

export function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function shortDate(iso: string): string {
  return new Date(iso).toLocaleDateString([], { year: 'numeric', month: 'short', day: 'numeric' });
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString()} ${count === 1 ? one : many}`;
}

export function systemLine(world: { systemTitle?: string; systemId?: string; systemVersion?: string }): string {
  const system = world.systemTitle || world.systemId || 'Unknown system';
  return world.systemVersion ? `${system} ${world.systemVersion}` : system;
}

const ROLE_NAMES = ['None', 'Player', 'Trusted player', 'Assistant GM', 'Game master'];

export function roleName(role: number): string {
  return ROLE_NAMES[role] ?? 'Player';
}
