/** Rate and time left of a running import, from bytes read (the file's size is known). */
export interface ImportProgress {
  rows: number;
  orders: number;
  bytes: number;
  totalBytes: number;
  rowsPerSecond: number;
  /** Seconds left at the current rate; null until there is a rate to go by. */
  etaSeconds: number | null;
}

export function measureProgress(
  counts: { rows: number; orders: number; bytes: number },
  totalBytes: number,
  elapsedMs: number,
): ImportProgress {
  const seconds = elapsedMs / 1000;
  const rowsPerSecond = seconds > 0 ? Math.round(counts.rows / seconds) : 0;
  const bytesPerSecond = seconds > 0 ? counts.bytes / seconds : 0;
  const etaSeconds =
    bytesPerSecond > 0
      ? Math.max(0, Math.round((totalBytes - counts.bytes) / bytesPerSecond))
      : null;
  return { ...counts, totalBytes, rowsPerSecond, etaSeconds };
}
