/**
 * Order dates as the exports write them: ISO 8601 (`2024-03-05T14:02:11Z`, `+01:00`), Shopify's
 * `2024-03-05 14:02:11 -0500`, WooCommerce's `2024-03-05 14:02:11` (the shop's local time, no
 * zone: read as UTC) and a bare `2024-03-05` (midnight UTC). Anything else is refused rather
 * than guessed at: `03/05/2024` means two different days on two sides of the Atlantic.
 */
const DATE_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** Epoch milliseconds, or null when the text is not one of the accepted forms. */
export function parseOrderDate(text: string): number | null {
  const m = DATE_RE.exec(text.trim());
  if (!m) return null;
  const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const ms = Date.UTC(
    year,
    month - 1,
    day,
    Number(h),
    Number(mi),
    Number(s),
    Number(frac.padEnd(3, "0").slice(0, 3)),
  );
  // Date.UTC rolls 2024-02-31 over into March: refuse instead.
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return ms - zoneOffsetMs(zone);
}

function zoneOffsetMs(zone: string | undefined): number {
  if (zone === undefined || zone.toUpperCase() === "Z") return 0;
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4))) * 60_000;
}
