import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { formatMessage, sendMail, smtpSettingsFrom } from '../../src/services/mailer.js';

const smtpSettingsFromEnv = (env: Record<string, string>) => smtpSettingsFrom(loadConfig({ dataDir: '/tmp' }, env).smtp);
import { mailBody, startSmtpServer } from '../helpers/smtpServer.js';

const tls = {
  key: readFileSync(new URL('../fixtures/smtp/key.pem', import.meta.url), 'utf8'),
  cert: readFileSync(new URL('../fixtures/smtp/cert.pem', import.meta.url), 'utf8'),
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

test('the message: encoded non-ASCII subject, no header injection, base64 UTF-8 body', () => {
  const raw = formatMessage('reports@example.test', { ...msg, subject: 'Hi\r\nBcc: evil@example.test' }, new Date('2026-11-21T00:05:00Z'));
  expect(raw).toContain('Subject: Hi Bcc: evil@example.test\r\n');
  expect(raw).not.toMatch(/^Bcc:/m);
  expect(formatMessage('r@example.test', msg, new Date())).toContain(`Subject: =?UTF-8?B?${Buffer.from(msg.subject).toString('base64')}?=`);
  expect(raw).toContain('Date: Sat, 21 Nov 2026 00:05:00 +0000');
});

test('STARTTLS: upgrades, checks the certificate, then authenticates and delivers', async () => {
  const server = await startSmtpServer({ tls });
  await sendMail({ host: '127.0.0.1', port: server.port, from: 'reports@example.test', user: 'u', pass: 'secret', tls: 'starttls', ca: tls.cert }, msg);
  expect(server.mails).toHaveLength(1);
  const [mail] = server.mails;
  expect(mail.secure).toBe(true);
  expect(mail.auth).toBe('\0u\0secret');
  expect(mail.to).toEqual(['ann@example.test']);
  expect(mailBody(mail).text).toBe(msg.text.replace(/\n/g, '\n'));
  await server.close();
});

test('a certificate the client does not trust stops the send', async () => {
  const server = await startSmtpServer({ tls });
  await expect(sendMail({ host: '127.0.0.1', port: server.port, from: 'r@example.test', user: null, pass: null, tls: 'starttls' }, msg)).rejects.toThrow(/certificate/i);
  expect(server.mails).toEqual([]);
  await server.close();
});

test('credentials are never sent over a connection that could not upgrade', async () => {
  const server = await startSmtpServer();
  await expect(sendMail({ host: '127.0.0.1', port: server.port, from: 'r@example.test', user: 'u', pass: 'p' }, msg)).rejects.toThrow(/refusing to send the password/);
  expect(server.mails).toEqual([]);
  // Without credentials a plain relay still delivers
  await sendMail({ host: '127.0.0.1', port: server.port, from: 'r@example.test', user: null, pass: null }, msg);
  expect(server.mails).toHaveLength(1);
  expect(server.mails[0].secure).toBe(false);
  await server.close();
});
