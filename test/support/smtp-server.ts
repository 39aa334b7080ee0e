/**
 * A real SMTP server for tests (the `smtp-server` package) on 127.0.0.1 and a random port.
 * It keeps every message it receives, parsed with mailparser, including those it then refuses,
 * and can be told to answer the next DATA commands with a 4xx or 5xx reply. No TLS, no auth:
 * `url` is what SMTP_URL would say.
 */
import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  parsed: ParsedMail;
  /** The envelope recipients (RCPT TO). */
  rcptTo: string[];
  mailFrom: string | null;
  /** The reply the server gave: 250 when accepted. */
  replyCode: number;
}

export interface TestSmtpServer {
  url: string;
  port: number;
  /** Accepted messages, in order. */
  messages: ReceivedMail[];
  /** Every message received, accepted or refused, in order. */
  received: ReceivedMail[];
  /** The next DATA commands are answered with these codes (e.g. 451, 550), then 250 again. */
  failNext(...codes: number[]): void;
  /** Resolves when `count` messages have been accepted (or rejects after `timeoutMs`). */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** On a random port, or on `port` (a server started again where an earlier one was). */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const failures: number[] = [];
  const messages: ReceivedMail[] = [];
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          const code = failures.shift() ?? 250;
          const mail: ReceivedMail = {
            parsed,
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            mailFrom:
              session.envelope.mailFrom === false ? null : session.envelope.mailFrom.address,
            replyCode: code,
          };
          received.push(mail);
          if (code === 250) {
            messages.push(mail);
            callback();
            return;
          }
          const error = new Error(code >= 500 ? "Mailbox unavailable" : "Try again later");
          callback(Object.assign(error, { responseCode: code }));
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", () => resolve()));
  const bound = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    messages,
    received,
    failNext: (...codes) => failures.push(...codes),
    waitForMessages: async (count, timeoutMs = 5000) => {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline)
          throw new Error(`expected ${count} e-mail messages, got ${messages.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return messages.slice(0, count);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
