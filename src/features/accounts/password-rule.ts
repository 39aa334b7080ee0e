/**
 * The one password rule, wherever a password is set (sign-up, `velvet account create`, and a
 * future change or reset): 10 to 1,024 characters, and not guessable by zxcvbn (score 3 of 4
 * or more, i.e. more than about 10^8 guesses), judged offline against zxcvbn-ts's common
 * passwords, names and keyboard patterns and against the person's own e-mail and store name.
 */
import { ZxcvbnFactory } from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1024;
export const MIN_PASSWORD_SCORE = 3;

// Built on first use: loading the dictionaries takes a moment that most commands never need.
let zxcvbn: ZxcvbnFactory | null = null;

const WHY: Record<string, string> = {
  straightRow: "it is a row of keys on the keyboard",
  keyPattern: "it is a keyboard pattern",
  simpleRepeat: 'it repeats characters, like "aaa"',
  extendedRepeat: 'it repeats a pattern, like "abcabc"',
  sequences: 'it is a sequence, like "abc" or "6543"',
  recentYears: "it ends in a recent year",
  dates: "it contains a date",
  topTen: "it is one of the ten most used passwords",
  topHundred: "it is one of the hundred most used passwords",
  common: "it is a commonly used password",
  similarToCommon: "it is a common password with small changes",
  wordByItself: "a single word is easy to guess",
  namesByThemselves: "names on their own are easy to guess",
  commonNames: "common names are easy to guess",
  userInputs: "it contains your e-mail address or store name",
  pwned: "it has appeared in a data breach",
};

/** Null when the password is acceptable, otherwise a sentence saying why it is not. */
export function passwordProblem(password: string, userInputs: string[] = []): string | null {
  if (password.length < MIN_PASSWORD_LENGTH)
    return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (password.length > MAX_PASSWORD_LENGTH)
    return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  zxcvbn ??= new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  const inputs = userInputs.flatMap((s) => [s, ...s.split(/[@.\s]+/)]).filter((s) => s.length > 2);
  const result = zxcvbn.check(password, inputs);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const why = WHY[result.feedback.warning ?? ""] ?? "it would be quick to guess";
  return `Choose a harder password: ${why}. A few unrelated words together work well.`;
}
