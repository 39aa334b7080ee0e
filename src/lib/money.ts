/**
 * Money for people to read: "$1,250.00", "€89.90". The amount stays a decimal string all the
 * way (Intl formats numeric strings exactly), so display never rounds through a float.
 */
const formatters = new Map<string, Intl.NumberFormat>();

export function formatMoney(amount: string, currency: string): string {
  let formatter = formatters.get(currency);
  if (!formatter) {
    try {
      formatter = new Intl.NumberFormat("en-US", { style: "currency", currency });
    } catch {
      return `${amount} ${currency}`;
    }
    formatters.set(currency, formatter);
  }
  return formatter.format(amount as Intl.StringNumericLiteral);
}
