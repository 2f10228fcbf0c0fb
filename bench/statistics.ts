export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** The nearest-rank percentile, e.g. percentile(latencies, 99). */
export function percentile(values: readonly number[], rank: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((rank / 100) * sorted.length) - 1))]!;
}
