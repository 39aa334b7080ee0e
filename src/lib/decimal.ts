/**
 * Exact decimal arithmetic for money, on BigInt scaled by 10^6. Order totals and prices are
 * decimal strings end to end; a float never touches them.
 */
const SCALE_DIGITS = 6;
const SCALE = 10n ** BigInt(SCALE_DIGITS);
const DECIMAL_RE = /^(\d+)(?:\.(\d+))?$/;

export function isDecimalString(value: string): boolean {
  return DECIMAL_RE.test(value);
}

/** Parses a non-negative decimal string into micro-units (10^-6), rounding half up past 6 places. */
export function toMicros(value: string): bigint {
  const m = DECIMAL_RE.exec(value);
  if (!m) throw new RangeError(`not a decimal string: ${value}`);
  const whole = BigInt(m[1] ?? "0");
  const frac = m[2] ?? "";
  const kept = BigInt(frac.slice(0, SCALE_DIGITS).padEnd(SCALE_DIGITS, "0"));
  const roundUp = frac.length > SCALE_DIGITS && Number(frac[SCALE_DIGITS]) >= 5 ? 1n : 0n;
  return whole * SCALE + kept + roundUp;
}

/** Formats micro-units with at least `minFraction` decimals and no trailing zeros beyond that. */
export function fromMicros(micros: bigint, minFraction = 2): string {
  const whole = micros / SCALE;
  let frac = (micros % SCALE).toString().padStart(SCALE_DIGITS, "0").replace(/0+$/, "");
  if (frac.length < minFraction) frac = frac.padEnd(minFraction, "0");
  return frac.length > 0 ? `${whole}.${frac}` : whole.toString();
}

export function multiply(unit: string, count: number): string {
  return fromMicros(toMicros(unit) * BigInt(count));
}
