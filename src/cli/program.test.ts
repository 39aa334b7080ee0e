/**
 * The promises of the `velvet` command, checked on the program itself: every leaf subcommand
 * accepts --json, every irreversible one has --yes, and the names and descriptions that
 * `velvet --help` lists without loading the commands are the ones the commands register.
 */
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram, buildProgramFor, TOP_COMMANDS } from "./program.js";

function leaves(command: Command, path: string[] = []): Array<{ path: string; command: Command }> {
  if (command.commands.length === 0) return [{ path: path.join(" "), command }];
  return command.commands.flatMap((sub) => leaves(sub, [...path, sub.name()]));
}

const takes = (command: Command, flag: string) =>
  command.options.some((option) => option.long === flag);

/** Commands that destroy or forget something for good. */
const IRREVERSIBLE = [
  "account delete",
  "customer forget",
  "demo",
  "destination remove",
  "import orders",
  "key revoke",
  "store disconnect",
  "user remove",
];

describe("the velvet program", () => {
  it("accepts --json on every leaf subcommand", async () => {
    const all = leaves(await buildProgram());
    expect(all.length).toBeGreaterThanOrEqual(30);
    expect(all.filter((leaf) => !takes(leaf.command, "--json")).map((leaf) => leaf.path)).toEqual(
      [],
    );
  });

  it("asks for --yes on every irreversible subcommand", async () => {
    const byPath = new Map(leaves(await buildProgram()).map((leaf) => [leaf.path, leaf.command]));
    for (const path of IRREVERSIBLE) {
      const command = byPath.get(path);
      expect(command, path).toBeDefined();
      expect(takes(command as Command, "--yes"), `${path} --yes`).toBe(true);
    }
  });

  it("lists every command by the name and description it registers, without loading it", async () => {
    const full = await buildProgram();
    const listed = (await buildProgramFor(["node", "velvet", "--help"])).commands;
    expect(listed.map((c) => [c.name(), c.description()])).toEqual(
      full.commands.map((c) => [c.name(), c.description()]),
    );
    expect(listed.every((c) => c.options.length === 0 && c.commands.length === 0)).toBe(true);
    expect(TOP_COMMANDS.map((c) => c.name)).toEqual(full.commands.map((c) => c.name()));
  });

  it("loads only the command it is asked for", async () => {
    const program = await buildProgramFor(["node", "velvet", "help", "jobs"]);
    const jobs = program.commands.find((c) => c.name() === "jobs");
    const key = program.commands.find((c) => c.name() === "key");
    expect(jobs?.commands.map((c) => c.name())).toEqual(["list", "retry"]);
    expect(key?.commands).toEqual([]);
  });
});
