import express from 'express';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServer } from 'node:http';
import { requestTarget } from '../../src/http/front.js';
import { documentsByPath, prefersGzip, staticDocument } from '../../src/http/staticDocument.js';

// A document long and repetitive enough to compress, and one too short to gain from it.
const long = { paths: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`/api/v1/item/${i}`, { get: { summary: `Item ${i}`, responses: { 200: { description: 'OK' } } } }])) };
const longBytes = Buffer.from(JSON.stringify(long));
let server: Server;
let port: number;

beforeAll(async () => {
  const app = express();
  const long = staticDocument('application/json; charset=utf-8', JSON.parse(longBytes.toString()));
  const short = staticDocument('text/markdown; charset=utf-8', 'ok');
  app.get('/long', long).head('/long', long).get('/short', short);
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server.close());

/** node:http rather than fetch: fetch asks for gzip by itself and decodes what it gets. */
function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('staticDocument', () => {
  test('without Accept-Encoding the bytes go out as they are, with their length and Vary', async () => {
    const r = await get('/long');
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body.equals(longBytes)).toBe(true);
    expect(r.headers['content-length']).toBe(String(longBytes.length));
    expect(r.headers.vary).toBe('Accept-Encoding');
  });

  test('a client that accepts gzip gets the same document compressed, under its own ETag', async () => {
    const plain = await get('/long');
    const gz = await get('/long', { 'accept-encoding': 'gzip, deflate, br' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(gz.body).equals(longBytes)).toBe(true);
    expect(gz.body.length).toBeLessThan(longBytes.length / 4);
    expect(gz.headers['content-length']).toBe(String(gz.body.length));
    expect(gz.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(gz.headers.etag).not.toBe(plain.headers.etag);
  });

  test('Accept-Encoding is read with its q-values (RFC 9110 section 12.5.3)', async () => {
    const encodingFor = async (accept: string) => (await get('/long', { 'accept-encoding': accept })).headers['content-encoding'] ?? 'identity';
    expect(await encodingFor('gzip')).toBe('gzip');
    expect(await encodingFor('*')).toBe('gzip');
    expect(await encodingFor('gzip;q=0')).toBe('identity');
    expect(await encodingFor('gzip;q=0.5, identity')).toBe('identity');
    expect(await encodingFor('br')).toBe('identity');
    expect(await encodingFor('identity')).toBe('identity');
    // Nothing acceptable at all: the document is still sent, uncompressed, rather than refused.
    expect(await encodingFor('*;q=0')).toBe('identity');
  });

  test('a 304 only for the ETag of the encoding the client asks for', async () => {
    const plain = await get('/long');
    const gz = await get('/long', { 'accept-encoding': 'gzip' });
    const held = await get('/long', { 'accept-encoding': 'gzip', 'if-none-match': gz.headers.etag as string });
    expect(held.status).toBe(304);
    expect(held.body.length).toBe(0);
    expect(held.headers.etag).toBe(gz.headers.etag);
    // The gzip copy's validator does not validate the uncompressed bytes, nor the other way round.
    expect((await get('/long', { 'if-none-match': gz.headers.etag as string })).status).toBe(200);
    expect((await get('/long', { 'accept-encoding': 'gzip', 'if-none-match': plain.headers.etag as string })).status).toBe(200);
    // A cache holding both sends both validators; the one for what is asked for decides.
    const both = `${plain.headers.etag}, ${gz.headers.etag}`;
    expect((await get('/long', { 'if-none-match': both })).headers.etag).toBe(plain.headers.etag);
    expect((await get('/long', { 'if-none-match': both })).status).toBe(304);
    expect((await get('/long', { 'if-none-match': `W/${plain.headers.etag}` })).status).toBe(304);
  });

  test('HEAD gives the headers of the chosen encoding and no body', async () => {
    const gz = await get('/long', { 'accept-encoding': 'gzip' });
    const head = await get('/long', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.headers['content-length']).toBe(gz.headers['content-length']);
    expect(head.headers.etag).toBe(gz.headers.etag);
  });

  test('a document that compression would not shorten is only ever sent as it is', async () => {
    const r = await get('/short', { 'accept-encoding': 'gzip' });
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.body.toString()).toBe('ok');
  });
});

describe('prefersGzip (RFC 9110 section 12.5.3)', () => {
  test('gzip must be acceptable and weigh no less than identity', () => {
    expect(prefersGzip(undefined)).toBe(false);
    expect(prefersGzip('')).toBe(false);
    expect(prefersGzip('GZIP')).toBe(true); // codings are case-insensitive
    expect(prefersGzip('x-gzip')).toBe(true); // section 8.4.1.3: x-gzip is gzip
    expect(prefersGzip('identity;q=0, gzip;q=0.1')).toBe(true);
    expect(prefersGzip('gzip;q=0.9, *;q=1')).toBe(false); // identity falls under * at 1
    expect(prefersGzip('*;q=0, identity')).toBe(false);
    expect(prefersGzip('deflate, *;q=0.5')).toBe(true); // gzip and identity both under * at 0.5
  });
});

describe('documentsByPath', () => {
  test('finds a document as express would route it (case, one trailing slash), GET and HEAD only', async () => {
    const front = documentsByPath([['/doc.md', staticDocument('text/markdown; charset=utf-8', 'hello')]]);
    const server = createServer((req, res) => {
      if (!front(req, res, requestTarget(req.url ?? '/'))) res.writeHead(404).end('next');
    });
    server.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const at = (server.address() as AddressInfo).port;
    const ask = (path: string, method = 'GET') =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        request({ host: '127.0.0.1', port: at, path, method }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        })
          .on('error', reject)
          .end();
      });
    try {
      for (const path of ['/doc.md', '/DOC.md', '/doc.md/', '/doc.md?x=1']) expect(await ask(path), path).toEqual({ status: 200, body: 'hello' });
      expect(await ask('/doc.md', 'HEAD')).toEqual({ status: 200, body: '' });
      expect(await ask('/doc.md', 'POST')).toEqual({ status: 404, body: 'next' });
      expect(await ask('/doc.md//')).toEqual({ status: 404, body: 'next' });
    } finally {
      server.close();
    }
  });
});
