import { createServer, type Server } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** Raw DATA with the terminating dot removed and dot-stuffing undone. */
  data: string;
  auth: string | null;
}

/** A tiny SMTP receiver on loopback for tests: accepts everything and keeps what it was sent. */
export async function startSmtpServer(): Promise<{ port: number; mails: ReceivedMail[]; close(): Promise<void> }> {
  const mails: ReceivedMail[] = [];
  const server: Server = createServer((socket) => {
    let buf = '';
    let inData = false;
    let current: ReceivedMail = { from: '', to: [], data: '', auth: null };
    let dataLines: string[] = [];
    const reply = (s: string) => socket.write(`${s}\r\n`);
    reply('220 test.local ESMTP ready');
    socket.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      let i;
      while ((i = buf.indexOf('\r\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            mails.push({ ...current, data: dataLines.join('\r\n') });
            current = { from: '', to: [], data: '', auth: current.auth };
            dataLines = [];
            reply('250 queued');
          } else dataLines.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const verb = line.split(' ')[0].toUpperCase();
        if (verb === 'EHLO') reply('250-test.local\r\n250 AUTH PLAIN');
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
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { port, mails, close: () => new Promise((resolve) => server.close(() => resolve())) };
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
