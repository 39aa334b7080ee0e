/**
 * Reads the ECB's daily reference-rate file (eurofxref-daily.xml) strictly: the gesmes envelope,
 * one `<Cube time='YYYY-MM-DD'>` and in it only `<Cube currency='XXX' rate='n.nnnn'/>` entries.
 * Anything else (an HTML error page, a body cut short, the 90-day file with several days, an
 * entry with a bad rate) is refused with the reason, so a refresh that gets it changes nothing.
 *
 * The format is fixed and machine-written, and Velvet has no XML parser among its dependencies:
 * a sticky scan that must account for every character of the day is stricter than a lenient
 * parser would be, and short.
 */
import { ECB_SOURCE, type RateDay, rateDayProblem } from "./rate-day.js";

export type ParsedRates = { ok: true; day: RateDay } | { ok: false; reason: string };

const ENVELOPE =
  /^\s*(?:<\?xml[^>]*\?>\s*)?<gesmes:Envelope\b[^>]*>([\s\S]*)<\/gesmes:Envelope>\s*$/;
const DAY = /<Cube>\s*<Cube\s+time=(['"])([^'"]*)\1\s*>([\s\S]*?)<\/Cube>\s*<\/Cube>/;
const ENTRY = /\s*<Cube\s+currency=(['"])([^'"]*)\1\s+rate=(['"])([^'"]*)\3\s*\/>/y;

export function parseEcbDailyXml(body: string): ParsedRates {
  const envelope = ENVELOPE.exec(body);
  if (!envelope) {
    return refuse("it is not the ECB's gesmes:Envelope document (or it was cut short)");
  }
  const inner = envelope[1] as string;
  const days = inner.match(/<Cube\s+time=/g)?.length ?? 0;
  if (days !== 1) return refuse(`it holds ${days} days of rates; the daily file holds one`);
  const day = DAY.exec(inner);
  if (!day) return refuse("its Cube elements are not nested as in the daily file");
  const date = day[2] as string;
  const entries = day[3] as string;
  const rates = new Map<string, string>();
  ENTRY.lastIndex = 0;
  let at = 0;
  for (let m = ENTRY.exec(entries); m !== null; m = ENTRY.exec(entries)) {
    const currency = m[2] as string;
    if (rates.has(currency)) return refuse(`it quotes ${currency} twice`);
    rates.set(currency, m[4] as string);
    at = ENTRY.lastIndex;
  }
  const rest = entries.slice(at).trim();
  if (rest !== "") return refuse(`unexpected content in the day's rates: "${rest.slice(0, 60)}"`);
  const parsed: RateDay = { date, source: ECB_SOURCE, rates };
  const problem = rateDayProblem(parsed);
  return problem === null ? { ok: true, day: parsed } : refuse(problem);
}

function refuse(reason: string): ParsedRates {
  return { ok: false, reason };
}
