/**
 * A process's side of shared slots (shared-limits-table.ts): it asks for a lease of consecutive
 * slots sized to about LEASE_MS of the rate (at least one), keeps the ones it has not spent yet,
 * and hands each caller one slot and how long to wait for it. It knows nothing of where the
 * table is: `take` and `defer` reach it (directly on the main thread, by message from the
 * provider thread).
 *
 * A name whose lease holds several slots has its next lease asked ahead, in the background, once
 * the slots in hand reach less than half a lease ahead: in steady use a caller then never waits
 * for the table's round trip (which is a query on a busy database), and the next lease starts
 * where this one ends. A name leased one slot at a time (a slow rate, such as a chat webhook's
 * one a second) is never asked ahead: that would book a slot nobody may want.
 *
 * A slot is spent at its instant or a little after, never early; a kept slot that has gone by
 * more than half an interval is dropped, not spent late, so the spacing holds: whatever the
 * number of processes, calls on one name within any window of W ms are at most W / interval + 1.
 * A slot not spent (its caller aborted, the lease outlived the need) is lost: the rate is then
 * under-used, never exceeded.
 *
 * When the table cannot be reached (`take` fails or does not answer within TAKE_TIMEOUT_MS),
 * `reserve` answers `null` and the caller falls back to its own per-process limit; for
 * RETRY_SHARED_MS after a failure it answers `null` at once instead of asking again.
 */
import { withTimeout } from "../../lib/with-timeout.js";
import type { SlotAsk, SlotGrant } from "./shared-limits-table.js";

/** What a caller is told: go (after waitMs), or come back after delayMs. */
export type Reservation = { kind: "now"; waitMs: number } | { kind: "later"; delayMs: number };

export interface SlotBackend {
  take(ask: SlotAsk): Promise<SlotGrant>;
  defer(name: string, until: number): Promise<void>;
}

export interface SlotRequest {
  name: string;
  intervalMs: number;
  /** The longest the caller would wait for its slot; beyond it the answer is "later". */
  maxWaitMs: number;
}

export interface SharedSlots {
  /** A slot, or null when the shared table cannot be reached (use the local limit). */
  reserve(request: SlotRequest): Promise<Reservation | null>;
  /** No slot of `name` for `delayMs` (a 429's Retry-After), for every process. */
  defer(name: string, delayMs: number): Promise<void>;
}

export interface SharedSlotsOptions {
  backend: SlotBackend;
  now?: () => number;
  /** Told when the table stops or starts answering (to log once per outage). */
  onReachability?: (reachable: boolean, error?: unknown) => void;
}

/** About this much of a name's rate is leased at once. */
export const LEASE_MS = 200;
export const TAKE_TIMEOUT_MS = 1_000;
export const RETRY_SHARED_MS = 5_000;

export function leaseSize(intervalMs: number): number {
  return Math.max(1, Math.floor(LEASE_MS / intervalMs));
}

export function createSharedSlots(options: SharedSlotsOptions): SharedSlots {
  const now = options.now ?? Date.now;
  /** Unspent slots by name, earliest first. */
  const kept = new Map<string, number[]>();
  /** The next free slot by name, as of a refusal: no earlier than this. */
  const knownNext = new Map<string, number>();
  /** The latest instant a 429 pushed each name's next slot to (`defer`). */
  const deferredUntil = new Map<string, number>();
  /** The lease being asked for, by name. */
  const asking = new Map<string, Promise<Reservation | null>>();
  let unreachableUntil = 0;
  let reachable = true;

  const mark = (ok: boolean, error?: unknown) => {
    if (ok !== reachable) options.onReachability?.(ok, error);
    reachable = ok;
    if (!ok) unreachableUntil = now() + RETRY_SHARED_MS;
  };

  function fromKept(request: SlotRequest, t: number): Reservation | null {
    const slots = kept.get(request.name);
    if (slots === undefined) return null;
    while (slots.length > 0 && (slots[0] as number) < t - request.intervalMs / 2) slots.shift();
    const slot = slots.shift();
    if (slots.length === 0) kept.delete(request.name);
    return slot === undefined ? null : { kind: "now", waitMs: Math.max(0, slot - t) };
  }

  function keep(name: string, given: number[]): void {
    // A lease that was under way when a 429 pushed the name's next slot keeps none before it.
    const notBefore = deferredUntil.get(name) ?? 0;
    const slots = given.filter((slot) => slot >= notBefore);
    if (slots.length === 0) return;
    const all = [...(kept.get(name) ?? []), ...slots].sort((a, b) => a - b);
    kept.set(name, all);
  }

  /**
   * Asks for a lease. `forCaller`: the first slot is the caller's and the rest are kept; ahead
   * of need, every slot is kept.
   */
  async function ask(request: SlotRequest, forCaller = true): Promise<Reservation | null> {
    const n = leaseSize(request.intervalMs);
    let grant: SlotGrant;
    try {
      grant = await withTimeout(
        options.backend.take({ ...request, n, now: now() }),
        TAKE_TIMEOUT_MS,
      );
    } catch (error) {
      mark(false, error);
      return null;
    }
    mark(true);
    const t = now();
    if (!grant.ok) {
      // The next free slot only moves later (time passing or other processes taking slots):
      // until then, callers who would not wait that long are told so without asking.
      knownNext.set(request.name, grant.nextAt);
      return { kind: "later", delayMs: Math.max(1, Math.ceil(grant.nextAt - t)) };
    }
    const first = grant.firstAt;
    // A 429 heard while this lease was asked for pushed the next slot past it: that stands.
    if ((knownNext.get(request.name) ?? first) <= first) knownNext.delete(request.name);
    const skip = forCaller ? 1 : 0;
    keep(
      request.name,
      Array.from({ length: n - skip }, (_, i) => first + (i + skip) * request.intervalMs),
    );
    // The lease's first slot is spent even when the round trip made it late: it was free when
    // asked for, and the one before it is at least an interval earlier.
    return { kind: "now", waitMs: Math.max(0, first - t) };
  }

  /** The one lease asked at a time for a name (callers arriving meanwhile wait for it). */
  function asked(request: SlotRequest, forCaller: boolean): Promise<Reservation | null> {
    const answer = ask(request, forCaller);
    asking.set(request.name, answer);
    answer
      .finally(() => {
        if (asking.get(request.name) === answer) asking.delete(request.name);
      })
      .catch(() => {});
    return answer;
  }

  function askAhead(request: SlotRequest, t: number): void {
    if (leaseSize(request.intervalMs) < 2 || asking.has(request.name)) return;
    if (t < unreachableUntil || knownNext.has(request.name)) return;
    const slots = kept.get(request.name);
    const last = slots?.[slots.length - 1];
    if (last !== undefined && last - t >= LEASE_MS / 2) return;
    void asked(request, false);
  }

  return {
    async reserve(request) {
      // One lease asked at a time per name: callers arriving meanwhile wait for it and share
      // what it brings, instead of each booking a lease of its own far into the future.
      for (;;) {
        const local = fromKept(request, now());
        if (local !== null) {
          askAhead(request, now());
          return local;
        }
        if (now() < unreachableUntil) return null;
        const next = knownNext.get(request.name);
        if (next !== undefined) {
          if (next - now() > request.maxWaitMs)
            return { kind: "later", delayMs: Math.ceil(next - now()) };
          knownNext.delete(request.name);
        }
        const pending = asking.get(request.name);
        if (pending !== undefined) {
          await pending.catch(() => {});
          continue;
        }
        return await asked(request, true);
      }
    },
    async defer(name, delayMs) {
      kept.delete(name);
      deferredUntil.set(name, Math.max(deferredUntil.get(name) ?? 0, now() + delayMs));
      knownNext.set(name, Math.max(knownNext.get(name) ?? 0, now() + delayMs));
      try {
        await withTimeout(options.backend.defer(name, now() + delayMs), TAKE_TIMEOUT_MS);
        mark(true);
      } catch (error) {
        mark(false, error);
      }
    },
  };
}
