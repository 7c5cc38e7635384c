// @ts-check
/**
 * Verity hosted capture page. Plain ES module, no framework, no third-party code.
 * Flow: welcome/consent → one screen per step (camera or file) → review → submit → progress → complete.
 * The session token arrives as ?token= and is moved into sessionStorage at once, then removed from the
 * address bar; every API call sends it as a bearer header. The page never shows the decision.
 */

/**
 * @typedef {{ code: string, message: string }} Issue
 * @typedef {{ acceptable: boolean, issues: Issue[] }} Quality
 * @typedef {{ kind: string, required: boolean, description: string, captured: boolean, quality: Quality | null }} Step
 * @typedef {{ id: string, status: string, journey: string, expires_at: string, redirect_url: string | null, steps: Step[],
 *   accepted_document_types: string[], accepted_countries: string[] | null, max_upload_bytes: number,
 *   checks: { type: string, status: string }[] }} Session
 * @typedef {{ kind: string, media_id: string, bytes: number, content_type: string, sha256: string, quality: Quality }} Upload
 * @typedef {{ error: { code: string, message: string, field: string | null, request_id: string } }} ErrorBody
 */

const POLL_MS = 2000;
const REDIRECT_DELAY_MS = 2500;

/** Plain words for every quality issue code (the API sends the same text; these keep the page consistent). */
const ISSUE_TEXT = /** @type {Record<string, string>} */ ({
  blurry: 'The photo is blurry or the document is too small in it. Hold the camera steady, fill the frame and make sure the text is sharp.',
  glare: 'There is glare on the document. Tilt it away from the light or turn off the flash, then try again.',
  too_dark: 'The photo is too dark. Move somewhere brighter and try again.',
  no_document: 'We could not find an identity document in this photo. Place the whole document in the frame.',
  wrong_document: 'This document is not one we can accept here. Use one of the document types listed.',
  unreadable:
    'We could not read the document. Make sure all of it, including the lines of characters at the bottom, is in the frame and not covered.',
  no_face: 'We could not find a face. Look straight at the camera with your face fully visible.',
  multiple_faces: 'More than one face is in the photo. Make sure only you are in the picture.',
  face_too_small: 'Your face is too small in the photo. Move closer to the camera.',
});

const MESSAGES = {
  tooLarge: (/** @type {number} */ max) =>
    `This file is too large. The limit is ${formatBytes(max)}. Take a new photo or choose a smaller file.`,
  wrongType: (/** @type {boolean} */ pdf) =>
    `This type of file cannot be used. Choose a photo (JPEG, PNG, WebP or HEIC)${pdf ? ' or a PDF' : ''}.`,
  unreadable: 'We could not open this file. Take a new photo or choose another file.',
  network: 'We could not reach the server. Check your internet connection and try again.',
  camera: 'We could not use your camera. Allow camera access in your browser settings, or choose a photo instead.',
  busy: 'Too many attempts in a short time. Wait a minute and try again.',
  server: 'Something went wrong on our side. Try again in a moment.',
  missing: (/** @type {string} */ what) => `${what} is still missing. Add it before sending.`,
};

const STEP_TEXT = /** @type {Record<string, { title: string, hint: string, done: string, facing: 'environment' | 'user' | null }>} */ ({
  document_front: {
    title: 'Photograph the front of your document',
    hint: 'Place the document on a dark, flat surface in good light. Fit the whole document in the frame, with no fingers over it. For a passport, use the page with your photo.',
    done: 'Front of document',
    facing: 'environment',
  },
  document_back: {
    title: 'Photograph the back of your document',
    hint: 'ID cards and most driving licences have information on the back. Passports do not: if you used a passport, skip this step.',
    done: 'Back of document',
    facing: 'environment',
  },
  selfie: {
    title: 'Take a photo of your face',
    hint: 'Look straight at the camera in good light. Remove sunglasses or a hat, and make sure nobody else is in the picture.',
    done: 'Photo of your face',
    facing: 'user',
  },
  liveness_challenge: {
    title: 'Show us it is really you',
    hint: 'Look straight at the camera in good light, then follow the instructions on the screen: a few seconds, nothing is recorded until you start.',
    done: 'Face check',
    facing: 'user',
  },
  proof_of_address: {
    title: 'Add a proof of address',
    hint: 'A bill or bank statement from the last three months that shows your name and address. A photo or a PDF both work.',
    done: 'Proof of address',
    facing: 'environment',
  },
});

/** What the subject is asked to do for each challenge action (the server chooses the sequence). */
const ACTION_TEXT = /** @type {Record<string, string>} */ ({
  turn_left: 'Turn your head slowly to your left',
  turn_right: 'Turn your head slowly to your right',
  blink: 'Close your eyes for a moment, then open them',
  open_mouth: 'Open your mouth wide',
});

const DOCUMENT_NAMES = /** @type {Record<string, string>} */ ({
  passport: 'passport',
  id_card: 'national ID card',
  driving_licence: 'driving licence',
  visa: 'visa',
});

// ---------------------------------------------------------------------------------------------
// Small DOM helpers

/** @param {string} id @returns {HTMLElement} */
function el(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(`missing #${id}`);
  return node;
}
/** @param {string} id */
const button = (id) => /** @type {HTMLButtonElement} */ (el(id));

/** @param {string} tag @param {string} [text] @param {string} [className] */
function make(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** @param {number} n */
function formatBytes(n) {
  return n >= 1024 * 1024 ? `${Math.floor((n / 1024 / 1024) * 10) / 10} MB` : `${Math.ceil(n / 1024)} KB`;
}

/** Shows one screen, hides the others and moves focus to its heading. @param {string} name */
function show(name) {
  for (const s of document.querySelectorAll('[data-screen]')) /** @type {HTMLElement} */ (s).hidden = s.id !== `screen-${name}`;
  const heading = /** @type {HTMLElement | null} */ (document.querySelector(`#screen-${name} h1`));
  heading?.focus();
}

/** @param {string} text */
function announce(text) {
  el('status').textContent = text;
}

/** @param {string | null} text */
function alertText(text) {
  const a = el('alert');
  a.textContent = text ?? '';
  a.hidden = !text;
}

// ---------------------------------------------------------------------------------------------
// Token and API

const sessionId = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');
const apiBase = (document.querySelector('meta[name="verity-capture-api"]')?.getAttribute('content') ?? '/capture/v1').replace(/\/+$/, '');
const storageKey = `verity.capture.${sessionId}`;

/** Takes the token out of the address bar (history, screenshots, shared links) into this tab's storage. */
function takeToken() {
  const params = new URLSearchParams(location.search);
  const fromUrl = params.get('token');
  if (fromUrl) {
    try {
      sessionStorage.setItem(storageKey, fromUrl);
    } catch {
      // Storage may be disabled; the token then lives only in this page's memory.
    }
    params.delete('token');
    const rest = params.toString();
    history.replaceState(null, '', location.pathname + (rest ? `?${rest}` : '') + location.hash);
    return fromUrl;
  }
  try {
    return sessionStorage.getItem(storageKey);
  } catch {
    return null;
  }
}

class ApiError extends Error {
  /** @param {number} status @param {ErrorBody['error'] | null} body @param {string | null} retryAfter */
  constructor(status, body, retryAfter) {
    super(body?.message ?? `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.retryAfter = retryAfter;
  }
}
class NetworkError extends Error {}

const token = takeToken();

/**
 * @param {string} method @param {string} path @param {Blob} [body]
 * @returns {Promise<any>}
 */
async function api(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { authorization: `Bearer ${token}` };
  if (body) headers['content-type'] = body.type || 'application/octet-stream';
  let res;
  try {
    res = await fetch(apiBase + path, { method, headers, body, cache: 'no-store', credentials: 'omit', referrerPolicy: 'no-referrer' });
  } catch {
    throw new NetworkError(MESSAGES.network);
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new ApiError(res.status, data?.error ?? null, res.headers.get('retry-after'));
  return data;
}

// ---------------------------------------------------------------------------------------------
// State

/** @type {Session | null} */
let session = null;
/** @type {Step[]} */
let steps = [];
let stepIndex = 0;
/** Local previews of this visit's captures, by kind. @type {Map<string, { url: string | null, name: string }>} */
const previews = new Map();
/** @type {MediaStream | null} */
let stream = null;
let busy = false;

/** Routes any failure to the right words or screen. @param {unknown} err */
function handleError(err) {
  if (err instanceof NetworkError) return alertText(MESSAGES.network);
  if (!(err instanceof ApiError)) {
    alertText(MESSAGES.server);
    return;
  }
  if (err.status === 401) {
    stopPolling();
    return show(/expired/i.test(err.body?.message ?? '') ? 'expired' : 'invalid');
  }
  if (err.status === 409) return void refresh();
  if (err.status === 429) return alertText(MESSAGES.busy);
  if (err.status === 400 && err.body?.field === 'file') {
    const msg = err.body.message;
    if (/larger than/i.test(msg)) return alertText(MESSAGES.tooLarge(session?.max_upload_bytes ?? 0));
    if (/must be/i.test(msg)) return alertText(MESSAGES.wrongType(currentStep()?.kind === 'proof_of_address'));
    return alertText(MESSAGES.unreadable);
  }
  if (err.status === 400 && err.body?.field && STEP_TEXT[err.body.field]) {
    return alertText(MESSAGES.missing(STEP_TEXT[err.body.field]?.done ?? err.body.field));
  }
  alertText(MESSAGES.server);
}

/** Loads the session and shows the screen its status calls for. */
async function refresh() {
  try {
    session = /** @type {Session} */ (await api('GET', '/session'));
  } catch (err) {
    if (err instanceof NetworkError && !session) {
      el('loading-title').textContent = 'We could not load this page';
      alertText(MESSAGES.network);
      button('reload').hidden = false;
      return;
    }
    return handleError(err);
  }
  if (session.id !== sessionId) return show('invalid');
  steps = session.steps;
  route();
}

function route() {
  if (!session) return;
  switch (session.status) {
    case 'awaiting_subject':
      return showWelcome();
    case 'processing':
      return showProgress();
    case 'complete':
      return showComplete();
    default:
      return show('expired');
  }
}

// ---------------------------------------------------------------------------------------------
// Welcome

function showWelcome() {
  if (!session) return;
  const list = el('welcome-steps');
  list.replaceChildren(
    ...steps.map((s) => make('li', `${STEP_TEXT[s.kind]?.done ?? s.kind}${s.required ? '' : ' (if your document has one)'}`)),
  );
  const types = session.accepted_document_types.map((t) => DOCUMENT_NAMES[t] ?? t);
  el('welcome-documents').textContent = types.length ? `Documents we accept: ${types.join(', ')}.` : '';
  if (steps.length === 0) list.replaceChildren(make('li', 'Nothing to photograph: just confirm below.'));
  show('welcome');
}

function start() {
  const consent = /** @type {HTMLInputElement} */ (el('consent'));
  const error = el('consent-error');
  if (!consent.checked) {
    error.hidden = false;
    consent.setAttribute('aria-invalid', 'true');
    consent.focus();
    return;
  }
  error.hidden = true;
  consent.removeAttribute('aria-invalid');
  alertText(null);
  if (steps.length === 0) return showReview();
  showStep(0);
}

// ---------------------------------------------------------------------------------------------
// Capture steps

function currentStep() {
  return steps[stepIndex];
}

/** @param {number} index */
function showStep(index) {
  stopCamera();
  stepIndex = index;
  const step = currentStep();
  if (!step) return showReview();
  const text = STEP_TEXT[step.kind] ?? { title: step.kind, hint: step.description, done: step.kind, facing: 'environment' };
  el('capture-progress').textContent = `Step ${index + 1} of ${steps.length}`;
  el('capture-title').textContent = text.title;
  el('capture-hint').textContent = text.hint;
  const input = /** @type {HTMLInputElement} */ (el('file-input'));
  input.value = '';
  input.accept = step.kind === 'proof_of_address' ? 'image/*,application/pdf' : 'image/*';
  if (step.kind === 'proof_of_address') input.removeAttribute('capture');
  else input.setAttribute('capture', text.facing === 'user' ? 'user' : 'environment');
  el('file-label').textContent = step.kind === 'proof_of_address' ? 'Choose a photo or PDF' : 'Choose a photo';
  const challenge = step.kind === 'liveness_challenge';
  button('use-camera').hidden = !canUseCamera();
  el('file-label').hidden = challenge;
  button('take-photo').textContent = challenge ? 'Start' : 'Take photo';
  el('challenge-prompt').hidden = true;
  if (challenge && !canUseCamera()) alertText(MESSAGES.camera);
  button('skip-step').hidden = step.required;
  el('camera').classList.toggle('mirror', text.facing === 'user');
  alertText(null);
  announce('');
  if (step.captured) showResult(step, step.quality);
  else {
    el('result').hidden = true;
    el('capture-choices').hidden = false;
  }
  show('capture');
}

function canUseCamera() {
  return typeof navigator.mediaDevices?.getUserMedia === 'function';
}

async function startCamera() {
  const step = currentStep();
  if (!step) return;
  alertText(null);
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      video: {
        facingMode: STEP_TEXT[step.kind]?.facing === 'user' ? 'user' : 'environment',
        width: { ideal: 1920 },
        height: { ideal: 1080 },
      },
      audio: false,
    });
  } catch {
    alertText(MESSAGES.camera);
    el('file-label').focus();
    return;
  }
  const video = /** @type {HTMLVideoElement} */ (el('camera-video'));
  video.srcObject = stream;
  el('camera').hidden = false;
  el('capture-choices').hidden = true;
  el('result').hidden = true;
  announce('Camera on. Position yourself, then take the photo.');
  button('take-photo').focus();
}

function stopCamera() {
  for (const track of stream?.getTracks() ?? []) track.stop();
  stream = null;
  const video = /** @type {HTMLVideoElement} */ (el('camera-video'));
  video.srcObject = null;
  el('camera').hidden = true;
}

async function takePhoto() {
  if (currentStep()?.kind === 'liveness_challenge') return runChallenge();
  const video = /** @type {HTMLVideoElement} */ (el('camera-video'));
  if (!video.videoWidth) {
    announce('The camera is still starting. Try again in a moment.');
    return;
  }
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')?.drawImage(video, 0, 0);
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
  stopCamera();
  el('capture-choices').hidden = false;
  if (!blob) return alertText(MESSAGES.unreadable);
  await upload(/** @type {Blob} */ (blob), 'camera photo');
}

/** @param {number} ms */
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One camera frame as a JPEG at most 640 px wide (enough for the face mesh, small to upload). @returns {Promise<Blob | null>} */
function grabFrame() {
  const video = /** @type {HTMLVideoElement} */ (el('camera-video'));
  const scale = Math.min(1, 640 / video.videoWidth);
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(video.videoWidth * scale);
  canvas.height = Math.round(video.videoHeight * scale);
  canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.85));
}

/** @param {string} text */
function prompt(text) {
  const p = el('challenge-prompt');
  p.hidden = false;
  p.textContent = text;
}

/**
 * The active liveness check: the server picks the actions; one neutral frame, then frames_per_action
 * frames while each action is shown, uploaded in order. The frames are judged on the server only.
 */
async function runChallenge() {
  const step = currentStep();
  const video = /** @type {HTMLVideoElement} */ (el('camera-video'));
  if (!step || busy) return;
  if (!video.videoWidth) {
    announce('The camera is still starting. Try again in a moment.');
    return;
  }
  alertText(null);
  setBusy(true);
  try {
    const c = /** @type {{ actions: string[], frames_per_action: number, frame_count: number }} */ (await api('POST', '/challenge'));
    /** @type {Blob[]} */
    const frames = [];
    const keep = async () => {
      const blob = await grabFrame();
      if (!blob) throw new Error('frame');
      frames.push(blob);
    };
    prompt('Look straight at the camera');
    await wait(1200);
    await keep();
    for (const action of c.actions) {
      prompt(ACTION_TEXT[action] ?? action);
      await wait(500);
      for (let k = 0; k < c.frames_per_action; k++) {
        await wait(450);
        await keep();
      }
      prompt('Now look straight again');
      await wait(900);
    }
    prompt('Sending…');
    for (const [i, frame] of frames.entries()) await api('PUT', `/challenge/frames/${i}`, frame);
    const previous = previews.get(step.kind);
    if (previous?.url) URL.revokeObjectURL(previous.url);
    previews.set(step.kind, { url: frames[0] ? URL.createObjectURL(frames[0]) : null, name: 'face check' });
    step.captured = true;
    step.quality = null;
    stopCamera();
    el('challenge-prompt').hidden = true;
    showResult(step, null);
  } catch (err) {
    el('challenge-prompt').hidden = true;
    if (err instanceof Error && err.message === 'frame') alertText(MESSAGES.unreadable);
    else handleError(err);
  } finally {
    setBusy(false);
  }
}

/** The file's real type from its first bytes, as the server will judge it. @param {Blob} file */
async function sniff(file) {
  const b = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  const ascii = (/** @type {number} */ from, /** @type {number} */ to) => String.fromCharCode(...b.slice(from, to));
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b[0] === 0x89 && ascii(1, 4) === 'PNG') return 'image/png';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(4, 8) === 'ftyp' && /hei[cx]|mif1|msf1/.test(ascii(8, 12))) return 'image/heic';
  if (ascii(0, 5) === '%PDF-') return 'application/pdf';
  return 'other';
}

/** @param {Blob} file @param {string} name */
async function upload(file, name) {
  const step = currentStep();
  if (!step || !session || busy) return;
  alertText(null);
  const pdfAllowed = step.kind === 'proof_of_address';
  if (file.size > session.max_upload_bytes) return alertText(MESSAGES.tooLarge(session.max_upload_bytes));
  const type = await sniff(file);
  if (type === 'other' || (type === 'application/pdf' && !pdfAllowed)) return alertText(MESSAGES.wrongType(pdfAllowed));
  setBusy(true);
  const working = step.kind === 'proof_of_address' ? 'Checking your file…' : 'Checking your photo…';
  el('working').textContent = working;
  announce(working);
  try {
    const out = /** @type {Upload} */ (await api('PUT', `/media/${step.kind}`, file));
    const previous = previews.get(step.kind);
    if (previous?.url) URL.revokeObjectURL(previous.url);
    previews.set(step.kind, { url: type === 'application/pdf' ? null : URL.createObjectURL(file), name });
    step.captured = true;
    step.quality = out.quality;
    showResult(step, out.quality);
  } catch (err) {
    announce('');
    handleError(err);
  } finally {
    setBusy(false);
  }
}

/** @param {boolean} on */
function setBusy(on) {
  busy = on;
  el('working').hidden = !on;
  el('screen-capture').setAttribute('aria-busy', String(on));
  for (const id of ['use-camera', 'take-photo', 'continue', 'retake', 'skip-step']) button(id).disabled = on;
  /** @type {HTMLInputElement} */ (el('file-input')).disabled = on;
}

/** @param {Step} step @param {Quality | null} quality */
function showResult(step, quality) {
  const preview = /** @type {HTMLImageElement} */ (el('preview'));
  const local = previews.get(step.kind);
  preview.hidden = !local?.url;
  if (local?.url) {
    preview.src = local.url;
    preview.alt = `Your ${STEP_TEXT[step.kind]?.done.toLowerCase() ?? 'capture'}`;
  } else preview.removeAttribute('src');
  const box = el('quality');
  if (!quality || quality.acceptable) {
    const ok = make(
      'p',
      step.kind === 'proof_of_address'
        ? 'Your file is ready.'
        : step.kind === 'liveness_challenge'
          ? 'Done: thank you.'
          : 'Your photo looks good.',
      'quality-ok',
    );
    box.replaceChildren(ok);
    announce(ok.textContent ?? '');
  } else {
    const wrap = make('div', undefined, 'quality-issues');
    wrap.append(make('p', 'We noticed a problem with this photo:'));
    const list = make('ul');
    for (const issue of quality.issues) list.append(make('li', ISSUE_TEXT[issue.code] ?? issue.message));
    wrap.append(list, make('p', 'Retake it for the best result, or continue if you are sure it is clear.'));
    box.replaceChildren(wrap);
    announce(`Problem with this photo: ${quality.issues.map((i) => ISSUE_TEXT[i.code] ?? i.message).join(' ')}`);
  }
  el('capture-choices').hidden = true;
  el('result').hidden = false;
  button('continue').focus();
}

function retake() {
  el('result').hidden = true;
  el('capture-choices').hidden = false;
  announce('');
  (canUseCamera() ? button('use-camera') : el('file-label')).focus();
}

// ---------------------------------------------------------------------------------------------
// Review and submit

function showReview() {
  stopCamera();
  const list = el('review-list');
  list.replaceChildren(
    ...steps.map((step, i) => {
      const item = make('li');
      const label = make('span', STEP_TEXT[step.kind]?.done ?? step.kind);
      const state = make(
        'span',
        step.captured ? 'Added' : step.required ? 'Missing' : 'Skipped',
        `tag ${step.captured ? 'done' : step.required ? 'missing' : ''}`,
      );
      const change = make('button', step.captured ? 'Change' : 'Add', 'secondary');
      change.setAttribute('type', 'button');
      change.setAttribute('aria-label', `${step.captured ? 'Change' : 'Add'} ${(STEP_TEXT[step.kind]?.done ?? step.kind).toLowerCase()}`);
      change.addEventListener('click', () => showStep(i));
      const left = make('span');
      left.append(label, document.createTextNode(' '), state);
      item.append(left, change);
      return item;
    }),
  );
  alertText(null);
  show('review');
}

async function submit() {
  const missing = steps.find((s) => s.required && !s.captured);
  if (missing) return alertText(MESSAGES.missing(STEP_TEXT[missing.kind]?.done ?? missing.kind));
  const send = button('submit');
  send.disabled = true;
  announce('Sending…');
  try {
    await api('POST', '/submit');
    if (session) {
      session.status = 'processing';
      // Submission moved every check to processing; the next poll confirms it.
      session.checks = session.checks.map((c) => ({ ...c, status: 'processing' }));
    }
    announce('');
    showProgress();
  } catch (err) {
    announce('');
    handleError(err);
  } finally {
    send.disabled = false;
  }
}

// ---------------------------------------------------------------------------------------------
// Progress and completion

/** @type {ReturnType<typeof setTimeout> | null} */
let pollTimer = null;

function stopPolling() {
  if (pollTimer) clearTimeout(pollTimer);
  pollTimer = null;
}

const CHECK_NAMES = /** @type {Record<string, string>} */ ({
  document: 'Document',
  liveness: 'Live photo',
  face_match: 'Face comparison',
  age_estimation: 'Age',
  proof_of_address: 'Proof of address',
  sanctions_pep: 'Background check',
  risk_score: 'Final review',
});
const CHECK_STATES = /** @type {Record<string, string>} */ ({ pending: 'Waiting', processing: 'In progress', complete: 'Done' });

function renderChecks() {
  const list = el('check-list');
  list.replaceChildren(
    ...(session?.checks ?? []).map((c) => {
      const item = make('li');
      item.append(
        make('span', CHECK_NAMES[c.type] ?? c.type),
        make('span', CHECK_STATES[c.status] ?? c.status, `tag ${c.status === 'complete' ? 'done' : ''}`),
      );
      return item;
    }),
  );
}

function showProgress() {
  renderChecks();
  if (document.querySelector('#screen-progress')?.hasAttribute('hidden')) show('progress');
  stopPolling();
  pollTimer = setTimeout(poll, POLL_MS);
}

async function poll() {
  try {
    session = /** @type {Session} */ (await api('GET', '/session'));
    alertText(null);
  } catch (err) {
    if (err instanceof NetworkError) {
      announce('Connection lost. Trying again…');
      pollTimer = setTimeout(poll, POLL_MS * 2);
      return;
    }
    if (err instanceof ApiError && err.status === 429) {
      pollTimer = setTimeout(poll, Math.max(POLL_MS, Number(err.retryAfter ?? 2) * 1000));
      return;
    }
    return handleError(err);
  }
  announce('');
  if (session.status === 'processing') return showProgress();
  stopPolling();
  route();
}

function showComplete() {
  stopPolling();
  show('complete');
  const target = safeRedirect(session?.redirect_url ?? null);
  if (!target) return;
  const link = /** @type {HTMLAnchorElement} */ (el('redirect-link'));
  link.href = target;
  el('redirect-note').hidden = false;
  el('close-note').hidden = true;
  try {
    sessionStorage.removeItem(storageKey);
  } catch {
    // nothing stored
  }
  setTimeout(() => location.assign(target), REDIRECT_DELAY_MS);
}

/** Only http(s) addresses: never a javascript: or data: URL from a session. @param {string | null} url */
function safeRedirect(url) {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Wiring

function wire() {
  button('start').addEventListener('click', start);
  button('reload').addEventListener('click', () => location.reload());
  button('use-camera').addEventListener('click', () => void startCamera());
  button('take-photo').addEventListener('click', () => void takePhoto());
  button('stop-camera').addEventListener('click', () => {
    stopCamera();
    el('capture-choices').hidden = false;
    button('use-camera').focus();
  });
  const input = /** @type {HTMLInputElement} */ (el('file-input'));
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) void upload(file, file.name);
  });
  button('skip-step').addEventListener('click', () => showStep(stepIndex + 1));
  button('continue').addEventListener('click', () => showStep(stepIndex + 1));
  button('retake').addEventListener('click', retake);
  button('submit').addEventListener('click', () => void submit());
  window.addEventListener('pagehide', stopCamera);
}

wire();
if (!token || !sessionId) show('invalid');
else void refresh();
