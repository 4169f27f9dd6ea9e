import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { hostname } from 'node:os';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';
import type { Config } from '../config.js';

/**
 * SMTP settings from CFP_SMTP_HOST, CFP_SMTP_PORT (default 587, or 465 with implicit TLS), CFP_SMTP_FROM,
 * optional CFP_SMTP_USER / CFP_SMTP_PASS, and CFP_SMTP_TLS:
 * - `starttls` (default): upgrade with STARTTLS when the server offers it; credentials are never sent
 *   over a connection that did not upgrade;
 * - `implicit`: TLS from the first byte (port 465);
 * - `none`: plain text (a relay on the same machine).
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
  text: string;
}

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

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');
/** RFC 2047 encoded word for a header that is not plain ASCII. */
const headerText = (s: string) => (/^[\x20-\x7e]*$/.test(s) ? s : `=?UTF-8?B?${Buffer.from(s, 'utf8').toString('base64')}?=`);
const address = (s: string) => oneLine(s).replace(/[<>]/g, '');

/** The RFC 5322 message: UTF-8 text, base64 body (safe through any relay, no 8BITMIME needed). */
export function formatMessage(from: string, msg: MailMessage, date: Date): string {
  const body = Buffer.from(msg.text.replace(/\r?\n/g, '\r\n'), 'utf8').toString('base64').replace(/.{76}/g, '$&\r\n');
  const domain = address(from).split('@')[1] ?? 'localhost';
  return [
    `From: <${address(from)}>`,
    `To: <${address(msg.to)}>`,
    `Subject: ${headerText(oneLine(msg.subject))}`,
    `Date: ${date.toUTCString().replace('GMT', '+0000')}`,
    `Message-ID: <${randomUUID()}@${domain}>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: base64',
    '',
    body,
  ].join('\r\n');
}

/** Reads SMTP replies (multi-line ones end with "code SP"); `detach` stops reading (before a TLS upgrade). */
function replies(socket: Duplex) {
  let buf = '';
  const waiting: Array<(r: { code: number; text: string } | Error) => void> = [];
  const ready: Array<{ code: number; text: string } | Error> = [];
  let lines: string[] = [];
  const deliver = (r: { code: number; text: string } | Error) => {
    const w = waiting.shift();
    if (w) w(r);
    else ready.push(r);
  };
  const onData = (chunk: Buffer) => {
    buf += chunk.toString('utf8');
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i).replace(/\r$/, '');
      buf = buf.slice(i + 1);
      lines.push(line);
      if (/^\d{3}( |$)/.test(line)) {
        deliver({ code: Number(line.slice(0, 3)), text: lines.join('\n') });
        lines = [];
      }
    }
  };
  const onError = (e: Error) => deliver(e);
  const onClose = () => deliver(new Error('SMTP server closed the connection'));
  socket.on('data', onData);
  socket.on('error', onError);
  socket.on('close', onClose);
  const next = () =>
    new Promise<{ code: number; text: string }>((resolve, reject) => {
      const take = (r: { code: number; text: string } | Error) => (r instanceof Error ? reject(r) : resolve(r));
      const r = ready.shift();
      if (r) take(r);
      else waiting.push(take);
    });
  const detach = () => {
    socket.off('data', onData);
    socket.off('error', onError);
    socket.off('close', onClose);
  };
  return { next, detach };
}

function secure(s: SmtpSettings, socket?: Duplex): Promise<TLSSocket> {
  return new Promise((resolve, reject) => {
    // host is also the name the certificate is checked against, upgraded socket or not.
    const t = tlsConnect({ socket, host: s.host, port: socket ? undefined : s.port, servername: /^[\d.:]+$/.test(s.host) ? undefined : s.host, ca: s.ca });
    t.once('secureConnect', () => resolve(t));
    t.once('error', reject);
  });
}

/** Sends one message. Rejects with the server's reply on any refusal. */
export async function sendMail(s: SmtpSettings, msg: MailMessage, opts: { timeoutMs?: number; now?: Date } = {}): Promise<void> {
  const mode = s.tls ?? 'starttls';
  let socket: Duplex = mode === 'implicit' ? await secure(s) : connect({ host: s.host, port: s.port });
  let encrypted = mode === 'implicit';
  const timeout = opts.timeoutMs ?? 30_000;
  const arm = (sock: Duplex & { setTimeout?: (ms: number, cb: () => void) => void }) =>
    sock.setTimeout?.(timeout, () => sock.destroy(new Error(`SMTP timed out talking to ${s.host}:${s.port}`)));
  arm(socket);
  let reader = replies(socket);
  const expect = async (codes: number[], what: string) => {
    const r = await reader.next();
    if (!codes.includes(r.code)) throw new Error(`SMTP ${what} refused: ${r.text}`);
    return r;
  };
  const send = (line: string) => socket.write(`${line}\r\n`);
  const ehlo = () => {
    send(`EHLO ${hostname() || 'localhost'}`);
    return expect([250], 'EHLO');
  };
  try {
    await expect([220], 'greeting');
    const caps = await ehlo();
    if (mode === 'starttls' && /^250[- ]STARTTLS\b/im.test(caps.text)) {
      send('STARTTLS');
      await expect([220], 'STARTTLS');
      reader.detach();
      socket = await secure(s, socket);
      arm(socket);
      reader = replies(socket);
      encrypted = true;
      await ehlo();
    }
    if (s.user !== null && s.pass !== null) {
      if (!encrypted && mode !== 'none') throw new Error(`SMTP server ${s.host} offers no STARTTLS: refusing to send the password in clear text (set CFP_SMTP_TLS=none to allow it)`);
      send(`AUTH PLAIN ${Buffer.from(`\0${s.user}\0${s.pass}`, 'utf8').toString('base64')}`);
      await expect([235], 'AUTH');
    }
    send(`MAIL FROM:<${address(s.from)}>`);
    await expect([250], 'MAIL FROM');
    send(`RCPT TO:<${address(msg.to)}>`);
    await expect([250, 251], 'RCPT TO');
    send('DATA');
    await expect([354], 'DATA');
    // Dot-stuffing: a line starting with "." gets another (base64 never does, headers might).
    const data = formatMessage(s.from, msg, opts.now ?? new Date()).replace(/^\./gm, '..');
    socket.write(`${data}\r\n.\r\n`);
    await expect([250], 'message');
    send('QUIT');
    await reader.next().catch(() => undefined);
  } finally {
    socket.end();
    socket.destroy();
  }
}
