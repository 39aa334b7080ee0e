/**
 * The configured providers, run on a thread of their own. At 100+ new customers a second with
 * providers answering in 2–5 s, about two thousand lookups are in flight at once; their sockets,
 * parsers, timers and buffers live for seconds, and on the event loop that serves orders they
 * filled the old generation fast enough for a full garbage collection every few seconds, each
 * stalling order intake for 50–80 ms. Here they live on the thread's own heap, collected without
 * stopping the main loop; the main thread keeps one promise per enrichment attempt.
 *
 * Everything about a provider stays in the thread: adapters, timeout, concurrency cap, rate limit
 * and circuit breaker (create-providers.ts), so the thread is the one place that knows a
 * provider's health. The rate limit is shared by every process on the database: the thread asks
 * this thread for a lease of slots (`take-slots`), answered from the `shared_limits` table
 * (`slots`), and spends it itself; a 429 pushes the shared next slot (`defer-slots`). When the
 * database does not answer, the thread keeps its own per-process rate until it does. `lookupAll` posts one message per attempt (these providers, this person),
 * the caller's signal posts an abort, and every answer comes back in one message, each the
 * value the adapter returned, its raw body as UTF-8 bytes moved (not copied) out of the thread.
 * The `providers` are ordinary `EnrichmentProvider`s over the same channel. Storing results
 * stays on the main thread, with the database.
 *
 * The thread starts on the first lookup (a CLI command never starts it) and does not keep the
 * process alive while idle. If it dies, the lookups it held come back `transient` (the job is
 * retried like after any provider failure) and the next lookup starts a new one.
 */
import type { Worker } from "node:worker_threads";
import type { Config } from "../../../config.js";
import { startThread } from "../../../lib/start-thread.js";
import { createTurnQueue } from "../../../lib/turn-queue.js";
import { type Metrics, noMetrics } from "../../metrics/metrics.js";
import type { SlotBackend } from "../../shared-limits/shared-slots.js";
import { configuredProviderNames } from "./create-providers.js";
import type { LookupAll } from "./lookup-all.js";
import type { EnrichmentProvider, ProviderName, ProviderResult } from "./provider.js";
import type { FromThread, ProviderThreadData, ToThread } from "./provider-thread-messages.js";
import type { ProviderLog } from "./resilient-provider.js";

export interface ThreadedProviders {
  providers: EnrichmentProvider[];
  /** Asks several of them in one message to the thread (one per enrichment attempt). */
  lookupAll: LookupAll;
  /** Stops the thread; lookups still in flight come back `aborted`. */
  close(): Promise<void>;
}

export interface ProviderThreadLog extends ProviderLog {
  error(details: object, message: string): void;
}

interface Pending {
  providers: ProviderName[];
  resolve(results: ProviderResult[]): void;
}

export function createThreadedProviders(
  settings: Config["enrichment"],
  log: ProviderThreadLog,
  /** Told when a provider's circuit changes state, and of the thread's event-loop delay. */
  metrics: Pick<Metrics, "enabled" | "circuitState" | "threadLoopDelay"> = noMetrics,
  /** The shared slot table, which the thread reaches through this thread (it has no database). */
  slots?: SlotBackend,
): ThreadedProviders {
  const names = configuredProviderNames(settings);
  const pending = new Map<number, Pending>();
  let worker: Worker | null = null;
  let nextId = 1;
  let closed = false;
  const turns = createTurnQueue();

  const endAll = (result: (provider: ProviderName) => ProviderResult) => {
    for (const [id, entry] of pending) {
      pending.delete(id);
      entry.resolve(entry.providers.map(result));
    }
  };

  function start(): Worker {
    const data: ProviderThreadData = {
      enrichment: settings,
      sharedSlots: slots !== undefined,
      reportLoopDelay: metrics.enabled,
    };
    const thread = startThread(new URL("./provider-thread-entry.js", import.meta.url), {
      workerData: data,
    });
    thread.unref();
    thread.on("message", (message: FromThread) => {
      if (message.type === "log") {
        log[message.level](message.details, message.message);
        return;
      }
      if (message.type === "circuit") {
        metrics.circuitState(message.provider, message.state);
        return;
      }
      if (message.type === "loop-delay") {
        metrics.threadLoopDelay("providers", message.snapshot);
        return;
      }
      if (message.type === "take-slots") {
        slots?.take(message.ask).then(
          (grant) => post(thread, { type: "slots", id: message.id, grant }),
          (error: unknown) =>
            post(thread, { type: "slots", id: message.id, grant: null, error: String(error) }),
        );
        return;
      }
      if (message.type === "defer-slots") {
        slots?.defer(message.name, message.until).catch(() => {});
        return;
      }
      const entry = pending.get(message.id);
      if (entry === undefined) return;
      pending.delete(message.id);
      if (pending.size === 0) thread.unref();
      // What the answers set off (scoring, storing) yields to order requests between attempts.
      turns.run(() => entry.resolve(message.results));
    });
    thread.on("error", (error) => log.error({ err: error }, "provider thread failed"));
    thread.on("exit", (code) => {
      if (worker === thread) worker = null;
      if (closed) return;
      log.error({ code }, "provider thread stopped; the next lookup starts a new one");
      endAll((provider) => ({
        kind: "transient",
        provider,
        httpStatus: null,
        error: `provider thread stopped (exit code ${code})`,
        cause: "network",
      }));
    });
    return thread;
  }

  const lookupAll: LookupAll = (providers, query, signal) => {
    const asked = providers.map((p) => p.name);
    if (asked.length === 0) return Promise.resolve([]);
    if (closed || signal.aborted) return Promise.resolve(asked.map(aborted));
    worker ??= start();
    const thread = worker;
    const id = nextId++;
    return new Promise<ProviderResult[]>((resolve) => {
      const onAbort = () => post(thread, { type: "abort", id });
      signal.addEventListener("abort", onAbort, { once: true });
      if (pending.size === 0) thread.ref();
      pending.set(id, {
        providers: asked,
        resolve: (results) => {
          signal.removeEventListener("abort", onAbort);
          resolve(results);
        },
      });
      post(thread, { type: "lookup", id, providers: asked, query });
    });
  };

  const providers = names.map((name) => {
    const provider: EnrichmentProvider = {
      name,
      lookup: async (query, signal) =>
        (await lookupAll([provider], query, signal))[0] ?? aborted(name),
    };
    return provider;
  });

  return {
    providers,
    lookupAll,
    async close() {
      closed = true;
      endAll(aborted);
      const thread = worker;
      worker = null;
      await thread?.terminate();
    },
  };
}

function post(thread: Worker, message: ToThread): void {
  thread.postMessage(message);
}

function aborted(provider: ProviderName): ProviderResult {
  return {
    kind: "transient",
    provider,
    httpStatus: null,
    error: "aborted by the caller",
    cause: "aborted",
  };
}
