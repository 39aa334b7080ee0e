/**
 * Text someone else chose (a customer's name, a store's name) made fit for an e-mail subject:
 * one line, no URLs or web addresses, at most `max` characters. A subject is what a recipient
 * reads before anything else, so it must not carry a link or a long message of the sender's.
 */
const URL_LIKE =
  /(?:\S*@\S+|\b[a-z][a-z0-9+.-]*:\/\/\S*|\bwww\.\S+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}(?:[/:?#]\S*)?)/gi;

export function subjectText(text: string, max = 40): string {
  const clean = text
    .replace(/[\r\n\t]+/g, " ")
    .replace(URL_LIKE, "")
    .replace(/\s+/g, " ")
    .replace(/\s+([,.;:!?])/g, "$1")
    .trim();
  if (clean.length <= max) return clean;
  return `${clean.slice(0, max - 1).trimEnd()}…`;
}
