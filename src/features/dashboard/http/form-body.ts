/**
 * `application/x-www-form-urlencoded` bodies, parsed with URLSearchParams. The parser is added
 * inside the dashboard's own Fastify context only, so the public API keeps answering 415 to
 * anything but JSON.
 */
import type { FastifyInstance } from "fastify";

/** Forms here are a few short fields; anything larger is not one of ours. */
export const FORM_BODY_LIMIT_BYTES = 64 * 1024;

export function acceptFormBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string", bodyLimit: FORM_BODY_LIMIT_BYTES },
    (_request, body, done) => done(null, new URLSearchParams(body as string)),
  );
}

/** One field of a parsed form body; "" when the body is absent or not a form. */
export function formField(body: unknown, name: string): string {
  return body instanceof URLSearchParams ? (body.get(name) ?? "") : "";
}
