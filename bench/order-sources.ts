/**
 * What each order-benchmark run sends, and what it must get back. Every 2xx answer is checked
 * (a fast wrong answer is not a result): a new customer gets `queued` with fresh UUIDs, and a
 * repeat gets back, byte for byte, the body its first submission got.
 */
import type { RequestSource } from "./load.js";
import { orderBody } from "./order-bodies.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ANSWER_KEYS = "customerId,enrichmentStatus,orderId,success";
const BASELINE_ANSWER = /^\{"success":true,"id":\d+\}$/;

/** Shared numbering, so warm-up and measured requests never reuse a customer. */
export function counter(): () => number {
  let n = 0;
  return () => n++;
}

export function baselineNewCustomers(run: string, next: () => number): RequestSource {
  return {
    next: () => {
      const tag = next();
      return { tag, body: orderBody(run, tag) };
    },
    check: (_tag, status, body) => status === 200 && BASELINE_ANSWER.test(body),
  };
}

export interface NewCustomerSource extends RequestSource {
  /** Customer number → the exact body Velvet answered. */
  answers: Map<number, string>;
}

export function velvetNewCustomers(run: string, next: () => number): NewCustomerSource {
  const answers = new Map<number, string>();
  const customerIds = new Set<string>();
  return {
    answers,
    next: () => {
      const tag = next();
      return { tag, body: orderBody(run, tag) };
    },
    check: (tag, status, body) => {
      const customerId = newCustomerAnswer(body);
      if (status !== 200 || customerId === null || customerIds.has(customerId)) return false;
      customerIds.add(customerId);
      answers.set(tag, body);
      return true;
    },
  };
}

/** Replays answered customers in a cycle; each must get its first answer again, unchanged. */
export function velvetRepeats(run: string, answers: Map<number, string>): RequestSource {
  const tags = [...answers.keys()];
  if (tags.length === 0) throw new Error("no answered customers to repeat");
  let cursor = 0;
  return {
    next: () => {
      const tag = tags[cursor++ % tags.length] as number;
      return { tag, body: orderBody(run, tag) };
    },
    check: (tag, status, body) => status === 200 && answers.get(tag) === body,
  };
}

export interface ReturningSource extends RequestSource {
  /** New orders answered correctly (each must add exactly one order row). */
  readonly answered: number;
}

/**
 * Returning customers: the answered customers in a cycle, each time with a new order. Each must
 * be answered with its own customer id, `queued` (its enrichment is still pending: worker off)
 * and a new order id.
 */
export function velvetReturning(run: string, answers: Map<number, string>): ReturningSource {
  const tags = [...answers.keys()];
  if (tags.length === 0) throw new Error("no answered customers to return");
  const firsts = new Map(
    tags.map((tag) => [tag, JSON.parse(answers.get(tag) as string) as Record<string, string>]),
  );
  const orderIds = new Set<string>();
  let cursor = 0;
  let answered = 0;
  return {
    get answered() {
      return answered;
    },
    next: () => {
      const i = cursor++;
      const tag = tags[i % tags.length] as number;
      return { tag, body: orderBody(run, tag, `-r${i}`) };
    },
    check: (tag, status, body) => {
      const first = firsts.get(tag);
      let answer: Record<string, unknown>;
      try {
        answer = JSON.parse(body) as Record<string, unknown>;
      } catch {
        return false;
      }
      const { customerId, orderId, enrichmentStatus, success } = answer;
      const ok =
        status === 200 &&
        first !== undefined &&
        Object.keys(answer).sort().join(",") === ANSWER_KEYS &&
        success === true &&
        enrichmentStatus === "queued" &&
        customerId === first.customerId &&
        typeof orderId === "string" &&
        UUID.test(orderId) &&
        orderId !== first.orderId &&
        !orderIds.has(orderId);
      if (ok) {
        orderIds.add(orderId as string);
        answered += 1;
      }
      return ok;
    },
  };
}

/** The customer id of a correct new-customer answer, or null. */
function newCustomerAnswer(body: string): string | null {
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return null;
  }
  const { success, customerId, orderId, enrichmentStatus } = answer;
  const ok =
    Object.keys(answer).sort().join(",") === ANSWER_KEYS &&
    success === true &&
    enrichmentStatus === "queued" &&
    typeof customerId === "string" &&
    UUID.test(customerId) &&
    typeof orderId === "string" &&
    UUID.test(orderId);
  return ok ? (customerId as string) : null;
}
