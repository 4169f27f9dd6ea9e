import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { hostname } from 'node:os';

/** SMTP settings from CFP_SMTP_HOST, CFP_SMTP_PORT (default 25), CFP_SMTP_FROM, and optional CFP_SMTP_USER / CFP_SMTP_PASS. */
export interface SmtpSettings {
  host: string;
  port: number;
  from: string;
  user: string | null;
  pass: string | null;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Null when SMTP is not configured (no host or no sender): nothing is sent then. */
export function smtpSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): SmtpSettings | null {
  if (!env.CFP_SMTP_HOST || !env.CFP_SMTP_FROM) return null;
  return {
    host: env.CFP_SMTP_HOST,
    port: env.CFP_SMTP_PORT ? Number(env.CFP_SMTP_PORT) : 25,
    from: env.CFP_SMTP_FROM,
    user: env.CFP_SMTP_USER || null,
    pass: env.CFP_SMTP_PASS || null,
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

/** Reads SMTP replies (multi-line ones end with "code SP"). */
function replies(socket: Socket) {
  let buf = '';
  const waiting: Array<(r: { code: number; text: string } | Error) => void> = [];
  const ready: Array<{ code: number; text: string } | Error> = [];
  let lines: string[] = [];
  const deliver = (r: { code: number; text: string } | Error) => {
    const w = waiting.shift();
    if (w) w(r);
    else ready.push(r);
  };
  socket.on('data', (chunk) => {
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
  });
  socket.on('error', (e) => deliver(e));
  socket.on('close', () => deliver(new Error('SMTP server closed the connection')));
  return () =>
    new Promise<{ code: number; text: string }>((resolve, reject) => {
      const take = (r: { code: number; text: string } | Error) => (r instanceof Error ? reject(r) : resolve(r));
      const r = ready.shift();
      if (r) take(r);
      else waiting.push(take);
    });
}

/** Sends one message over plain SMTP (no TLS). Rejects with the server's reply on any refusal. */
export async function sendMail(s: SmtpSettings, msg: MailMessage, opts: { timeoutMs?: number; now?: Date } = {}): Promise<void> {
  const socket = connect({ host: s.host, port: s.port });
  socket.setTimeout(opts.timeoutMs ?? 30_000, () => socket.destroy(new Error(`SMTP timed out talking to ${s.host}:${s.port}`)));
  const next = replies(socket);
  const expect = async (codes: number[], what: string) => {
    const r = await next();
    if (!codes.includes(r.code)) throw new Error(`SMTP ${what} refused: ${r.text}`);
  };
  const send = (line: string) => socket.write(`${line}\r\n`);
  try {
    await expect([220], 'greeting');
    send(`EHLO ${hostname() || 'localhost'}`);
    await expect([250], 'EHLO');
    if (s.user !== null && s.pass !== null) {
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
    await next().catch(() => undefined);
  } finally {
    socket.end();
    socket.destroy();
  }
}
