/**
 * The access log's one line per request, written as pino writes it but without pino's work per
 * line: the line is put together from its few known fields (the logger's own bindings, `pid`
 * and `hostname`, serialised once), passed through the logger's streamWrite hook (the scrub of
 * e-mails and tokens, lib/log-scrub.ts) and written to the logger's stream. On the order path
 * pino's general serialiser cost about as much as a SQLite insert.
 *
 * The fast line must be byte for byte the line pino would write: this is checked once, when
 * the writer is made, against pino's own serialiser; a logger it does not match (a mixin,
 * formatters, another time format, a multistream) gets its lines from pino as before.
 */
import { type Logger, symbols } from "pino";

export interface AccessLine {
  method: string;
  route: string;
  path: string;
  status: number;
  ms: number;
}

/** Writes one access-log line at `info` for this request id. */
export type AccessLogWriter = (requestId: string, line: AccessLine) => void;

const INFO = 30;

interface PinoInternals {
  [key: symbol]: unknown;
}

export function createAccessLogWriter(log: Logger): AccessLogWriter {
  const viaPino: AccessLogWriter = (requestId, line) => {
    log.child({ requestId }).info(line, "request");
  };
  const internals = log as unknown as PinoInternals;
  const chindings = internals[symbols.chindingsSym];
  const stream = internals[symbols.streamSym] as { write(line: string): unknown } | undefined;
  const hooks = internals[Symbol.for("pino.hooks")] as
    | { streamWrite?: (line: string) => string }
    | undefined;
  if (typeof chindings !== "string" || stream === undefined) return viaPino;
  // A stream that reads each line's level and object (pino.multistream) needs pino's write.
  if ((stream as PinoInternals)[symbols.needsMetadataGsym] === true) return viaPino;
  const hook = hooks?.streamWrite;

  const format = (time: number, requestId: string, l: AccessLine): string =>
    `{"level":${INFO},"time":${time}${chindings},"requestId":${JSON.stringify(requestId)},"method":${JSON.stringify(l.method)},"route":${JSON.stringify(l.route)},"path":${JSON.stringify(l.path)},"status":${l.status},"ms":${l.ms},"msg":"request"}\n`;

  if (!matchesPino(log, format)) return viaPino;
  return (requestId, line) => {
    if (!log.isLevelEnabled("info")) return;
    const text = format(Date.now(), requestId, line);
    stream.write(hook ? hook(text) : text);
  };
}

/** Whether `format` gives pino's own line for a sample that needs escaping. */
function matchesPino(
  log: Logger,
  format: (time: number, requestId: string, l: AccessLine) => string,
): boolean {
  const sample: AccessLine = {
    method: "POST",
    route: "/api/v1/orders",
    path: '/api/v1/orders/"quoted"\\é\u0001\ud800',
    status: 200,
    ms: 3,
  };
  const child = log.child({ requestId: "probe-1" }) as unknown as PinoInternals;
  const asJson = child[symbols.asJsonSym] as
    | ((obj: object, msg: string, num: number, time: string) => string)
    | undefined;
  const timeOf = child[symbols.timeSym] as (() => string) | undefined;
  const mixin = child[symbols.mixinSym];
  if (asJson === undefined || timeOf === undefined || mixin) return false;
  // The time function must be pino's epoch milliseconds.
  const time = timeOf.call(child);
  const millis = /^,"time":(\d+)$/.exec(time)?.[1];
  if (millis === undefined) return false;
  const theirs = asJson.call(child, sample, "request", INFO, time);
  return theirs === format(Number(millis), "probe-1", sample);
}
