import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { sendMail, smtpSettingsFrom } from '../../../src/services/reports/mailer.js';

const smtpSettingsFromEnv = (env: Record<string, string>) => smtpSettingsFrom(loadConfig({ dataDir: '/tmp' }, env).smtp);
import { decodeWords, headerOf, mimeParts, startSmtpServer } from '../../helpers/smtpServer.js';

const tls = {
  key: readFileSync(new URL('../../fixtures/smtp/key.pem', import.meta.url), 'utf8'),
  cert: readFileSync(new URL('../../fixtures/smtp/cert.pem', import.meta.url), 'utf8'),
};
const msg = { to: 'ann@example.test', subject: 'Your chess week → 2026-11-20', text: 'Line one\n.starts with a dot\nRating 1510 → 1509 (-1)' };

describe('smtpSettingsFromEnv', () => {
  test('nothing configured: null (no email is ever sent)', () => {
    expect(smtpSettingsFromEnv({})).toBeNull();
    expect(smtpSettingsFromEnv({ CFP_SMTP_HOST: 'mail.example.test' })).toBeNull(); // no sender
  });
  test('defaults: STARTTLS on 587; implicit TLS on 465', () => {
    expect(smtpSettingsFromEnv({ CFP_SMTP_HOST: 'h', CFP_SMTP_FROM: 'f@x.test' })).toEqual({ tls: 'starttls', host: 'h', port: 587, from: 'f@x.test', user: null, pass: null });
    expect(smtpSettingsFromEnv({ CFP_SMTP_HOST: 'h', CFP_SMTP_FROM: 'f@x.test', CFP_SMTP_TLS: 'implicit', CFP_SMTP_USER: 'u', CFP_SMTP_PASS: 'p' })).toMatchObject({ port: 465, user: 'u', pass: 'p' });
  });
});

test('a multipart message: the text part and the HTML part with its chart; no header injection', async () => {
  const server = await startSmtpServer();
  const html = '<!doctype html><html><body><h1>Chess week</h1><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M0 0L10 10"/></svg></body></html>';
  await sendMail({ host: '127.0.0.1', port: server.port, from: 'r@example.test', user: null, pass: null, tls: 'none' }, { ...msg, subject: 'Hi\r\nBcc: evil@example.test', html });
  const [mail] = server.mails;
  expect(mail.data).not.toMatch(/^Bcc:/im);
  const parts = mimeParts(mail);
  expect(parts.map((p) => p.type)).toEqual(['text/plain', 'text/html']);
  expect(parts[0].body).toBe(msg.text);
  expect(parts[1].body).toBe(html);
  await server.close();
});

test('STARTTLS: upgrades, checks the certificate, then authenticates and delivers', async () => {
  const server = await startSmtpServer({ tls });
  await sendMail({ host: '127.0.0.1', port: server.port, from: 'reports@example.test', user: 'u', pass: 'secret', tls: 'starttls', ca: tls.cert }, msg);
  expect(server.mails).toHaveLength(1);
  const [mail] = server.mails;
  expect(mail.secure).toBe(true);
  expect(mail.auth).toBe('\0u\0secret');
  expect(mail.to).toEqual(['ann@example.test']);
  expect(mimeParts(mail)).toEqual([{ type: 'text/plain', body: msg.text }]);
  // The non-ASCII subject is an RFC 2047 encoded word, decoded back to the same text.
  expect(decodeWords(headerOf(mail, 'subject'))).toBe(msg.subject);
  await server.close();
});

test('a certificate the client does not trust stops the send', async () => {
  const server = await startSmtpServer({ tls });
  await expect(sendMail({ host: '127.0.0.1', port: server.port, from: 'r@example.test', user: null, pass: null, tls: 'starttls' }, msg)).rejects.toThrow(/certificate/i);
  expect(server.mails).toEqual([]);
  await server.close();
});

test('STARTTLS is required: a server without it gets nothing, credentials or not, unless CFP_SMTP_TLS=none', async () => {
  const server = await startSmtpServer();
  await expect(sendMail({ host: '127.0.0.1', port: server.port, from: 'r@example.test', user: 'u', pass: 'p' }, msg)).rejects.toThrow(/STARTTLS/i);
  await expect(sendMail({ host: '127.0.0.1', port: server.port, from: 'r@example.test', user: null, pass: null }, msg)).rejects.toThrow(/STARTTLS/i);
  expect(server.mails).toEqual([]);
  // Set explicitly: a plain relay delivers.
  await sendMail({ host: '127.0.0.1', port: server.port, from: 'r@example.test', user: null, pass: null, tls: 'none' }, msg);
  expect(server.mails).toHaveLength(1);
  expect(server.mails[0].secure).toBe(false);
  await server.close();
});
