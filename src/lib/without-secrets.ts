/**
 * A message with given secrets taken out, for text that quotes another server's answer: a
 * platform (or a proxy in front of it) may repeat what it was sent, and the message is then
 * shown on a page or stored. Each secret becomes "[secret hidden]"; one cut short by an excerpt
 * (lib/excerpt.ts: its first characters, then "…") is hidden too.
 */

export const SECRET_HIDDEN = "[secret hidden]";

/** Shorter input is no platform's secret, and hiding it would garble the message around it. */
const SHORTEST_SECRET = 8;
/** The shortest start of a secret hidden where an excerpt cut the text. */
const SHORTEST_CUT = 4;

export function withoutSecrets(message: string, secrets: readonly string[]): string {
  const hidden = secrets
    .filter((secret) => secret.length >= SHORTEST_SECRET)
    .sort((a, b) => b.length - a.length);
  const whole = hidden.reduce((text, secret) => text.split(secret).join(SECRET_HIDDEN), message);
  return whole.replace(/(\S+)…/g, (cut, before: string) => {
    for (const secret of hidden) {
      for (let n = Math.min(secret.length - 1, before.length); n >= SHORTEST_CUT; n--) {
        if (before.endsWith(secret.slice(0, n))) {
          return `${before.slice(0, before.length - n)}${SECRET_HIDDEN}…`;
        }
      }
    }
    return cut;
  });
}
