/**
 * Metrics recorded on another thread and counted in this one: the worker thread of `velvet serve`
 * records its provider answers, circuit changes, deliveries and the event-loop delay of its own
 * loop and of its provider thread through `forwardedMetrics`, whose calls gather and leave in one
 * message every FLUSH_MS; the serving thread hands each batch to its own registry with
 * `applyForwarded`. One registry per process, so `/metrics` shows the process
 * whole, whichever thread did the work. Rendering happens where the registry is, never here.
 */
import type { LoopDelaySnapshot } from "./event-loop-delay.js";
import type { HelperThread, Metrics } from "./metrics.js";

/** A recorded call: the method's name and its arguments. */
export type ForwardedCall =
  | ["providerCall", string, string, string, number | null]
  | ["circuitState", string, Parameters<Metrics["circuitState"]>[1]]
  | ["alertDelivery", string, string]
  | ["destinationDelivery", string, string]
  | ["threadLoopDelay", HelperThread, LoopDelaySnapshot];

const FLUSH_MS = 250;

export interface ForwardedMetrics extends Metrics {
  /** Sends what is gathered now (before the thread ends). */
  flush(): void;
}

export function forwardedMetrics(send: (calls: ForwardedCall[]) => void): ForwardedMetrics {
  let calls: ForwardedCall[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (calls.length === 0) return;
    const batch = calls;
    calls = [];
    send(batch);
  };
  const record = (call: ForwardedCall) => {
    calls.push(call);
    if (timer === null) {
      timer = setTimeout(flush, FLUSH_MS);
      timer.unref();
    }
  };
  return {
    enabled: true,
    httpRequest: () => {},
    submission: () => {},
    providerCall: (provider, outcome, reason, seconds) =>
      record(["providerCall", provider, outcome, reason, seconds]),
    circuitState: (provider, state) => record(["circuitState", provider, state]),
    alertDelivery: (channel, outcome) => record(["alertDelivery", channel, outcome]),
    destinationDelivery: (kind, outcome) => record(["destinationDelivery", kind, outcome]),
    threadLoopDelay: (thread, snapshot) => record(["threadLoopDelay", thread, snapshot]),
    render: async () => {
      throw new Error("forwarded metrics are rendered by the thread that holds the registry");
    },
    flush,
  };
}

/** Counts a forwarded batch in this thread's metrics. */
export function applyForwarded(metrics: Metrics, calls: readonly ForwardedCall[]): void {
  for (const call of calls) {
    switch (call[0]) {
      case "providerCall":
        metrics.providerCall(call[1], call[2], call[3], call[4]);
        break;
      case "circuitState":
        metrics.circuitState(call[1], call[2]);
        break;
      case "alertDelivery":
        metrics.alertDelivery(call[1], call[2]);
        break;
      case "destinationDelivery":
        metrics.destinationDelivery(call[1], call[2]);
        break;
      case "threadLoopDelay":
        metrics.threadLoopDelay(call[1], call[2]);
        break;
      default:
        call satisfies never;
    }
  }
}
