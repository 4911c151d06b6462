/**
 * @module remote/mailer
 * Outgoing mail over SMTP (nodemailer). Without `SMTP_URL` sending fails with a clear error.
 */
import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  /** Overrides the configured sender (`MAIL_FROM`). */
  from?: string;
  to: string;
  cc?: string;
  bcc?: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  attachments?: { filename: string; content: Buffer | string; contentType?: string; cid?: string }[];
}

export class MailNotConfiguredError extends Error {
  constructor() {
    super('Outgoing mail is not configured (set SMTP_URL).');
  }
}

export interface Mailer {
  readonly configured: boolean;
  send(message: MailMessage): Promise<{ messageId: string }>;
  close(): void;
}

/** A mailer for `smtpUrl` (e.g. `smtp://127.0.0.1:2525`), or one that refuses when unset. */
export function createMailer(smtpUrl: string | undefined, from: string): Mailer {
  let transport: Transporter | undefined;
  return {
    configured: smtpUrl !== undefined,
    async send(message) {
      if (!smtpUrl) throw new MailNotConfiguredError();
      transport ??= nodemailer.createTransport(smtpUrl);
      const info = await transport.sendMail({ from, ...message });
      return { messageId: String(info.messageId) };
    },
    close() {
      transport?.close();
    },
  };
}
