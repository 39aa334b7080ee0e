/**
 * Money for people to read, one format everywhere (pages, e-mail, chat, CLI): "$1,250.00",
 * "€89.90", "$148,000". An amount stays a decimal string all the way (Intl formats numeric
 * strings exactly), so display never rounds through a float, and an exact sum with more
 * decimals than the currency's usual two keeps them ("$0.105").
 */
const formatters = new Map<string, Intl.NumberFormat | null>();

/** The currency's usual fraction digits at least, and up to `maxFraction` (null: the usual). */
function formatter(currency: string, maxFraction: number | null, whole = false) {
  const key = `${currency}:${maxFraction}:${whole}`;
  if (!formatters.has(key)) {
    let f: Intl.NumberFormat | null = null;
    try {
      const usual =
        new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions()
          .minimumFractionDigits ?? 2;
      f = new Intl.NumberFormat("en-US", {
        style: "currency",
        currency,
        minimumFractionDigits: whole ? 0 : usual,
        maximumFractionDigits: whole ? 0 : Math.max(usual, maxFraction ?? usual),
      });
    } catch {
      f = null;
    }
    formatters.set(key, f);
  }
  return formatters.get(key) ?? null;
}

export function formatMoney(amount: string, currency: string): string {
  const decimals = /\.(\d+)$/.exec(amount.trim())?.[1]?.length ?? 0;
  const f = formatter(currency, decimals);
  return f === null ? `${amount} ${currency}` : f.format(amount as Intl.StringNumericLiteral);
}

/** A figure in US dollars (an income, a salary): "$148,000"; cents only when it has them. */
export function formatUsd(value: number): string {
  const f = formatter("USD", 2, Number.isInteger(value)) as Intl.NumberFormat;
  return f.format(value);
}
