/**
 * The address the links a command prints are built on (set-password and reset links, the
 * alert-address confirmations it may mail): PUBLIC_BASE_URL, the address people open Velvet at.
 * The command's own shell says nothing about where the server listens (its PORT may be another
 * program's), so without PUBLIC_BASE_URL the links assume the address `npm start` serves on
 * with no settings, and the readable output says so.
 */
import type { Config } from "../config.js";

export const DEFAULT_SERVER_URL = "http://127.0.0.1:3000";

export function withLinkBase(config: Config): Config {
  return config.publicBaseUrlSet ? config : { ...config, publicBaseUrl: DEFAULT_SERVER_URL };
}

/** A line under a printed link when PUBLIC_BASE_URL is not set; else nothing. */
export function linkBaseNote(config: Pick<Config, "publicBaseUrlSet">): string[] {
  return config.publicBaseUrlSet
    ? []
    : [
        `(PUBLIC_BASE_URL is not set: the link assumes Velvet at ${DEFAULT_SERVER_URL}, where \`npm start\` serves by default; set PUBLIC_BASE_URL to the address people open Velvet at.)`,
      ];
}
