/**
 * The value axis of the dashboard's charts: from 0 to a "nice" top with evenly spaced ticks
 * whose steps are 1, 2 or 5 × 10^n (0, 2, 4, 6, 8 rather than 0 and 7), so each gridline reads
 * at a glance. Counts step by whole numbers; amounts may step by cents.
 */

export interface Scale {
  /** The top of the axis: the last tick, at least the data's maximum. */
  max: number;
  /** From 0 up to `max`, evenly spaced. */
  ticks: number[];
}

/** About this many steps between 0 and the top (3 to 6 in practice). */
const TARGET_STEPS = 4;

export function niceScale(dataMax: number, options: { integer?: boolean } = {}): Scale {
  const integer = options.integer ?? true;
  const top = Number.isFinite(dataMax) && dataMax > 0 ? dataMax : 1;
  const raw = top / TARGET_STEPS;
  const pow = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 5, 10].map((m) => m * pow).find((s) => s >= raw) ?? 10 * pow;
  if (integer) step = Math.max(1, Math.ceil(step));
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  const n = Math.ceil(top / step - 1e-9);
  const ticks = Array.from({ length: n + 1 }, (_, i) => Number((i * step).toFixed(decimals)));
  return { max: ticks[ticks.length - 1] ?? 1, ticks };
}

/**
 * Which of `count` columns get a label on the time axis: every `step`-th counted back from
 * the last (today, this month), so the newest is always named, and no more than `most`.
 */
export function labelledColumns(count: number, most: number, steps: readonly number[]): number[] {
  if (count === 0) return [];
  const step = steps.find((s) => Math.ceil(count / s) <= most) ?? steps[steps.length - 1] ?? 1;
  const out: number[] = [];
  for (let i = count - 1; i >= 0; i -= step) out.unshift(i);
  return out;
}
