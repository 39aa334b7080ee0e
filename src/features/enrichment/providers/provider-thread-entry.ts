/**
 * The provider thread's program (see provider-thread.ts): builds the configured providers, each
 * behind its limits and circuit breaker, and answers lookups posted by the main thread.
 */
import { parentPort, workerData } from "node:worker_threads";
import { lowerThreadPriority } from "../../../lib/lower-thread-priority.js";
import { monitorLoopDelay, THREAD_REPORT_MS } from "../../metrics/event-loop-delay.js";
import type { SlotGrant } from "../../shared-limits/shared-limits-table.js";
import { createSharedSlots, type SharedSlots } from "../../shared-limits/shared-slots.js";
import { lookupSafely } from "./call-with-deadline.js";
import { createProviders } from "./create-providers.js";
import type { ProviderName, ProviderQuery, ProviderResult } from "./provider.js";
import type { FromThread, ProviderThreadData, ToThread } from "./provider-thread-messages.js";

const port = parentPort;
if (port === null) throw new Error("provider-thread-entry runs only as a worker thread");
const data = workerData as ProviderThreadData;
// Waiting on providers is never urgent: the thread that serves orders gets the CPU first.
lowerThreadPriority();

const post = (message: FromThread, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);
const encoder = new TextEncoder();
/** Slot leases asked of the main thread, by message id. */
const slotAsks = new Map<number, (answer: SlotGrant | Error) => void>();
let nextAskId = 1;
const shared: SharedSlots | undefined = data.sharedSlots
  ? createSharedSlots({
      backend: {
        take: (ask) =>
          new Promise((resolve, reject) => {
            const id = nextAskId++;
            slotAsks.set(id, (answer) =>
              answer instanceof Error ? reject(answer) : resolve(answer),
            );
            post({ type: "take-slots", id, ask });
          }),
        defer: async (name, until) => post({ type: "defer-slots", name, until }),
      },
      onReachability: (reachable, error) =>
        reachable
          ? post({
              type: "log",
              level: "info",
              details: {},
              message: "shared provider rate limits reachable again",
            })
          : post({
              type: "log",
              level: "warn",
              details: { error: String(error) },
              message:
                "shared provider rate limits unreachable: each process keeps its own rate until the database answers",
            }),
    })
  : undefined;
const providers = new Map(
  createProviders(data.enrichment, {
    log: {
      info: (details, message) => post({ type: "log", level: "info", details, message }),
      warn: (details, message) => post({ type: "log", level: "warn", details, message }),
    },
    onCircuitChange: (provider, state) => post({ type: "circuit", provider, state }),
    shared,
  }).map((p) => [p.name, p] as const),
);
const inFlight = new Map<number, AbortController>();
if (data.reportLoopDelay) {
  const readLoopDelay = monitorLoopDelay();
  setInterval(
    () => post({ type: "loop-delay", snapshot: readLoopDelay() }),
    THREAD_REPORT_MS,
  ).unref();
}

port.on("message", (message: ToThread) => {
  if (message.type === "abort") {
    inFlight.get(message.id)?.abort(new Error("aborted by the caller"));
    return;
  }
  if (message.type === "slots") {
    const answer = slotAsks.get(message.id);
    slotAsks.delete(message.id);
    answer?.(message.grant ?? new Error(message.error ?? "shared slots unavailable"));
    return;
  }
  void lookupAll(message.id, message.providers, message.query);
});

async function lookupAll(id: number, names: ProviderName[], query: ProviderQuery): Promise<void> {
  const controller = new AbortController();
  inFlight.set(id, controller);
  try {
    const results = await Promise.all(names.map((name) => lookup(name, query, controller.signal)));
    // Raw bodies are moved, not copied: they leave this heap and never enter the main one.
    const transfer: ArrayBuffer[] = [];
    const sent = results.map((result): ProviderResult => {
      const raw = "raw" in result ? result.raw : undefined;
      if (raw === undefined) return result;
      const rawJson = encoder.encode(JSON.stringify(raw));
      transfer.push(rawJson.buffer as ArrayBuffer);
      return { ...result, raw: undefined, rawJson };
    });
    post({ type: "results", id, results: sent }, transfer);
  } finally {
    inFlight.delete(id);
  }
}

async function lookup(
  name: ProviderName,
  query: ProviderQuery,
  signal: AbortSignal,
): Promise<ProviderResult> {
  const provider = providers.get(name);
  if (provider === undefined) {
    const error = `provider ${name} is not configured in the provider thread`;
    return { kind: "permanent", provider: name, httpStatus: null, error };
  }
  return lookupSafely(provider, query, signal);
}
