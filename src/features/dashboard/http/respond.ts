/** How dashboard responses leave: HTML with strict headers, and 303 redirects after a POST. */
import fastifyHelmet, { type FastifyHelmetOptions } from "@fastify/helmet";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { SafeHtml } from "../html/html.js";

/**
 * @fastify/helmet's options for pages. Only our own script and stylesheet run; inline SVG is
 * markup, not a resource, so charts need no exception. Frames are refused (click-jacking), forms
 * may only post back to us. HSTS is left to whoever terminates TLS in front of Velvet (it knows
 * whether every subdomain is HTTPS); helmet's other defaults (COOP, CORP, Origin-Agent-Cluster,
 * X-DNS-Prefetch-Control, …) are kept. Not global: API answers get only nosniff (http/app.ts).
 */
export const PAGE_HELMET_OPTIONS: FastifyHelmetOptions = {
  global: false,
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

/** Registers helmet on the whole app, so pages served outside the dashboard's routes (404) have it. */
export function registerPageHelmet(app: FastifyInstance): void {
  app.register(fastifyHelmet, PAGE_HELMET_OPTIONS);
}

export function applySecurityHeaders(reply: FastifyReply): void {
  reply.helmet();
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
