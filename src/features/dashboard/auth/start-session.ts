/** Signing a browser in after a log-in or a sign-up. */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Deps } from "../../../deps.js";
import { DEVICE_COOKIE, DEVICE_TTL_MS, rememberDevice } from "../../security/known-device.js";
import { browserFamily } from "../../team/browser-family.js";
import type { Notice } from "../html/components.js";
import { readCookie, setCookie } from "../http/cookies.js";
import { createSession, deleteSession } from "../session/create-session.js";
import { SESSION_COOKIE, setSessionCookie } from "../session/guards.js";

export async function startSession(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  user: { userId: string; accountId: string },
): Promise<string> {
  // Whatever session the browser brought is ended: the signed-in user gets a fresh id.
  const previous = readCookie(request, SESSION_COOKIE);
  if (previous !== undefined) await deleteSession(deps.db.kysely, previous);
  const session = await createSession(deps.db.kysely, user, deps.clock.now(), {
    ip: request.ip,
    browser: browserFamily(request.headers["user-agent"]),
  });
  setSessionCookie(request, reply, session.rawId);
  // This browser is now known for the user: their reset requests from it have their own budget.
  const device = await rememberDevice(
    deps.db.kysely,
    user.userId,
    readCookie(request, DEVICE_COOKIE),
    deps.clock.now(),
  );
  setCookie(request, reply, DEVICE_COOKIE, device, {
    maxAgeSeconds: DEVICE_TTL_MS / 1000,
  });
  return session.rawId;
}

/** A 429's notice, with the same Retry-After header. */
export function throttled(reply: FastifyReply, retryAfterMs: number): Notice {
  reply.header("retry-after", String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return {
    kind: "error",
    text: `Too many attempts. For your security, try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
  };
}
