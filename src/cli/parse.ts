import { InvalidArgumentError } from "commander";
import { isUuid } from "../lib/ids.js";

export function parseThreshold(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 0 || n > 100) {
    throw new InvalidArgumentError("the threshold is a whole number from 0 to 100");
  }
  return n;
}

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
