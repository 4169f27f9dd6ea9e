import { createServer, type Server, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { Duplex } from 'node:stream';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** Raw DATA with the terminating dot removed and dot-stuffing undone. */
  data: string;
  auth: string | null;
  /** True when the message came over a connection upgraded with STARTTLS. */
  secure: boolean;
}

/**
 * A tiny SMTP receiver on loopback for tests: accepts everything and keeps what it was sent.
 * With `tls` it offers STARTTLS (using that key and certificate).
 */
export async function startSmtpServer(opts: { tls?: { key: string; cert: string } } = {}): Promise<{ port: number; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((raw) => {
    sockets.add(raw);
    raw.on('close', () => sockets.delete(raw));
    raw.write('220 test.local ESMTP ready\r\n');
    serve(raw, false, null);
  });
  const serve = (socket: Duplex, secure: boolean, auth: string | null) => {
    let buf = '';
    let inData = false;
    let current: ReceivedMail = { from: '', to: [], data: '', auth, secure };
    let dataLines: string[] = [];
    const reply = (s: string) => socket.write(`${s}\r\n`);
    const onData = (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      let i;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            mails.push({ ...current, data: dataLines.join('\r\n') });
            current = { from: '', to: [], data: '', auth: current.auth, secure };
            dataLines = [];
            reply('250 queued');
          } else dataLines.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const verb = line.split(' ')[0].toUpperCase();
        if (verb === 'EHLO') reply(opts.tls && !secure ? '250-test.local\r\n250-STARTTLS\r\n250 AUTH PLAIN' : '250-test.local\r\n250 AUTH PLAIN');
        else if (verb === 'STARTTLS' && opts.tls && !secure) {
          reply('220 ready to start TLS');
          socket.off('data', onData);
          serve(new TLSSocket(socket, { isServer: true, key: opts.tls.key, cert: opts.tls.cert }), true, current.auth);
          return;
        }
        else if (verb === 'HELO') reply('250 test.local');
        else if (verb === 'AUTH') {
          current.auth = Buffer.from(line.split(' ')[2] ?? '', 'base64').toString('utf8');
          reply('235 ok');
        } else if (verb === 'MAIL') {
          current.from = /<(.*)>/.exec(line)?.[1] ?? '';
          reply('250 ok');
        } else if (verb === 'RCPT') {
          current.to.push(/<(.*)>/.exec(line)?.[1] ?? '');
          reply('250 ok');
        } else if (verb === 'DATA') {
          inData = true;
          reply('354 go ahead');
        } else if (verb === 'QUIT') {
          reply('221 bye');
          socket.end();
        } else reply('250 ok');
      }
    };
    socket.on('data', onData);
    socket.on('error', () => {});
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    mails,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The decoded text body of a received message (base64 or plain). */
export function mailBody(mail: ReceivedMail): { headers: Record<string, string>; text: string } {
  const [head, ...rest] = mail.data.split('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const h of head.split('\r\n')) {
    const k = h.indexOf(':');
    headers[h.slice(0, k).toLowerCase()] = h.slice(k + 1).trim();
  }
  const raw = rest.join('\r\n\r\n');
  const text = /base64/i.test(headers['content-transfer-encoding'] ?? '') ? Buffer.from(raw.replace(/\s+/g, ''), 'base64').toString('utf8') : raw;
  return { headers, text: text.replace(/\r\n/g, '\n') };
}
