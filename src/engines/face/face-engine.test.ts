import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { createFaceEngine, type FaceEngine } from './face-engine.js';
import { FaceInputError } from './errors.js';
import { FaceIndex } from './face-index.js';
import { searchFace } from './face-search.js';
import { EMBEDDING_DIMENSIONS, FACE_MATCH_THRESHOLD } from './similarity.js';

// Real faces from the shared labelled set (deepface_subset, MIT); resolved from the repo root.
const dataDir = fileURLToPath(new URL('../../../../shared/data/', import.meta.url));
const faces = `${dataDir}faces/deepface_subset/images/`;
const skip = existsSync(faces) ? false : `shared test data not found at ${faces}`;
const img = (name: string): Buffer => readFileSync(`${faces}${name}`);

describe('face engine on real faces', { skip }, () => {
  let engine: FaceEngine;
  before(() => {
    engine = createFaceEngine({ poolSize: 2 });
  });
  after(async () => {
    await engine?.close();
  });

  test('analyze finds one face with a unit 128-value embedding (face-api net), age and scores', async () => {
    const analysis = await engine.analyze(img('img5.jpg'));
    assert.equal(analysis.faces.length, 1);
    const face = analysis.faces[0]!;
    assert.equal(face.embedding.length, EMBEDDING_DIMENSIONS);
    const norm = Math.hypot(...face.embedding);
    assert.ok(Math.abs(norm - 1) < 1e-3, `unit length, got ${norm}`);
    assert.ok(face.box[2] > 100 && face.box[2] <= analysis.image.width);
    assert.ok(face.antispoof !== null && face.antispoof > 0 && face.antispoof <= 1);
    assert.ok(face.texture && face.texture.sharpness > 0);
  });

  test('a same-person pair from pairs_master matches and a different-person pair does not', async () => {
    // pairs_master.csv: img20/img21 Yes, img20/img8 No (different identities in labels.csv).
    const same = await engine.match(img('img20.jpg'), img('img21.jpg'));
    assert.ok(same.similarity !== null && same.similarity >= FACE_MATCH_THRESHOLD, `same person scored ${same.similarity}`);
    assert.equal(same.verdict, 'passed');
    assert.ok(same.model.some((m) => m.name === '@vladmandic/human' && m.version === '3.3.6'));
    const different = await engine.match(img('img20.jpg'), img('img8.jpg'));
    assert.ok(different.similarity !== null && different.similarity < FACE_MATCH_THRESHOLD);
    assert.notEqual(different.verdict, 'passed');
  });

  test('a mirrored copy of a photo still matches its original', async () => {
    const result = await engine.match(img('img11.jpg'), img('img11_reflection.jpg'));
    assert.equal(result.verdict, 'passed');
    assert.ok(result.similarity! > 0.85, `mirror scored ${result.similarity}`);
  });

  test('an image without a face is an outcome with a no_face signal, not an exception', async () => {
    const blank = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 190, b: 180 } } })
      .jpeg()
      .toBuffer();
    const analysis = await engine.analyze(blank);
    assert.equal(analysis.faces.length, 0);
    const match = await engine.match(blank, img('img5.jpg'));
    assert.equal(match.verdict, 'failed');
    assert.equal(match.similarity, null);
    assert.ok(match.signals.some((s) => s.name === 'selfie_no_face' && s.passed === false));
    const embedded = await engine.embed(blank);
    assert.equal(embedded.embedding, null);
    assert.ok(embedded.signals.some((s) => s.name === 'image_no_face'));
  });

  test('EXIF orientation is honoured', async () => {
    const original = img('img5.jpg');
    // Pixels stored turned 90° anticlockwise with orientation 6 ("rotate 90° clockwise to view").
    const turned = await sharp(original).rotate(-90).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const [a, b] = await Promise.all([engine.analyze(original), engine.analyze(turned)]);
    assert.equal(b.image.exifOrientation, 6);
    assert.equal(b.image.width, a.image.width);
    assert.equal(b.faces.length, 1);
    const sim = a.faces[0]!.embedding.reduce((s, v, i) => s + v * b.faces[0]!.embedding[i]!, 0);
    assert.ok(sim > 0.9, `upright and EXIF-rotated copies scored ${sim}`);
  });

  test('age estimate is a plausible adult age with a band and a decision', async () => {
    const result = await engine.estimateAge(img('img2.jpg'), { minimumAge: 18 });
    assert.ok(result.age !== null && result.age > 18 && result.age < 70, `age ${result.age}`);
    assert.ok(result.low! < result.age! && result.high! > result.age!);
    assert.notEqual(result.verdict, 'failed');
    const tooYoung = await engine.estimateAge(img('img2.jpg'), { minimumAge: 80 });
    assert.equal(tooYoung.verdict, 'failed');
  });

  test('liveness rejects a recaptured document portrait and a burst of identical frames', async () => {
    const doc = `${dataDir}mrz/passporteye_utopia_images/passport-td3.jpg`;
    if (existsSync(doc)) {
      const result = await engine.liveness([readFileSync(doc)]);
      // Not passed; since #19 it is needs_review (soft: a blurred face), no longer failed: the moiré measure
      // that failed it upsampled small faces and, measured on ../shared/data/real/liveness, also failed about
      // half of the genuine live captures (docs/face.md § Liveness on real captures).
      assert.notEqual(result.verdict, 'passed', JSON.stringify(result.signals));
      assert.ok(result.signals.some((s) => s.passed === false));
    }
    const frame = img('img5.jpg');
    const burst = await engine.liveness([frame, frame, frame]);
    assert.equal(burst.verdict, 'failed');
    assert.ok(burst.signals.some((s) => s.name === 'frames_identical' && s.passed === false));
  });

  test('the index returns the enrolled identity first', async () => {
    const enrol: [string, string][] = [
      ['img2.jpg', 'person_01'],
      ['img12.jpg', 'person_02'],
      ['img8.jpg', 'person_03'],
      ['img13.jpg', 'person_04'],
      ['img16.jpg', 'person_05'],
      ['img18.jpg', 'person_06'],
    ];
    const index = new FaceIndex();
    const embeddings = await Promise.all(enrol.map(([file]) => engine.embed(img(file))));
    embeddings.forEach((e, i) => index.add(enrol[i]![0], enrol[i]![1], e.embedding!));
    const probe = await engine.embed(img('img53.jpg')); // another photo of person_02
    const hits = index.search(probe.embedding!, { k: 3 });
    assert.equal(hits[0]?.subjectId, 'person_02');
    const dup = index.findDuplicates('new_subject', probe.embedding!);
    assert.equal(dup.signal.passed, false, 'the same face enrolled under another subject is flagged');

    const asOther = await searchFace(engine, index, img('img53.jpg'), { subjectId: 'new_subject' }); // person_02 again
    assert.equal(asOther.verdict, 'needs_review');
    assert.equal(asOther.hits[0]?.subjectId, 'person_02');
    const asSelf = await searchFace(engine, index, img('img53.jpg'), { subjectId: 'person_02' });
    assert.equal(asSelf.verdict, 'passed', JSON.stringify(asSelf.signals));
  });

  test('refuses oversized input, pixel bombs and non-images with a typed error', async () => {
    const small = createFaceEngine({ poolSize: 1, limits: { maxBytes: 1000 } });
    try {
      await assert.rejects(
        small.analyze(img('img5.jpg')),
        (e: unknown) => e instanceof FaceInputError && e.reason === 'image_too_large' && e.code === 'invalid_request',
      );
    } finally {
      await small.close();
    }
    // 8000 × 6000 of one colour compresses to a few kB but would decode to 144 MB.
    const bomb = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();
    await assert.rejects(engine.analyze(bomb), (e: unknown) => e instanceof FaceInputError && e.reason === 'image_too_many_pixels');
    await assert.rejects(
      engine.analyze(Buffer.from('definitely not an image')),
      (e: unknown) => e instanceof FaceInputError && e.reason === 'image_unsupported_format',
    );
    assert.equal((await engine.analyze(img('img5.jpg'))).faces.length, 1, 'the pool keeps working after refusals');
  });

  test("one worker takes a check's images as one task (decodes overlap inference): the same scores as two workers, and input errors name their image", async () => {
    const single = createFaceEngine({ poolSize: 1 });
    try {
      const [one, two] = [await single.match(img('img20.jpg'), img('img21.jpg')), await engine.match(img('img20.jpg'), img('img21.jpg'))];
      assert.ok(Math.abs(one.similarity! - two.similarity!) < 1e-6, `${one.similarity} vs ${two.similarity}`);
      assert.equal(one.verdict, two.verdict);
      const [ageOne, ageTwo] = [
        await single.estimateAge(img('img5.jpg'), { minimumAge: 18 }),
        await engine.estimateAge(img('img5.jpg'), { minimumAge: 18 }),
      ];
      assert.deepEqual([ageOne.age, ageOne.low, ageOne.high, ageOne.verdict], [ageTwo.age, ageTwo.low, ageTwo.high, ageTwo.verdict]);
      const live = await single.liveness([img('img5.jpg'), img('img6.jpg')]);
      assert.deepEqual(
        live.signals.map((x) => [x.name, x.passed]),
        (await engine.liveness([img('img5.jpg'), img('img6.jpg')])).signals.map((x) => [x.name, x.passed]),
      );
      const junk = Buffer.from('definitely not an image');
      await assert.rejects(
        single.match(img('img5.jpg'), junk),
        (e: unknown) => e instanceof FaceInputError && e.reason === 'image_unsupported_format' && e.field === 'reference',
      );
      await assert.rejects(single.match(junk, img('img5.jpg')), (e: unknown) => e instanceof FaceInputError && e.field === 'selfie');
      await assert.rejects(
        single.liveness([img('img5.jpg'), img('img6.jpg'), junk]),
        (e: unknown) => e instanceof FaceInputError && e.field === 'frames[2]',
      );
      assert.equal(
        (await single.match(img('img20.jpg'), img('img21.jpg'))).verdict,
        one.verdict,
        'the worker keeps working after a refused task',
      );
    } finally {
      await single.close();
    }
  });
});

test('images of extreme shape (a 4000 × 3 strip, a 3 × 4000 column, one pixel) are faceless outcomes, not a canvas of gigabytes', async () => {
  const engine = createFaceEngine({ poolSize: 1 });
  try {
    for (const [width, height] of [
      [4000, 3],
      [3, 4000],
      [1, 1],
    ] as const) {
      const png = await sharp({ create: { width, height, channels: 3, background: '#a08070' } })
        .png()
        .toBuffer();
      const analysis = await engine.analyze(png);
      assert.equal(analysis.faces.length, 0, `${width}×${height}`);
    }
  } finally {
    await engine.close();
  }
});
