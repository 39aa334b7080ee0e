/** How dashboard responses leave: HTML with strict headers, and 303 redirects after a POST. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyReply } from "fastify";
import helmet, { type HelmetOptions } from "helmet";
import type { SafeHtml } from "../html/html.js";

/**
 * helmet's options for pages. Only our own script and stylesheet run; inline SVG is
 * markup, not a resource, so charts need no exception. Frames are refused (click-jacking), forms
 * may only post back to us. HSTS is left to whoever terminates TLS in front of Velvet (it knows
 * whether every subdomain is HTTPS); helmet's other defaults (COOP, CORP, Origin-Agent-Cluster,
 * X-DNS-Prefetch-Control, …) are kept. Pages only: API answers get only nosniff (http/app.ts).
 */
export const PAGE_HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "data:"],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
  },
  frameguard: { action: "deny" },
  referrerPolicy: { policy: "same-origin" },
  strictTransportSecurity: false,
};

/**
 * The headers helmet sets with those options, worked out once: they do not depend on the
 * request, so no page (and no API request) pays for a hook or for building them again.
 */
function pageHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(PAGE_HELMET_OPTIONS)(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return headers;
}

const PAGE_HEADERS = pageHeaders();

export function applySecurityHeaders(reply: FastifyReply): void {
  reply.headers(PAGE_HEADERS);
  // Pages show account data and, once, a secret key: never keep them in a shared cache or the
  // back-button cache of a shared computer.
  reply.header("cache-control", "no-store");
}

export function sendPage(reply: FastifyReply, body: SafeHtml, status = 200): FastifyReply {
  applySecurityHeaders(reply);
  return reply.code(status).header("content-type", "text/html; charset=utf-8").send(body.value);
}

/** POST → 303 → GET, so a reload never re-submits a form. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).header("location", location).send();
}
