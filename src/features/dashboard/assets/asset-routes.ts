/**
 * The stylesheet and the script, served from memory under a content hash in the file name, so
 * browsers may cache them for a year: a changed file has a new name. One route pattern,
 * `/assets/:file`, serves both: the hash never reaches a route label, so the request metrics
 * keep the same series from one build to the next.
 */
import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { CLIENT_SCRIPT } from "./client-script.js";
import { STYLES } from "./styles.js";

interface Asset {
  path: string;
  body: Buffer;
  type: string;
}

function asset(name: string, ext: string, text: string, type: string): Asset {
  const body = Buffer.from(text.trim(), "utf8");
  const hash = createHash("sha256").update(body).digest("hex").slice(0, 12);
  return { path: `/assets/${name}.${hash}.${ext}`, body, type };
}

export const STYLESHEET = asset("velvet", "css", STYLES, "text/css; charset=utf-8");
export const SCRIPT = asset("velvet", "js", CLIENT_SCRIPT, "text/javascript; charset=utf-8");

export const ASSET_ROUTE = "/assets/:file";

export function registerAssetRoutes(app: FastifyInstance): void {
  const byPath = new Map([STYLESHEET, SCRIPT].map((a) => [a.path, a]));
  app.get<{ Params: { file: string } }>(ASSET_ROUTE, async (request, reply) => {
    const a = byPath.get(`/assets/${request.params.file}`);
    if (a === undefined) return reply.callNotFound();
    return reply
      .header("content-type", a.type)
      .header("cache-control", "public, max-age=31536000, immutable")
      .header("x-content-type-options", "nosniff")
      .send(a.body);
  });
}
