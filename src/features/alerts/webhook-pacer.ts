/**
 * At most one message per interval per key (a webhook URL), within this process: Slack allows
 * about one message per second per incoming webhook. A caller reserves the next free slot; a
 * slot a short while away is waited for, a slot further away is handed back as "later" so the
 * job is rescheduled instead of holding a worker. A 429's Retry-After pushes the key's next slot.
 *
 * This one paces within a process: the chat sender asks the slots shared by every process
 * first (shared-limits/shared-slots.ts) and uses it only while the database cannot be reached,
 * when Slack's 429 with Retry-After (honoured) is the backstop across processes.
 */
export type Reservation = { kind: "now"; waitMs: number } | { kind: "later"; delayMs: number };

export interface WebhookPacerOptions {
  intervalMs: number;
  /** The longest a reservation waits in process; beyond it the answer is "later". */
  maxWaitMs: number;
  now?: () => number;
}

export class WebhookPacer {
  private readonly next = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: WebhookPacerOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  reserve(key: string): Reservation {
    const now = this.now();
    this.sweep(now);
    const slot = Math.max(now, this.next.get(key) ?? now);
    const waitMs = slot - now;
    if (waitMs > this.options.maxWaitMs) return { kind: "later", delayMs: Math.ceil(waitMs) };
    this.next.set(key, slot + this.options.intervalMs);
    return { kind: "now", waitMs };
  }

  /** Nothing is sent to `key` before `delayMs` from now (a 429's Retry-After). */
  defer(key: string, delayMs: number): void {
    const until = this.now() + delayMs;
    this.next.set(key, Math.max(until, this.next.get(key) ?? until));
  }

  private sweep(now: number): void {
    if (this.next.size < 1000) return;
    for (const [key, slot] of this.next) if (slot <= now) this.next.delete(key);
  }
}
