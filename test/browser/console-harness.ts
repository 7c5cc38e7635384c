import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { firstKeys, startServer, type RunningServer } from '../helpers/spawn-server.js';
import { createTestDb } from '../helpers/test-db.js';
import { seriousViolations } from './axe.js';

/**
 * A real server (with its job runner) on a real database and Debian's Chromium, for console browser
 * tests: operators made by the CLI, a signed-in page at a view, screenshots at laptop and tablet
 * widths with the sideways-scroll and axe-core checks, and the API as an integration sees it.
 */
declare const document: { documentElement: { scrollWidth: number } };
declare const location: { hash: string };

export const CHROMIUM = '/usr/bin/chromium';
export const chromiumMissing = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (Debian package chromium)`;
export const SHOTS = join(process.cwd(), 'test/browser/screenshots');
export const PASSWORD = 'browser harness password 7';
export const LAPTOP = { width: 1280, height: 800 };
export const TABLET = { width: 768, height: 1024 };

export interface Console {
  server: RunningServer;
  dir: string;
  /** The sandbox API key of the first account. */
  key: string;
  /** The first account's id. */
  account: string;
  /** Its production API key. */
  productionKey: string;
  /** The API as an integration calls it, with the sandbox key unless another is given. */
  api(method: string, path: string, body?: unknown, key?: string): Promise<{ status: number; data: Record<string, any> }>;
  /** The environment's settings the server runs with (DATA_DIR, DATABASE_URL, MASTER_KEY …). */
  env: Record<string, string>;
  /** `verity …` against the running server (over its admin socket with the embedded database). */
  cli(args: string[], input?: string): { status: number | null; stdout: string; stderr: string };
  /** Creates an operator with the harness password through the CLI; returns its id. */
  operator(email: string, role: string): string;
  open(
    email: string,
    hash: string,
    viewport?: { width: number; height: number },
  ): Promise<{ page: Page; errors: string[]; close(): Promise<void> }>;
  /** A fresh browser context (its own cookies) and page at a viewport, not signed in. */
  blank(viewport?: { width: number; height: number }): Promise<{ page: Page; errors: string[]; close(): Promise<void> }>;
  close(): Promise<void>;
}

export async function startConsole(prefix: string, extraEnv: Record<string, string> = {}, startTimeoutMs = 300_000): Promise<Console> {
  const dir = mkdtempSync(join(tmpdir(), `verity-${prefix}-`));
  const env: Record<string, string> = { DATA_DIR: join(dir, 'data'), MASTER_KEY: '67'.repeat(32), RUN_WORKER: 'true', ...extraEnv };
  let dropDb: (() => Promise<void>) | null = null;
  if (process.env.TEST_DATABASE_URL) {
    const db = await createTestDb();
    env.DATABASE_URL = db.url!;
    dropDb = db.close;
  }
  const server = await startServer(env, startTimeoutMs);
  const { sandbox: key, production: productionKey, account } = firstKeys(env.DATA_DIR!);
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  const cli = (args: string[], input?: string) => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      cwd: process.cwd(),
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      input,
      encoding: 'utf8',
    });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  return {
    server,
    dir,
    key,
    account,
    productionKey,
    env,
    cli,
    async api(method, path, body, as = key) {
      const res = await fetch(`${server.base}${path}`, {
        method,
        headers: { authorization: `Bearer ${as}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, data: (text ? JSON.parse(text) : null) as Record<string, any> };
    },
    operator(email, role) {
      const r = cli(
        ['operators', 'create', '--account', account, '--email', email, '--role', role, '--password-stdin', '--json'],
        `${PASSWORD}\n`,
      );
      assert.equal(r.status, 0, r.stderr + r.stdout);
      return (JSON.parse(r.stdout.trim().split('\n').pop()!) as { id: string }).id;
    },
    async open(email, hash, viewport = LAPTOP) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${server.base}/console`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Review queue' }).waitFor();
      await page.evaluate((h) => (location.hash = h), hash);
      return { page, errors, close: () => context.close() };
    },
    async blank(viewport = LAPTOP) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      return { page, errors, close: () => context.close() };
    },
    async close() {
      await browser.close();
      await server.stop();
      await dropDb?.();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Screenshots at laptop and tablet widths; at the tablet width nothing scrolls sideways; axe-core finds nothing serious. */
export async function shots(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize(LAPTOP);
  await page.screenshot({ path: join(SHOTS, `console-${name}-laptop.png`), fullPage: true });
  await page.setViewportSize(TABLET);
  await page.screenshot({ path: join(SHOTS, `console-${name}-tablet.png`), fullPage: true });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= TABLET.width, `${name}: the page is ${width} px wide at a ${TABLET.width} px tablet width`);
  assert.deepEqual(await seriousViolations(page), [], `${name}: axe-core`);
}

/** Waits for the status line under the view to say something. */
export async function said(page: Page, text: string | RegExp): Promise<void> {
  try {
    await page.locator('#message').filter({ hasText: text }).waitFor({ timeout: 20_000 });
  } catch (e) {
    throw new Error(`waited for ${String(text)}; the page says: ${await page.locator('#message').textContent()}`, { cause: e });
  }
}
