import { InvalidArgumentError } from "commander";
import { isUuid } from "../lib/ids.js";

export function parseId(value: string): string {
  if (!isUuid(value)) throw new InvalidArgumentError("expected an id (UUID)");
  return value.toLowerCase();
}

export function parsePage(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1) {
    throw new InvalidArgumentError("the page is a whole number from 1");
  }
  return n;
}

export function parseLimit(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 1000)
    throw new InvalidArgumentError("the limit is a whole number from 1 to 1000");
  return n;
}
