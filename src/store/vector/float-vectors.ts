/**
 * The full float vectors of one tenant, with their memories' ids, held in memory beside its
 * quantized index so that exact re-scores, similarities and the vectors themselves are read
 * without a question to the database (at 100k vectors each read from the file cost several
 * microseconds, most of a search's exact stage). It holds what the database holds, byte for
 * byte, and scores as sqlite-vec's `1 - vec_distance_cosine(stored, query)` does (the dot
 * product and both squared lengths summed in float32, one term at a time, the distance rounded
 * to float32), so a score read here has the same bits as the SQL's: results do not depend on
 * which of the two answered. The owner keeps it current on every write.
 */

export class FloatVectors {
  readonly dimensions: number;
  private data: Float32Array;
  /** Each vector's squared length, summed as sqlite-vec sums it. */
  private squares: Float32Array;
  private ids: string[] = [];
  private rowids: number[] = [];
  private readonly positions = new Map<number, number>();

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
      this.ids[position] = id;
    }
    this.data.set(vector, position * this.dimensions);
    this.squares[position] = squaredLength(vector);
  }

  /** Lets the vector of `rowid` go, if held: the last one takes its place. */
  delete(rowid: number): void {
    const position = this.positions.get(rowid);
    if (position === undefined) return;
    this.positions.delete(rowid);
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
    const f = Math.fround;
    const offset = position * this.dimensions;
    let dot = 0;
    // A product of two float32 values is exact in a double; rounding it gives float32's product.
    for (let i = 0; i < query.length; i++) dot = f(dot + f((this.data[offset + i] as number) * (query[i] as number)));
    const distance = f(1 - dot / (Math.sqrt(this.squares[position] as number) * Math.sqrt(queryLength)));
    return { id: this.ids[position] as string, similarity: Number.isNaN(distance) ? null : 1 - distance };
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

/** A vector's squared length as sqlite-vec's cosine sums it: in float32, one term at a time. */
export function squaredLength(vector: Float32Array): number {
  const f = Math.fround;
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum = f(sum + f((vector[i] as number) * (vector[i] as number)));
  return sum;
}
