/**
 * A one-line progress bar on a terminal (stderr, redrawn in place): percentage of the file,
 * rows, rows per second and the time left.
 */
import type { ImportProgress } from "../features/order-import/import-progress.js";

const WIDTH = 24;

export function renderProgressBar(p: ImportProgress): string {
  const fraction = p.totalBytes > 0 ? Math.min(1, p.bytes / p.totalBytes) : 0;
  const filled = Math.round(fraction * WIDTH);
  const bar = `${"█".repeat(filled)}${"░".repeat(WIDTH - filled)}`;
  const eta = p.etaSeconds === null ? "--:--" : clock(p.etaSeconds);
  const pct = `${Math.floor(fraction * 100)}%`.padStart(4);
  return `${bar} ${pct}  ${p.rows.toLocaleString("en-US")} rows  ${p.rowsPerSecond.toLocaleString("en-US")} rows/s  ETA ${eta}`;
}

function clock(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m >= 60
    ? `${Math.floor(m / 60)}:${String(m % 60).padStart(2, "0")}:${String(s).padStart(2, "0")}`
    : `${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}
