/** Password hashing with argon2id (OWASP's recommended parameters: 19 MiB, 2 passes). */
import { type Algorithm, hash, verify } from "@node-rs/argon2";

// Algorithm is an ambient const enum, which isolatedModules cannot read: 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
