/**
 * @module test-support/mailbox
 * A local SMTP server for tests and benchmarks that keeps every message it accepts. Setting
 * `failures` makes it answer `451` (try again later) to that many of the next messages.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface MailBox {
  port: number;
  messages: { from: string; to: string[]; raw: string }[];
  /** How many of the next messages are refused with 451. */
  failures: number;
  close(): Promise<void>;
}

/** Starts the server on a free loopback port. */
export async function startMailBox(): Promise<MailBox> {
  const box: MailBox = { port: 0, messages: [], failures: 0, close: async () => {} };
  const server = new SMTPServer({
    authOptional: true,
    disableReverseLookup: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (box.failures > 0) {
          box.failures--;
          return callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
        }
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        box.messages.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  box.port = (server.server.address() as AddressInfo).port;
  box.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return box;
}
