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
        // RFC 3207: a server that does not offer STARTTLS refuses the command (454: TLS not available).
        else if (verb === 'STARTTLS') reply('454 4.7.0 TLS not available');
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

export function headerOf(mail: { data: string }, name: string): string {
  const head = mail.data.split('\r\n\r\n')[0].replace(/\r\n[ \t]+/g, ' ');
  return new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1] ?? '';
}

/** RFC 2047 encoded words (B and Q) back to text. */
export function decodeWords(v: string): string {
  return v.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_m, enc: string, text: string) =>
    enc.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : decodeQp(text.replace(/_/g, ' ')),
  );
}

function decodeQp(s: string): string {
  const bytes: number[] = [];
  const t = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '=' && /^[0-9A-F]{2}$/i.test(t.slice(i + 1, i + 3))) {
      bytes.push(parseInt(t.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(t[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The leaf parts of a received message, decoded (base64, quoted-printable or 7bit), with their types. */
export function mimeParts(mail: { data: string }): Array<{ type: string; body: string }> {
  const walk = (entity: string): Array<{ type: string; body: string }> => {
    const i = entity.indexOf('\r\n\r\n');
    const head = entity.slice(0, i).replace(/\r\n[ \t]+/g, ' ');
    const body = entity.slice(i + 4);
    const type = /^content-type:\s*([^;\r\n]+)/im.exec(head)?.[1].trim().toLowerCase() ?? 'text/plain';
    if (type.startsWith('multipart/')) {
      const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head)![1];
      return body
        .split(`--${boundary}`)
        .slice(1, -1)
        .flatMap((p) => walk(p.replace(/^\r\n/, '').replace(/\r\n$/, '')));
    }
    const enc = /^content-transfer-encoding:\s*(\S+)/im.exec(head)?.[1].toLowerCase();
    const text = enc === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : enc === 'quoted-printable' ? decodeQp(body) : body;
    return [{ type, body: text.replace(/\r\n/g, '\n') }];
  };
  return walk(mail.data);
}
