import { createTransport } from 'nodemailer';
import type { Config } from '../../config.js';

/**
 * SMTP settings (config.smtp: CFP_SMTP_HOST, CFP_SMTP_PORT, CFP_SMTP_FROM, CFP_SMTP_USER / CFP_SMTP_PASS,
 * CFP_SMTP_TLS):
 * - `starttls` (default): STARTTLS is required; a server that does not offer it gets nothing, not even
 *   the message (a report holds the owner's games);
 * - `implicit`: TLS from the first byte (port 465);
 * - `none`: plain text, only when set explicitly (a relay on the same machine).
 * Certificates are verified against the system CAs (plus `ca`, when given).
 */
export interface SmtpSettings {
  host: string;
  port: number;
  from: string;
  user: string | null;
  pass: string | null;
  tls?: 'starttls' | 'implicit' | 'none';
  ca?: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  /** The plain-text part: every mail client can read it. */
  text: string;
  /** The HTML part (the report page with its chart), when there is one. */
  html?: string;
}

/**
 * How to turn the weekly report's email on: the one wording `serve` logs and the dashboard's Settings
 * page shows (issue 38: the two had listed different variables). What it names is what
 * smtpSettingsFrom requires (host and sender) and the defaults it applies (the port by CFP_SMTP_TLS).
 */
export const SMTP_SETUP_HINT =
  'set CFP_SMTP_HOST and CFP_SMTP_FROM (CFP_SMTP_PORT defaults to 587, or 465 with CFP_SMTP_TLS=implicit; add CFP_SMTP_USER and CFP_SMTP_PASS if the server needs a login)';

/** Null when SMTP is not configured (no host or no sender): nothing is sent then. */
export function smtpSettingsFrom(smtp: Config['smtp']): SmtpSettings | null {
  if (!smtp.host || !smtp.from) return null;
  return {
    tls: smtp.tls,
    host: smtp.host,
    port: smtp.port ?? (smtp.tls === 'implicit' ? 465 : 587),
    from: smtp.from,
    user: smtp.user,
    pass: smtp.pass,
  };
}

/** Sends one message through nodemailer (headers encoded and folded by it). Rejects with the server's refusal. */
export async function sendMail(s: SmtpSettings, msg: MailMessage, opts: { timeoutMs?: number } = {}): Promise<void> {
  const mode = s.tls ?? 'starttls';
  const timeout = opts.timeoutMs ?? 30_000;
  const transport = createTransport({
    host: s.host,
    port: s.port,
    secure: mode === 'implicit',
    requireTLS: mode === 'starttls',
    ignoreTLS: mode === 'none',
    auth: s.user !== null && s.pass !== null ? { user: s.user, pass: s.pass } : undefined,
    // The certificate is checked against the host name (an IP address has no SNI name).
    tls: { ca: s.ca, servername: /^[\d.:]+$/.test(s.host) ? undefined : s.host, rejectUnauthorized: true },
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  try {
    // Single-line subject: a CR or LF in a field must not start a header of its own.
    const oneLine = (v: string) => v.replace(/[\r\n]+/g, ' ');
    await transport.sendMail({ from: oneLine(s.from), to: oneLine(msg.to), subject: oneLine(msg.subject), text: msg.text, ...(msg.html ? { html: msg.html } : {}) });
  } finally {
    transport.close();
  }
}
