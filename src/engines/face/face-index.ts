import { signal, type Signal } from '../signal.js';
import { EMBEDDING_DIMENSIONS, FACE_DUPLICATE_THRESHOLD, normalizeEmbedding } from './similarity.js';
import { SignCodes } from './sign-codes.js';

/**
 * In-process 1:N face index for deployments without pgvector: cosine top-k over unit-length
 * embeddings kept in one growing Float32Array. From `coarseFrom` entries on, the search runs in two
 * stages: a scan of 1,024-bit sign codes of every row (sign-codes.ts) gives each row an upper bound
 * of its similarity; the rows with the best bounds, and every row whose bound reaches the similarity
 * that must not be missed, are then scored exactly at full precision. Returned similarities are
 * always the exact cosine. bench/face-speed.ts measures both stages and the recall against the exact scan.
 */

export interface FaceIndexHit {
  id: string;
  subjectId: string;
  similarity: number;
}

export interface SearchOptions {
  k?: number;
  /** Hits below this similarity are dropped. */
  minSimilarity?: number;
  /**
   * Every face at or above this similarity is scored exactly, whatever its code says (within the
   * codes' error bound, ERROR_SIGMAS in sign-codes.ts). Default: `minSimilarity` if given, else FACE_DUPLICATE_THRESHOLD.
   * Below it, the top-k is best effort; a lower value re-ranks more rows.
   */
  recallFrom?: number;
  /** Skip faces of this subject (search for duplicates of a subject among the others). */
  excludeSubjectId?: string;
  /** Force the full-precision scan of every row. */
  exact?: boolean;
}

/** Rows re-ranked regardless of bounds: enough that the best-effort top-k below `recallFrom` is rarely off. */
const MIN_CANDIDATES = 256;
const CANDIDATES_PER_HIT = 20;
const MAGIC = 'VERITY-FACE-INDEX-2';
const MAGIC_V1 = 'VERITY-FACE-INDEX-1';

export class FaceIndex {
  private ids: string[] = [];
  private subjects: string[] = [];
  private rowOf = new Map<string, number>();
  private vectors: Float32Array;
  private readonly codes: SignCodes;
  /** Whether every row's code is current; codes are (re)built lazily by the first coarse search. */
  private codesLive = false;
  /** Row count when the codes' centre was last computed; it is recomputed once the index doubles. */
  private centredAt = 0;

  constructor(
    readonly dimensions = EMBEDDING_DIMENSIONS,
    readonly coarseFrom = 5_000,
    capacity = 1024,
  ) {
    this.vectors = new Float32Array(capacity * dimensions);
    this.codes = new SignCodes(dimensions, capacity);
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.rowOf.has(id);
  }

  /** Adds or replaces the face `id` of `subjectId`. The embedding is normalised on the way in. */
  add(id: string, subjectId: string, embedding: Float32Array | readonly number[]): void {
    if (embedding.length !== this.dimensions)
      throw new RangeError(`embedding has ${embedding.length} values, the index takes ${this.dimensions}`);
    const unit = normalizeEmbedding(embedding);
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.ids.length;
      this.grow(row + 1);
      this.ids.push(id);
      this.subjects.push(subjectId);
      this.rowOf.set(id, row);
    } else {
      this.subjects[row] = subjectId;
    }
    this.vectors.set(unit, row * this.dimensions);
    if (!this.codesLive) return;
    if (this.ids.length >= 2 * this.centredAt)
      this.codesLive = false; // re-centre on the next coarse search
    else this.codes.encode(this.vectors, row);
  }

  remove(id: string): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    const last = this.ids.length - 1;
    if (row !== last) {
      // Swap-remove keeps rows dense; the moved row keeps its vector and code.
      this.vectors.copyWithin(row * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      if (this.codesLive) this.codes.move(last, row);
      this.ids[row] = this.ids[last]!;
      this.subjects[row] = this.subjects[last]!;
      this.rowOf.set(this.ids[row]!, row);
    }
    this.ids.pop();
    this.subjects.pop();
    this.rowOf.delete(id);
    return true;
  }

  search(query: Float32Array | readonly number[], options: SearchOptions = {}): FaceIndexHit[] {
    if (query.length !== this.dimensions) throw new RangeError(`query has ${query.length} values, the index takes ${this.dimensions}`);
    const k = Math.max(1, options.k ?? 10);
    const minSimilarity = options.minSimilarity ?? -1;
    const unit = normalizeEmbedding(query);
    const n = this.ids.length;
    const skip = options.excludeSubjectId;
    const scored: { row: number; s: number }[] = [];
    const score = (row: number): void => {
      if (skip !== undefined && this.subjects[row] === skip) return;
      const s = dot(this.vectors, row * this.dimensions, unit, this.dimensions);
      if (s >= minSimilarity) scored.push({ row, s });
    };
    if (options.exact || n < this.coarseFrom) {
      for (let row = 0; row < n; row++) score(row);
    } else {
      const recallFloor = Math.max(minSimilarity, options.recallFrom ?? options.minSimilarity ?? FACE_DUPLICATE_THRESHOLD);
      const estimates = new Float32Array(n);
      const bounds = this.liveCodes().upperBounds(unit, n, recallFloor, estimates);
      const first = topRows(estimates, Math.min(n, Math.max(k * CANDIDATES_PER_HIT, MIN_CANDIDATES)));
      const done = new Uint8Array(n);
      for (const row of first) {
        done[row] = 1;
        score(row);
      }
      // A row outside the first candidates matters only if it could beat the k-th score found so
      // far and reach the recall floor; its bound says whether it can.
      let floor = recallFloor;
      if (scored.length >= k) floor = Math.max(floor, kthLargest(scored, k));
      for (let row = 0; row < n; row++) if (done[row] === 0 && bounds[row]! >= floor) score(row);
    }
    scored.sort((a, b) => b.s - a.s);
    return scored.slice(0, k).map(({ row, s }) => ({ id: this.ids[row]!, subjectId: this.subjects[row]!, similarity: s }));
  }

  /** Faces of other subjects at or above `threshold`: one person enrolled under several identities. */
  findDuplicates(
    subjectId: string,
    embedding: Float32Array,
    threshold = FACE_DUPLICATE_THRESHOLD,
    k = 5,
  ): { hits: FaceIndexHit[]; signal: Signal } {
    const hits = this.search(embedding, { k, minSimilarity: threshold, excludeSubjectId: subjectId });
    const top = hits[0];
    const detail = top
      ? `Face matches ${hits.length} face(s) of other subjects; closest ${top.subjectId} at ${top.similarity.toFixed(3)}.`
      : 'No face of another subject at or above the threshold.';
    return { hits, signal: signal('face_duplicate_across_subjects', hits.length, hits.length === 0, { threshold, detail }) };
  }

  /**
   * Binary snapshot: a JSON header (ids, subjects, codes' centre row count) followed by the unit
   * vectors and, if the codes have a centre, that centre; codes are rebuilt from them on first search.
   */
  serialize(): Buffer {
    const centre = this.codes.centreVector;
    const header = Buffer.from(
      JSON.stringify({
        magic: MAGIC,
        dimensions: this.dimensions,
        coarseFrom: this.coarseFrom,
        ids: this.ids,
        subjects: this.subjects,
        centredAt: centre ? this.centredAt : 0,
      }),
    );
    const len = Buffer.alloc(4);
    len.writeUInt32LE(header.length);
    const body = this.vectors.subarray(0, this.ids.length * this.dimensions);
    const parts = [len, header, Buffer.from(body.buffer, body.byteOffset, body.byteLength)];
    if (centre) parts.push(Buffer.from(centre.buffer, centre.byteOffset, centre.byteLength));
    return Buffer.concat(parts);
  }

  /** Restores a snapshot of this version or of version 1 (no centre: it is computed from the rows). */
  static deserialize(data: Uint8Array): FaceIndex {
    const buf = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    let header: { magic?: unknown; dimensions: number; coarseFrom: number; ids: string[]; subjects: string[]; centredAt?: number };
    let headerLength: number;
    try {
      headerLength = buf.readUInt32LE(0);
      header = JSON.parse(buf.subarray(4, 4 + headerLength).toString('utf8')) as typeof header;
    } catch {
      throw new Error('not a face index snapshot');
    }
    if (header.magic !== MAGIC && header.magic !== MAGIC_V1) {
      throw new Error(
        typeof header.magic === 'string' && header.magic.startsWith('VERITY-FACE-INDEX-')
          ? `face index snapshot version ${header.magic} is not supported (this code reads ${MAGIC_V1} and ${MAGIC})`
          : 'not a face index snapshot',
      );
    }
    const count = header.ids.length;
    const d = header.dimensions;
    const centredAt = header.magic === MAGIC ? (header.centredAt ?? 0) : 0;
    const start = 4 + headerLength;
    const vectorBytes = count * d * 4;
    if (buf.length - start !== vectorBytes + (centredAt > 0 ? d * 4 : 0))
      throw new Error('face index snapshot is truncated or has trailing bytes');
    const index = new FaceIndex(d, header.coarseFrom, Math.max(1, count));
    // Copy into aligned arrays: the snapshot's offset need not be a multiple of 4.
    const raw = new Uint8Array(vectorBytes);
    raw.set(buf.subarray(start, start + vectorBytes));
    index.vectors = new Float32Array(raw.buffer);
    if (centredAt > 0) {
      const centre = new Uint8Array(d * 4);
      centre.set(buf.subarray(start + vectorBytes));
      index.codes.setCentre(new Float32Array(centre.buffer));
      index.centredAt = centredAt;
    }
    index.ids = header.ids;
    index.subjects = header.subjects;
    header.ids.forEach((id, row) => index.rowOf.set(id, row));
    return index;
  }

  /** The codes, first (re)computing the centre when the index has doubled since, and encoding every row. */
  private liveCodes(): SignCodes {
    if (this.codesLive) return this.codes;
    const n = this.ids.length;
    if (this.codes.centreVector === null || n >= 2 * this.centredAt) {
      this.codes.setCentre(SignCodes.mean(this.vectors, n, this.dimensions));
      this.centredAt = n;
    }
    for (let row = 0; row < n; row++) this.codes.encode(this.vectors, row);
    this.codesLive = true;
    return this.codes;
  }

  private grow(rows: number): void {
    const capacity = this.vectors.length / this.dimensions;
    if (rows <= capacity) return;
    const next = Math.max(rows, capacity * 2);
    const vectors = new Float32Array(next * this.dimensions);
    vectors.set(this.vectors);
    this.vectors = vectors;
    this.codes.grow(next);
  }
}

function dot(m: Float32Array, offset: number, q: Float32Array, d: number): number {
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0;
  let j = 0;
  for (; j + 3 < d; j += 4) {
    s0 += m[offset + j]! * q[j]!;
    s1 += m[offset + j + 1]! * q[j + 1]!;
    s2 += m[offset + j + 2]! * q[j + 2]!;
    s3 += m[offset + j + 3]! * q[j + 3]!;
  }
  for (; j < d; j++) s0 += m[offset + j]! * q[j]!;
  return s0 + s1 + s2 + s3;
}

function kthLargest(scored: { s: number }[], k: number): number {
  return Float64Array.from(scored, (x) => x.s)
    .sort()
    .at(-k)!;
}

/** Rows with the `count` highest scores, via a min-heap (no full sort of 100,000 scores). */
function topRows(scores: Float32Array, count: number): number[] {
  const n = scores.length;
  const heapRows = new Int32Array(count);
  const heapScores = new Float64Array(count);
  let size = 0;
  for (let r = 0; r < n; r++) {
    const s = scores[r]!;
    if (size < count) {
      let i = size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (heapScores[p]! <= s) break;
        heapScores[i] = heapScores[p]!;
        heapRows[i] = heapRows[p]!;
        i = p;
      }
      heapScores[i] = s;
      heapRows[i] = r;
    } else if (s > heapScores[0]!) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const c = l + 1 < size && heapScores[l + 1]! < heapScores[l]! ? l + 1 : l;
        if (heapScores[c]! >= s) break;
        heapScores[i] = heapScores[c]!;
        heapRows[i] = heapRows[c]!;
        i = c;
      }
      heapScores[i] = s;
      heapRows[i] = r;
    }
  }
  return Array.from(heapRows.subarray(0, size));
}
