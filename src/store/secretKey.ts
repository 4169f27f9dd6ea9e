import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The store's secret key: 32 random bytes in `secret.key` beside the database, mode 0600. It never
 * enters the database, so a copy of the .sqlite file alone reveals no lichess token and no share
 * link. Losing the file loses the saved lichess token (reconnect with it) and changes share links.
 */
export const SECRET_KEY_FILE = 'secret.key';

export function loadSecretKey(dataDir: string): Buffer {
  const file = join(dataDir, SECRET_KEY_FILE);
  if (!existsSync(file)) {
    try {
      // 'wx': never overwrite a key another process wrote a moment ago.
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, randomBytes(32).toString('base64') + '\n');
      closeSync(fd);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} is not a chess-footprint secret key (expected 32 bytes, base64)`);
  return key;
}

/** One subkey per purpose (HKDF-SHA256, RFC 5869), so the encryption key never signs anything. */
function subkey(key: Buffer, purpose: 'source-token' | 'share-link'): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `chess-footprint ${purpose}`, 32));
}

const SEALED = 'enc:v1:';

export const isSealed = (value: string) => value.startsWith(SEALED);

/** AES-256-GCM with a fresh 96-bit nonce: `enc:v1:` + base64url(nonce ‖ tag ‖ ciphertext). */
export function seal(key: Buffer, clear: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', subkey(key, 'source-token'), nonce);
  const body = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
  return SEALED + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url');
}

/** The clear value of `seal`'s output; null when it was sealed under another key or altered. */
export function unseal(key: Buffer, sealed: string): string | null {
  if (!isSealed(sealed)) return null;
  const raw = Buffer.from(sealed.slice(SEALED.length), 'base64url');
  if (raw.length < 28) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', subkey(key, 'source-token'), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/**
 * The unguessable token of a report's share link, derived from the report id (HMAC-SHA256 under the
 * store key): the store keeps only its fingerprint, and the link can still be shown again on read.
 */
export function shareTokenFor(key: Buffer, reportId: string): string {
  return createHmac('sha256', subkey(key, 'share-link')).update(reportId).digest('base64url');
}

/** SHA-256, hex: the stored form of every bearer secret (access tokens, share-link tokens). */
export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');
