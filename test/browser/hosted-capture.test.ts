import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { firstKeys, startServer, type RunningServer } from '../helpers/spawn-server.js';
import { createTestDb } from '../helpers/test-db.js';
import { MISSING_DATA, sharedDataDir } from '../fixtures/documents/shared-data.js';
import { ocrBAvailable, renderDocument } from '../fixtures/documents/render.js';
import { ANNA } from '../fixtures/documents/specimen-mrz.js';

/**
 * The hosted capture page in a real browser (Debian's Chromium through playwright-core) against the
 * real server with its in-process job runner: file uploads, the camera (a fake device playing a Y4M
 * of the selfie), error guidance, a 360 px phone viewport, no console errors, and the end of the
 * flow: progress, "complete" and the redirect.
 */
// Callbacks given to page.evaluate run in the browser; this project compiles without the DOM library.
declare const document: {
  activeElement: { tagName: string; textContent: string | null } | null;
  documentElement: { scrollWidth: number };
  getElementById(id: string): { textContent: string | null; videoWidth: number } | null;
};
declare const sessionStorage: Record<string, string>;

const CHROMIUM = '/usr/bin/chromium';
const dataDir = sharedDataDir();
const noChromium = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (Debian package chromium)`;
if (noChromium && process.env.CI) {
  test('Chromium is installed for the hosted-page browser test', () =>
    assert.fail(`${noChromium}: .ci/run installs it; the browser test cannot run without it.`));
}
const skip = noChromium || (ocrBAvailable() ? false : 'OCR-B font (fonts-ocr-b) missing') || (dataDir ? false : MISSING_DATA);

const VIEWPORT = { width: 360, height: 740 };
const face = (name: string) => readFileSync(`${dataDir}/faces/deepface_subset/images/${name}`);

/** A YUV4MPEG2 file (one I420 frame, BT.601 limited range) that Chromium's fake camera plays in a loop. */
async function y4m(image: Buffer, width: number): Promise<Buffer> {
  const { data, info } = await sharp(image).rotate().resize({ width }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const w = info.width - (info.width % 2);
  const h = info.height - (info.height % 2);
  const Y = Buffer.alloc(w * h);
  const U = Buffer.alloc((w / 2) * (h / 2));
  const V = Buffer.alloc((w / 2) * (h / 2));
  const px = (x: number, y: number) => {
    const i = (y * info.width + x) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!] as const;
  };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const [r, g, b] = px(x, y);
      Y[y * w + x] = Math.round(16 + 0.257 * r + 0.504 * g + 0.098 * b);
    }
  }
  for (let y = 0; y < h; y += 2) {
    for (let x = 0; x < w; x += 2) {
      let r = 0,
        g = 0,
        b = 0;
      for (const [dx, dy] of [
        [0, 0],
        [1, 0],
        [0, 1],
        [1, 1],
      ] as const) {
        const p = px(x + dx, y + dy);
        r += p[0] / 4;
        g += p[1] / 4;
        b += p[2] / 4;
      }
      const j = (y / 2) * (w / 2) + x / 2;
      U[j] = Math.round(128 - 0.148 * r - 0.291 * g + 0.439 * b);
      V[j] = Math.round(128 + 0.439 * r - 0.368 * g - 0.071 * b);
    }
  }
  return Buffer.concat([Buffer.from(`YUV4MPEG2 W${w} H${h} F30:1 Ip A1:1 C420jpeg\n`), Buffer.from('FRAME\n'), Y, U, V]);
}

describe('hosted capture page in Chromium', { skip }, () => {
  let dir: string;
  let server: RunningServer;
  let sandboxKey: string;
  let browser: Browser;
  let shop: Server;
  let shopBase: string;
  let dropDb: (() => Promise<void>) | null = null;
  const files: Record<string, string> = {};

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'verity-hosted-'));
    const env: Record<string, string> = { DATA_DIR: join(dir, 'data'), MASTER_KEY: '22'.repeat(32), RUN_WORKER: 'true' };
    if (process.env.TEST_DATABASE_URL) {
      // A private schema on the test server; closing it drops the schema.
      const db = await createTestDb();
      env.DATABASE_URL = db.url!;
      dropDb = db.close;
    }
    server = await startServer(env, 120_000);
    if (env.DATABASE_URL) assert.match(server.output(), /running on PostgreSQL/);
    sandboxKey = firstKeys(env.DATA_DIR!).sandbox;
    assert.ok(sandboxKey, server.output());

    // The customer's site the subject returns to.
    shop = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Shop</title><h1>Back at the shop</h1><p>${req.url}</p>`);
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopBase = `http://127.0.0.1:${(shop.address() as { port: number }).port}`;

    const passport = await renderDocument({ kind: 'td3', person: ANNA, portrait: face('img5.jpg') });
    files.passport = join(dir, 'passport.png');
    writeFileSync(files.passport, passport);
    files.selfie = join(dir, 'selfie.jpg');
    writeFileSync(files.selfie, face('img2.jpg'));
    files.blurred = join(dir, 'blurred.png');
    writeFileSync(files.blurred, await sharp(passport).blur(6).png().toBuffer());
    files.huge = join(dir, 'huge.jpg');
    writeFileSync(files.huge, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(16 * 1024 * 1024, 1)]));
    files.text = join(dir, 'notes.jpg');
    writeFileSync(files.text, 'these are notes, not a photo');
    files.camera = join(dir, 'selfie.y4m');
    writeFileSync(files.camera, await y4m(face('img2.jpg'), 640));
    files.shots = mkdtempSync(join(tmpdir(), 'verity-hosted-shots-'));

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-video-capture=${files.camera}`,
      ],
    });
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise((resolve) => shop?.close(resolve));
    await dropDb?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
    console.log(`screenshots: ${files.shots}`);
  });

  async function newSession(reference: string): Promise<{ id: string; hosted_url: string }> {
    const res = await fetch(`${server.base}/v1/verifications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandboxKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        journey: 'kyc_standard',
        subject: { type: 'individual', reference },
        redirect_url: `${shopBase}/done?ref=${reference}`,
      }),
    });
    assert.equal(res.status, 201, await res.clone().text());
    return (await res.json()) as { id: string; hosted_url: string };
  }

  /** A fresh context (its own storage, camera permission) at a phone's size; collects console errors. */
  async function open(url: string): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
    const context = await browser.newContext({
      viewport: VIEWPORT,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      permissions: ['camera'],
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);
    return { context, page, errors };
  }

  const heading = (page: Page) => page.locator('section:not([hidden]) h1');
  async function expectFocusOnHeading(page: Page, text: RegExp) {
    await page.waitForFunction(
      (t) => new RegExp(t).test(document.activeElement?.textContent ?? '') && document.activeElement?.tagName === 'H1',
      text.source,
    );
  }
  async function fitsViewport(page: Page) {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= VIEWPORT.width, `page is ${width}px wide at a ${VIEWPORT.width}px viewport`);
  }

  async function welcome(page: Page) {
    await heading(page).filter({ hasText: 'Verify your identity' }).waitFor();
    assert.doesNotMatch(page.url(), /token=/, 'the token left the address bar');
    assert.equal(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('verity.capture.')).length), 1);
    await fitsViewport(page);
    // Keyboard only: Start without consent names the problem; Space ticks the box, Enter starts.
    await page.locator('#start').focus();
    await page.keyboard.press('Enter');
    await page.locator('#consent-error').waitFor();
    assert.ok(await page.locator('#consent').evaluate((e) => e === document.activeElement));
    await page.keyboard.press('Space');
    await page.locator('#start').focus();
    await page.keyboard.press('Enter');
    await expectFocusOnHeading(page, /front of your document/);
    assert.equal(await page.locator('#skip-step').isVisible(), false, 'a required step cannot be skipped');
    assert.equal(await page.locator('#result').isVisible(), false);
  }

  async function uploadFile(page: Page, path: string) {
    await page.locator('#file-input').setInputFiles(path);
    await page.locator('#result:not([hidden])').waitFor({ timeout: 60_000 });
  }

  async function submitAndWatch(page: Page) {
    await page.locator('#continue').click();
    await expectFocusOnHeading(page, /Check and send/);
    const review = await page.locator('#review-list').innerText();
    assert.match(review, /Front of document\s+Added/);
    assert.match(review, /Back of document\s+Skipped/);
    assert.match(review, /Photo of your face\s+Added/);
    await fitsViewport(page);
    await page.locator('#submit').click();
    await heading(page).filter({ hasText: 'Checking your details' }).waitFor();
    assert.match(await page.locator('#check-list').innerText(), /Document\s+(In progress|Done)/);
  }

  test('(a) file uploads: passport and selfie, review, submit, progress, complete and back to redirect_url', async () => {
    const s = await newSession('browser_files');
    const { context, page, errors } = await open(s.hosted_url);
    try {
      await welcome(page);
      await uploadFile(page, files.passport!);
      assert.match(await page.locator('#quality').innerText(), /looks good/);
      await page.screenshot({ path: join(files.shots!, 'a-front.png'), fullPage: true });
      await page.locator('#continue').click();
      await expectFocusOnHeading(page, /back of your document/);
      assert.equal(await page.locator('#skip-step').isVisible(), true, 'the back is optional');
      await page.locator('#skip-step').click();
      await expectFocusOnHeading(page, /photo of your face/);
      await uploadFile(page, files.selfie!);
      assert.match(await page.locator('#quality').innerText(), /looks good/);
      await submitAndWatch(page);
      await page.screenshot({ path: join(files.shots!, 'a-progress.png'), fullPage: true });
      const status = (await (
        await fetch(`${server.base}/v1/verifications/${s.id}`, { headers: { authorization: `Bearer ${sandboxKey}` } })
      ).json()) as { status: string };
      assert.ok(['processing', 'approved', 'declined', 'referred'].includes(status.status), status.status);

      // Completion needs the check pipeline (job verifications.pipeline) to decide the session.
      await heading(page).filter({ hasText: 'All done' }).waitFor({ timeout: 180_000 });
      assert.doesNotMatch(await page.locator('main').innerText(), /approved|declined|referred/i, 'the decision is never shown');
      await page.waitForURL(`${shopBase}/done?ref=browser_files`, { timeout: 30_000 });
      await page.locator('h1', { hasText: 'Back at the shop' }).waitFor();
      await page.screenshot({ path: join(files.shots!, 'a-redirected.png') });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('(b) camera: the selfie is taken with the camera button from a fake camera stream', async () => {
    const s = await newSession('browser_camera');
    const { context, page, errors } = await open(s.hosted_url);
    try {
      await welcome(page);
      await uploadFile(page, files.passport!);
      await page.locator('#continue').click();
      await page.locator('#skip-step').click();
      await expectFocusOnHeading(page, /photo of your face/);
      await page.locator('#use-camera').click();
      await page.locator('#camera:not([hidden])').waitFor();
      await page.waitForFunction(() => (document.getElementById('camera-video')?.videoWidth ?? 0) > 0);
      assert.ok(await page.locator('#camera').evaluate((e) => e.classList.contains('mirror')), 'the selfie preview is mirrored');
      await page.screenshot({ path: join(files.shots!, 'b-camera.png'), fullPage: true });
      await page.locator('#take-photo').click();
      await page.locator('#result:not([hidden])').waitFor({ timeout: 60_000 });
      assert.match(await page.locator('#quality').innerText(), /looks good/, await page.locator('#quality').innerText());
      assert.ok(
        await page.locator('#preview').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0),
        'the captured photo is previewed',
      );
      await page.screenshot({ path: join(files.shots!, 'b-captured.png'), fullPage: true });
      const media = (await (
        await fetch(`${server.base}/v1/verifications/${s.id}`, { headers: { authorization: `Bearer ${sandboxKey}` } })
      ).json()) as { status: string };
      assert.equal(media.status, 'awaiting_subject');
      await submitAndWatch(page);
      await page.screenshot({ path: join(files.shots!, 'b-progress.png'), fullPage: true });
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('(e) active liveness: the page asks for the server-chosen actions and records the frames from the camera; a still image fails', async () => {
    const journey = await fetch(`${server.base}/v1/journeys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandboxKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        key: 'active_liveness',
        name: 'Active liveness',
        publish: true,
        definition: {
          checks: [{ type: 'liveness', settings: { challenge: true } }],
          decision_rules: { decline: [{ check: 'liveness', statuses: ['failed'] }], refer: [], decline_at_band: null, refer_at_band: null },
          risk_scoring: { signals: [], medium_from: 25, high_from: 70 },
          session_lifetime_seconds: 3600,
        },
      }),
    });
    assert.equal(journey.status, 201, await journey.clone().text());
    const res = await fetch(`${server.base}/v1/verifications`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandboxKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ journey: 'active_liveness', subject: { type: 'individual', reference: 'browser_challenge' } }),
    });
    assert.equal(res.status, 201);
    const s = (await res.json()) as { id: string; hosted_url: string };
    const { context, page, errors } = await open(s.hosted_url);
    try {
      await heading(page).filter({ hasText: 'Verify your identity' }).waitFor();
      await page.locator('#consent').check();
      await page.locator('#start').click();
      await expectFocusOnHeading(page, /really you/);
      assert.equal(await page.locator('#file-label').isVisible(), false, 'no file upload for the live check');
      await page.locator('#use-camera').click();
      await page.waitForFunction(() => (document.getElementById('camera-video')?.videoWidth ?? 0) > 0);
      assert.equal(await page.locator('#take-photo').innerText(), 'Start');
      await page.locator('#take-photo').click();
      // The prompts follow the server's sequence.
      const prompts = new Set<string>();
      while (!(await page.locator('#result').isVisible())) {
        const text = await page
          .locator('#challenge-prompt')
          .innerText()
          .catch(() => '');
        if (text) prompts.add(text);
        await page.waitForTimeout(150);
      }
      await page.screenshot({ path: join(files.shots!, 'e-challenge-done.png'), fullPage: true });
      assert.ok(prompts.has('Look straight at the camera'), [...prompts].join(' | '));
      assert.ok(
        [...prompts].some((p) => /Turn your head|Close your eyes|Open your mouth/.test(p)),
        [...prompts].join(' | '),
      );
      await page.locator('#continue').click();
      await expectFocusOnHeading(page, /Check and send/);
      assert.match(await page.locator('#review-list').innerText(), /Face check\s+Added/);
      await page.locator('#submit').click();
      await heading(page).filter({ hasText: 'All done' }).waitFor({ timeout: 180_000 });
      const v = (await (
        await fetch(`${server.base}/v1/verifications/${s.id}`, { headers: { authorization: `Bearer ${sandboxKey}` } })
      ).json()) as { decision: string; checks: { type: string; id: string; status: string }[] };
      const check = v.checks.find((c) => c.type === 'liveness')!;
      // The fake camera plays one still image: nothing turns, nothing blinks.
      assert.equal(check.status, 'failed');
      const detail = (await (
        await fetch(`${server.base}/v1/checks/${check.id}`, { headers: { authorization: `Bearer ${sandboxKey}` } })
      ).json()) as { result: { frames: number; challenge: string[] }; signals: { name: string; passed: boolean | null }[] };
      assert.equal(detail.result.frames, 10);
      for (const action of detail.result.challenge) {
        const wanted = { turn_left: /to your left/, turn_right: /to your right/, blink: /Close your eyes/, open_mouth: /Open your mouth/ }[
          action
        ];
        assert.ok(wanted && [...prompts].some((p) => wanted.test(p)), `prompted for ${action}`);
      }
      assert.equal(detail.signals.find((x) => x.name === 'challenge_actions_performed')?.passed, false);
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
  });

  test('(c) guidance in plain words: a file too large, a file that is no photo, a blurred document; (d) an expired link', async () => {
    const s = await newSession('browser_errors');
    const { context, page, errors } = await open(s.hosted_url);
    try {
      await welcome(page);
      await page.locator('#file-input').setInputFiles(files.huge!);
      await page.locator('#alert:not([hidden])').waitFor();
      assert.match(await page.locator('#alert').innerText(), /too large\. The limit is 15 MB/);
      await page.locator('#file-input').setInputFiles(files.text!);
      await page.waitForFunction(() => /cannot be used/.test(document.getElementById('alert')?.textContent ?? ''));
      await fitsViewport(page);
      await page.screenshot({ path: join(files.shots!, 'c-wrong-type.png'), fullPage: true });
      await uploadFile(page, files.blurred!);
      assert.equal(await page.locator('#alert').isHidden(), true, 'a successful upload clears the previous error');
      const guidance = await page.locator('#quality').innerText();
      assert.match(guidance, /problem with this photo/);
      assert.match(guidance, /blurry/);
      assert.equal(await page.locator('#retake').isVisible(), true);
      await page.screenshot({ path: join(files.shots!, 'c-blurry.png'), fullPage: true });
      await page.locator('#retake').click();
      await page.locator('#capture-choices:not([hidden])').waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await context.close();
    }
    // A link whose token is wrong (or expired) says so instead of failing silently.
    const bad = await open(s.hosted_url.replace(/token=vst_[^&]+/, 'token=vst_' + 'x'.repeat(43)));
    try {
      await heading(bad.page)
        .filter({ hasText: /not valid|expired/ })
        .waitFor();
      await fitsViewport(bad.page);
    } finally {
      await bad.context.close();
    }
  });
});
