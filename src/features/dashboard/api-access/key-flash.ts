/**
 * Showing a new API key exactly once, after a POST → redirect → GET, on any server process.
 *
 * The key is not kept anywhere on the server (not even briefly in memory, which another
 * process behind the load balancer would not see). It travels in a short-lived HttpOnly cookie,
 * sealed with AES-256-GCM under a key derived from the session id: only the browser holding the
 * session can have it opened, and the database (which stores only the session id's hash)
 * cannot open it. The GET that shows it clears the cookie, so a reload no longer shows it.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { clearCookie, readCookie, setCookie } from "../http/cookies.js";
import type { DashboardSession } from "../session/dashboard-session.js";

export const KEY_FLASH_COOKIE = "velvet_new_key";
const FLASH_PATH = "/settings/integrations";
const FLASH_TTL_MS = 5 * 60_000;

export interface FlashedKey {
  keyId: string;
  apiKey: string;
}

function sealingKey(rawSessionId: string): Buffer {
  return createHmac("sha256", rawSessionId).update("velvet:new-api-key-flash").digest();
}

export function sealKey(rawSessionId: string, key: FlashedKey, now: number): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealingKey(rawSessionId), iv);
  const plain = JSON.stringify({ ...key, exp: now + FLASH_TTL_MS });
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}

export function openKey(rawSessionId: string, sealed: string, now: number): FlashedKey | null {
  try {
    const bytes = Buffer.from(sealed, "base64url");
    if (bytes.length < 29) return null;
    const decipher = createDecipheriv(
      "aes-256-gcm",
      sealingKey(rawSessionId),
      bytes.subarray(0, 12),
    );
    decipher.setAuthTag(bytes.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString(
      "utf8",
    );
    const value = JSON.parse(plain) as { keyId?: unknown; apiKey?: unknown; exp?: unknown };
    if (typeof value.keyId !== "string" || typeof value.apiKey !== "string") return null;
    if (typeof value.exp !== "number" || value.exp <= now) return null;
    return { keyId: value.keyId, apiKey: value.apiKey };
  } catch {
    // Tampered, sealed for another session, or not ours: nothing to show.
    return null;
  }
}

export function flashKey(
  request: FastifyRequest,
  reply: FastifyReply,
  rawSessionId: string,
  key: FlashedKey,
  now: number,
): void {
  setCookie(request, reply, KEY_FLASH_COOKIE, sealKey(rawSessionId, key, now), {
    path: FLASH_PATH,
    maxAgeSeconds: FLASH_TTL_MS / 1000,
  });
}

/** Reads the flashed key, if any, and clears the cookie so it is shown this once. */
export function takeFlashedKey(
  request: FastifyRequest,
  reply: FastifyReply,
  session: DashboardSession,
  now: number,
): FlashedKey | null {
  const sealed = readCookie(request, KEY_FLASH_COOKIE);
  if (sealed === undefined) return null;
  clearCookie(request, reply, KEY_FLASH_COOKIE, FLASH_PATH);
  return openKey(session.rawId, sealed, now);
}
