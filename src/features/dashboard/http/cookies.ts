/**
 * The dashboard's cookies, through @fastify/cookie, all with the same attributes: HttpOnly,
 * SameSite=Lax, Path=/ unless narrower, Secure over HTTPS. Not signed: the session cookie is a
 * random id looked up by its hash, the CSRF cookie is compared with the form's copy, and the one
 * secret a cookie carries (a new API key) is sealed with AES-GCM (api-access/key-flash.ts).
 */
import fastifyCookie from "@fastify/cookie";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

/** Parses the Cookie header of every request of `app`'s context into `request.cookies`. */
export function registerCookies(app: FastifyInstance): void {
  app.register(fastifyCookie);
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  return request.cookies[name];
}

export interface CookieOptions {
  path?: string;
  /** Omitted: a session cookie, gone when the browser closes. */
  maxAgeSeconds?: number;
}

function attributes(request: FastifyRequest, path = "/") {
  return { path, httpOnly: true, sameSite: "lax", secure: request.protocol === "https" } as const;
}

export function setCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  options: CookieOptions = {},
): void {
  reply.setCookie(name, value, {
    ...attributes(request, options.path),
    ...(options.maxAgeSeconds === undefined ? {} : { maxAge: options.maxAgeSeconds }),
  });
}

/** Expires the cookie now (Max-Age=0 and a past Expires). */
export function clearCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  path?: string,
): void {
  reply.clearCookie(name, attributes(request, path));
}
