/** How dashboard responses leave: HTML with strict headers, and 303 redirects after a POST. */
import type { FastifyReply } from "fastify";
import type { SafeHtml } from "../html/html.js";

/**
 * Only our own script and stylesheet run; inline SVG is markup, not a resource, so charts need
 * no exception. Frames are refused (click-jacking), forms may only post back to us.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

export function applySecurityHeaders(reply: FastifyReply): void {
  reply
    .header("content-security-policy", CONTENT_SECURITY_POLICY)
    .header("x-content-type-options", "nosniff")
    .header("x-frame-options", "DENY")
    .header("referrer-policy", "same-origin")
    // Pages show account data and, once, a secret key: never keep them in a shared cache or
    // the back-button cache of a shared computer.
    .header("cache-control", "no-store");
}

export function sendPage(reply: FastifyReply, body: SafeHtml, status = 200): FastifyReply {
  applySecurityHeaders(reply);
  return reply.code(status).header("content-type", "text/html; charset=utf-8").send(body.value);
}

/** POST → 303 → GET, so a reload never re-submits a form. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header("location", location).send();
}
