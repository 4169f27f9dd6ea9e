import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

/**
 * Where a browser test writes its screenshots: `docs/img/<name>/`, the committed pictures, under `npm run screenshots`
 * (CFP_SCREENSHOTS=1); otherwise a folder under the system temporary directory (cfp-screenshots/), so `npm test` leaves
 * the checkout as it found it while every run still takes the pictures a person can look at.
 */
export function screenshotDir(name: string): string {
  if (process.env.CFP_SCREENSHOTS === '1') return join(import.meta.dirname, '..', '..', 'docs', 'img', name);
  return join(tmpdir(), 'cfp-screenshots', name);
}

/** Debian's chromium (never a downloaded browser); CFP_CHROMIUM names another system binary. */
export function findChromium(): string | null {
  const candidates = [process.env.CFP_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((p): p is string => Boolean(p));
  return candidates.find((p) => existsSync(p)) ?? null;
}

/** Headless, no network beyond the test's loopback server, a throwaway profile. */
export async function launchChromium(executablePath: string): Promise<{ browser: Browser; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'cfp-chromium-'));
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    userDataDir: profile,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
