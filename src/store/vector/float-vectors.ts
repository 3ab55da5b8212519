/**
 * The full float vectors of one tenant, with their memories' ids, held in memory beside its
 * quantized index so that exact re-scores, similarities and the vectors themselves are read
 * without a question to the database (at 100k vectors each read from the file cost several
 * microseconds, most of a search's exact stage). It holds what the database holds, byte for
 * byte, and scores as sqlite-vec's `1 - vec_distance_cosine(stored, query)` does (the dot
 * product and both squared lengths summed in float32, one term at a time, the distance rounded
 * to float32); `cosineSimilarity` scores a vector read from the file the same way, so a score
 * has the same bits whichever of the two answered. The owner keeps it current on every write.
 */

export class FloatVectors {
  readonly dimensions: number;
  private data: Float32Array;
  /** Each vector's squared length, summed as sqlite-vec sums it. */
  private squares: Float32Array;
  private ids: string[] = [];
  private rowids: number[] = [];
  private readonly positions = new Map<number, number>();
  /** The rowid of each held vector's memory id. */
  private readonly rowidsById = new Map<string, number>();

  constructor(dimensions: number, capacity = 1024) {
    this.dimensions = dimensions;
    this.data = new Float32Array(Math.max(1, capacity) * dimensions);
    this.squares = new Float32Array(Math.max(1, capacity));
  }

  get size(): number {
    return this.rowids.length;
  }

  /** Bytes the held vectors take (room for a quarter more may be reserved; ids and positions take about a tenth more). */
  get byteLength(): number {
    return this.rowids.length * this.dimensions * 4;
  }

  /** Holds the vector of `rowid` (memory `id`), replacing any held before. */
  set(rowid: number, id: string, vector: Float32Array): void {
    if (vector.length !== this.dimensions) {
      throw new Error(`vector of ${vector.length} dimensions among vectors of ${this.dimensions}`);
    }
    let position = this.positions.get(rowid);
    if (position === undefined) {
      position = this.rowids.length;
      if ((position + 1) * this.dimensions > this.data.length) this.grow();
      this.positions.set(rowid, position);
      this.rowids.push(rowid);
      this.ids.push(id);
    } else {
      this.forgetId(this.ids[position] as string, rowid);
      this.ids[position] = id;
    }
    this.rowidsById.set(id, rowid);
    this.data.set(vector, position * this.dimensions);
    this.squares[position] = squaredLength(vector);
  }

  /** Lets the vector of `rowid` go, if held: the last one takes its place. */
  delete(rowid: number): void {
    const position = this.positions.get(rowid);
    if (position === undefined) return;
    this.positions.delete(rowid);
    this.forgetId(this.ids[position] as string, rowid);
    const last = this.rowids.length - 1;
    if (position !== last) {
      const moved = this.rowids[last] as number;
      this.rowids[position] = moved;
      this.ids[position] = this.ids[last] as string;
      this.positions.set(moved, position);
      this.data.copyWithin(position * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      this.squares[position] = this.squares[last] as number;
    }
    this.rowids.pop();
    this.ids.pop();
  }

  has(rowid: number): boolean {
    return this.positions.has(rowid);
  }

  /** The memory id of `rowid`'s vector, or undefined when none is held. */
  idOf(rowid: number): string | undefined {
    const position = this.positions.get(rowid);
    return position === undefined ? undefined : this.ids[position];
  }

  /** The rowid of memory `id`'s vector, or undefined when none is held. */
  rowidOf(id: string): number | undefined {
    return this.rowidsById.get(id);
  }

  /** A copy of the vector of `rowid`, or undefined when none is held. */
  vector(rowid: number): Float32Array | undefined {
    const position = this.positions.get(rowid);
    if (position === undefined) return undefined;
    return this.data.slice(position * this.dimensions, (position + 1) * this.dimensions);
  }

  /**
   * The exact similarity of the vector of `rowid` to `query` and its memory's id, or undefined
   * when none is held; `queryLength` is `squaredLength(query)`. The similarity is null where
   * SQL's would be (a vector of zeros).
   */
  score(rowid: number, query: Float32Array, queryLength: number): { id: string; similarity: number | null } | undefined {
    const position = this.positions.get(rowid);
    if (position === undefined) return undefined;
    return { id: this.ids[position] as string, similarity: this.similarityOf(this.dot(position, query), position, queryLength) };
  }

  /**
   * `score` of each of these rowids whose vector is held, in their order, with the rowid. Four
   * vectors are summed side by side, each one term at a time as `score` sums it (the same bits):
   * four running sums keep the processor busy where one waits on its own last addition.
   */
  scores(
    rowids: readonly number[],
    query: Float32Array,
    queryLength: number,
  ): { rowid: number; id: string; similarity: number | null }[] {
    // Each held rowid's position, looked up once.
    const held: number[] = [];
    const at: number[] = [];
    for (const rowid of rowids) {
      const position = this.positions.get(rowid);
      if (position === undefined) continue;
      held.push(rowid);
      at.push(position);
    }
    const dots = new Float64Array(held.length);
    const f = Math.fround;
    const { data, dimensions } = this;
    let k = 0;
    for (; k + 3 < held.length; k += 4) {
      const o0 = (at[k] as number) * dimensions;
      const o1 = (at[k + 1] as number) * dimensions;
      const o2 = (at[k + 2] as number) * dimensions;
      const o3 = (at[k + 3] as number) * dimensions;
      let d0 = 0;
      let d1 = 0;
      let d2 = 0;
      let d3 = 0;
      for (let i = 0; i < query.length; i++) {
        const q = query[i] as number;
        d0 = f(d0 + f((data[o0 + i] as number) * q));
        d1 = f(d1 + f((data[o1 + i] as number) * q));
        d2 = f(d2 + f((data[o2 + i] as number) * q));
        d3 = f(d3 + f((data[o3 + i] as number) * q));
      }
      dots[k] = d0;
      dots[k + 1] = d1;
      dots[k + 2] = d2;
      dots[k + 3] = d3;
    }
    for (; k < held.length; k++) dots[k] = this.dot(at[k] as number, query);
    return held.map((rowid, j) => {
      const position = at[j] as number;
      return { rowid, id: this.ids[position] as string, similarity: this.similarityOf(dots[j] as number, position, queryLength) };
    });
  }

  private dot(position: number, query: Float32Array): number {
    const f = Math.fround;
    const offset = position * this.dimensions;
    let dot = 0;
    // A product of two float32 values is exact in a double; rounding it gives float32's product.
    for (let i = 0; i < query.length; i++) dot = f(dot + f((this.data[offset + i] as number) * (query[i] as number)));
    return dot;
  }

  /** SQL's `1 - vec_distance_cosine` from the float32 dot product; null where SQL's is (a vector of zeros). */
  private similarityOf(dot: number, position: number, queryLength: number): number | null {
    const distance = Math.fround(1 - dot / (Math.sqrt(this.squares[position] as number) * Math.sqrt(queryLength)));
    return Number.isNaN(distance) ? null : 1 - distance;
  }

  private forgetId(id: string, rowid: number): void {
    if (this.rowidsById.get(id) === rowid) this.rowidsById.delete(id);
  }

  private grow(): void {
    const rows = this.data.length / this.dimensions;
    const capacity = rows + Math.max(1024, Math.ceil(rows / 4));
    const data = new Float32Array(capacity * this.dimensions);
    data.set(this.data);
    this.data = data;
    const squares = new Float32Array(capacity);
    squares.set(this.squares);
    this.squares = squares;
  }
}

/**
 * `1 - vec_distance_cosine(vector, query)` as sqlite-vec computes it, for a vector not held:
 * the same bits as `FloatVectors.score` of the same vector; null for a vector of zeros.
 * `queryLength` is `squaredLength(query)`.
 */
export function cosineSimilarity(vector: Float32Array, query: Float32Array, queryLength: number): number | null {
  const f = Math.fround;
  let dot = 0;
  for (let i = 0; i < query.length; i++) dot = f(dot + f((vector[i] as number) * (query[i] as number)));
  const distance = f(1 - dot / (Math.sqrt(squaredLength(vector)) * Math.sqrt(queryLength)));
  return Number.isNaN(distance) ? null : 1 - distance;
}

/** A vector's squared length as sqlite-vec's cosine sums it: in float32, one term at a time. */
export function squaredLength(vector: Float32Array): number {
  const f = Math.fround;
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum = f(sum + f((vector[i] as number) * (vector[i] as number)));
  return sum;
}
