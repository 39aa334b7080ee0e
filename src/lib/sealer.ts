/**
 * Secrets at rest (a store's token, a destination's signing secret or API key): a value checked
 * against its zod schema, serialised as JSON and sealed with AES-256-GCM under a 32-byte key,
 * stored as `v1:<iv>:<tag>:<ciphertext>` (base64). The row's id is the additional
 * authenticated data, so a ciphertext copied onto another row does not open. Opening checks
 * the value against the schema again, so a row always yields the type it was sealed as.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { z } from "zod";

export interface Sealer<S extends z.ZodType> {
  seal(key: Buffer, rowId: string, value: z.input<S>): string;
  /** Throws SealError when the key is wrong (rotated) or the row was tampered with. */
  open(key: Buffer, rowId: string, sealed: string): z.output<S>;
}

export class SealError extends Error {
  override name = "SealError";
}

export function createSealer<S extends z.ZodType>(schema: S): Sealer<S> {
  return {
    seal(key, rowId, value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(Buffer.from(rowId));
      const text = JSON.stringify(schema.parse(value));
      const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), sealed].map((b) => b.toString("base64"));
      return `v1:${parts.join(":")}`;
    },
    open(key, rowId, sealed) {
      const [version, iv, tag, data] = sealed.split(":");
      if (version !== "v1" || iv === undefined || tag === undefined || data === undefined) {
        throw new SealError("the stored secret is not in a known format");
      }
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
        decipher.setAAD(Buffer.from(rowId));
        decipher.setAuthTag(Buffer.from(tag, "base64"));
        const text = Buffer.concat([
          decipher.update(Buffer.from(data, "base64")),
          decipher.final(),
        ]).toString("utf8");
        return schema.parse(JSON.parse(text));
      } catch {
        throw new SealError("the stored secret cannot be decrypted with this key");
      }
    },
  };
}
