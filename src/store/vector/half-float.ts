/**
 * Vectors kept at half precision (IEEE 754 binary16), as the SQLite store keeps them on disk: two
 * bytes a component instead of four, so a 512-d vector's row packs three to a 4 KiB page where a
 * float32 row took a page alone. Every half value is a float32 exactly, so a vector rounded once
 * (`roundToHalf`) is the same whether it is read back from a blob or kept in memory. Why half:
 * docs/decisions/bytes-per-memory.md.
 */

const scratch = new Float32Array(1);
const bits = new Uint32Array(scratch.buffer);

/** Every half value as a float32, by its 16 bits. */
const HALF_TO_FLOAT = buildHalfTable();

/** The half nearest to `value` (ties to even), as its 16 bits; beyond the half range, ±Infinity. */
export function floatToHalfBits(value: number): number {
  scratch[0] = value;
  const x = bits[0] as number;
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  const mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa === 0 ? 0 : 0x200); // Infinity or NaN
  const halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00; // too large: Infinity
  if (halfExponent <= 0) {
    if (halfExponent < -10) return sign; // too small even for a subnormal: zero
    // A subnormal half: the implicit bit made explicit, shifted into place, rounded to even.
    const full = mantissa | 0x800000;
    const shift = 14 - halfExponent;
    const rounded = full >>> shift;
    const rest = full & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    return sign | (rest > half || (rest === half && (rounded & 1) === 1) ? rounded + 1 : rounded);
  }
  const rounded = (halfExponent << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  // A carry out of the mantissa moves the exponent up, which is the right answer (up to Infinity).
  return sign | (rest > 0x1000 || (rest === 0x1000 && (rounded & 1) === 1) ? rounded + 1 : rounded);
}

/** The float32 value of a half's 16 bits. */
export function halfBitsToFloat(half: number): number {
  return HALF_TO_FLOAT[half & 0xffff] as number;
}

/** `vector` with every component rounded to the nearest half: what a half blob gives back. */
export function roundToHalf(vector: Float32Array): Float32Array {
  const out = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = HALF_TO_FLOAT[floatToHalfBits(vector[i] as number)] as number;
  return out;
}

/** `vector` as a little-endian half blob (two bytes a component). */
export function vectorToHalfBlob(vector: Float32Array): Buffer {
  const blob = Buffer.allocUnsafe(vector.length * 2);
  for (let i = 0; i < vector.length; i++) blob.writeUInt16LE(floatToHalfBits(vector[i] as number), i * 2);
  return blob;
}

/** Whether this machine stores numbers little-endian, as the blobs are (every platform Node runs on, nearly). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The vector a half blob holds, as float32 (exactly: every half is a float32). */
export function halfBlobToVector(blob: Uint8Array): Float32Array {
  return decodeHalfBlob(blob, new Float32Array(blob.byteLength >>> 1));
}

/**
 * Whether `blob` holds a half-precision vector of `dimensions`: one that does not (a damaged
 * row, which the doctor reports) is left out by readers rather than decoded short.
 */
export function isHalfBlobOf(blob: Uint8Array, dimensions: number): boolean {
  return blob.byteLength === dimensions * 2;
}

/**
 * Decodes a half blob into `out` (of its length) and returns it: a reader of many vectors that
 * copies what it keeps (the index build) decodes each into one array.
 */
export function decodeHalfBlob(blob: Uint8Array, out: Float32Array): Float32Array {
  if (LITTLE_ENDIAN && blob.byteOffset % 2 === 0) {
    // Read in place, two bytes at a time: the index build decodes every stored vector this way.
    const halves = new Uint16Array(blob.buffer, blob.byteOffset, out.length);
    for (let i = 0; i < out.length; i++) out[i] = HALF_TO_FLOAT[halves[i] as number] as number;
    return out;
  }
  for (let i = 0; i < out.length; i++) {
    out[i] = HALF_TO_FLOAT[(blob[2 * i] as number) | ((blob[2 * i + 1] as number) << 8)] as number;
  }
  return out;
}

/**
 * `1 - vec_distance_cosine(vector, query)` of the vector a half-precision blob holds, as
 * `cosineSimilarity` (float-vectors.ts) computes it over the decoded vector — the same sums, one
 * term at a time in float32, so the same bits — read straight from the blob with nothing
 * allocated: an exact re-score from the file costs one pass over 1 KiB. Null for a vector of zeros.
 */
export function halfBlobSimilarity(blob: Uint8Array, query: Float32Array, queryLength: number): number | null {
  const f = Math.fround;
  let dot = 0;
  let squares = 0;
  const length = Math.min(query.length, blob.byteLength >>> 1);
  if (LITTLE_ENDIAN && blob.byteOffset % 2 === 0) {
    const halves = new Uint16Array(blob.buffer, blob.byteOffset, length);
    for (let i = 0; i < length; i++) {
      const value = HALF_TO_FLOAT[halves[i] as number] as number;
      dot = f(dot + f(value * (query[i] as number)));
      squares = f(squares + f(value * value));
    }
  } else {
    for (let i = 0; i < length; i++) {
      const value = HALF_TO_FLOAT[(blob[2 * i] as number) | ((blob[2 * i + 1] as number) << 8)] as number;
      dot = f(dot + f(value * (query[i] as number)));
      squares = f(squares + f(value * value));
    }
  }
  const distance = f(1 - dot / (Math.sqrt(squares) * Math.sqrt(queryLength)));
  return Number.isNaN(distance) ? null : 1 - distance;
}

function buildHalfTable(): Float32Array {
  const table = new Float32Array(65_536);
  for (let half = 0; half < 65_536; half++) {
    const sign = half & 0x8000 ? -1 : 1;
    const exponent = (half >>> 10) & 0x1f;
    const mantissa = half & 0x3ff;
    table[half] =
      exponent === 0
        ? sign * mantissa * 2 ** -24
        : exponent === 0x1f
          ? mantissa === 0
            ? sign * Infinity
            : NaN
          : sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
  }
  return table;
}
