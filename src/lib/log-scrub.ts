/**
 * The last line of defence for the log: every line, at every level, leaves with e-mail
 * addresses and one-time tokens (43 base64url characters: sign-up, invitation, reset and
 * confirmation links, session ids) replaced. The first line is not logging them at all (the
 * access log has no query string); this catches what an error message or a client-chosen
 * request id carries. Names and search terms cannot be recognised by their shape, so those
 * depend on the first line alone.
 */
/** An address, also percent-encoded as a client may put it in a path. */
const EMAIL = /[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/gi;
const TOKEN_SOURCE = "(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])";
const TOKEN = new RegExp(TOKEN_SOURCE, "g");
const TOKEN_LENGTH = 43;

/**
 * Whether the line has a run of at least 43 token characters, which any token needs: one pass
 * over the line. (The token pattern itself, tried at every position, rescans each run of id
 * characters, such as a request id's 36, once per character of it.)
 */
function hasTokenRun(line: string): boolean {
  let run = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    const tokenChar =
      (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
    if (!tokenChar) run = 0;
    else if (++run >= TOKEN_LENGTH) return true;
  }
  return false;
}

export function scrubLogLine(line: string): string {
  // Most lines (the access log) have neither: one cheap test each, no copy.
  if (!line.includes("@") && !line.includes("%40") && !hasTokenRun(line)) return line;
  return line.replace(EMAIL, "[e-mail]").replace(TOKEN, "[token]");
}
