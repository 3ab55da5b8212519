/**
 * The vector index's SIMD kernels (vector-kernels.wat) over a memory of their own: each index
 * keeps its prefixes and signed bytes in one WebAssembly memory, laid out here, and calls the
 * kernels with offsets into it. The module is compiled once per process; an index's memory is
 * moved to a larger one as the index grows.
 */
import { VECTOR_KERNELS_WASM } from './vector-kernels-wasm.js';

/** Bytes of a code's first words that the first stage compares (128 bits). */
export const PREFIX_BYTES = 16;
const PAGE = 65_536;
/** Distances run from 0 to 255. */
const HISTOGRAM_BYTES = 256 * 4;

interface Exports {
  prefixDistances(
    prefixes: number,
    count: number,
    distances: number,
    histogram: number,
    q0: number,
    q1: number,
    q2: number,
    q3: number,
    rowids: number,
    bits: number,
    bitsLength: number,
  ): void;
  int8Dots(bytes: number, stride: number, query: number, positions: number, k: number, out: number): void;
  signCodes(bytes: number, stride: number, first: number, count: number, out: number, codeBytes: number): void;
}

/** The part of the WebAssembly API used here (Node has it; the compiler's ES libraries do not describe it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: object | null = null;

/**
 * Where each region starts, for `capacity` vectors of `stride` bytes, room for `scratch`
 * candidates and a filter of `bitsLength` bytes (the last two at the end, where they can grow
 * without moving the vectors).
 */
interface Layout {
  capacity: number;
  scratch: number;
  bitsLength: number;
  histogram: number;
  query: number;
  prefixes: number;
  bytes: number;
  rowids: number;
  distances: number;
  positions: number;
  out: number;
  bits: number;
  size: number;
}

function layout(capacity: number, stride: number, scratch: number, bitsLength: number): Layout {
  const query = HISTOGRAM_BYTES;
  const prefixes = align(query + stride);
  const bytes = prefixes + capacity * PREFIX_BYTES;
  const rowids = bytes + capacity * stride;
  const distances = rowids + capacity * 4;
  const positions = align(distances + capacity);
  const out = positions + scratch * 4;
  const bits = out + scratch * 4;
  const size = bits + bitsLength;
  return { capacity, scratch, bitsLength, histogram: 0, query, prefixes, bytes, rowids, distances, positions, out, bits, size };
}

const align = (offset: number) => Math.ceil(offset / 16) * 16;

/** The prefixes, signed bytes and rowids of up to `capacity` vectors, with the kernels that read them. */
export class KernelMemory {
  /** Bytes per vector: its dimensions, rounded up to whole 16-byte lanes (the rest stays 0). */
  readonly stride: number;
  private at: Layout;
  private memory: WasmMemory;
  private kernels: Exports;
  /** Views over the memory, made anew whenever it moves or grows. */
  prefixes!: Uint32Array;
  bytes!: Int8Array;
  rowids!: Int32Array;
  query!: Int8Array;
  private distances!: Uint8Array;
  private histogram!: Uint32Array;
  private positions!: Int32Array;
  private out!: Int32Array;
  private bits!: Uint8Array;
  /** The filter whose bits are in the memory now, and its version then. */
  private loaded: { filter: object; version: number } | null = null;

  constructor(dimensions: number, capacity: number) {
    this.stride = align(dimensions);
    this.at = layout(capacity, this.stride, 1024, 0);
    this.memory = new wasm.Memory({ initial: Math.ceil(this.at.size / PAGE) });
    this.kernels = instantiate(this.memory);
    this.view();
  }

  get capacity(): number {
    return this.at.capacity;
  }

  /** Moves everything to a memory with room for `capacity` vectors; the first `count` are kept. */
  grow(capacity: number, count: number): void {
    const old = { prefixes: this.prefixes, bytes: this.bytes, rowids: this.rowids };
    this.at = layout(capacity, this.stride, this.at.scratch, 0);
    this.memory = new wasm.Memory({ initial: Math.ceil(this.at.size / PAGE) });
    this.kernels = instantiate(this.memory);
    this.loaded = null;
    this.view();
    this.prefixes.set(old.prefixes.subarray(0, (count * PREFIX_BYTES) / 4));
    this.bytes.set(old.bytes.subarray(0, count * this.stride));
    this.rowids.set(old.rowids.subarray(0, count));
  }

  /**
   * The Hamming distance of each of the first `count` prefixes to `query`'s first four words,
   * and their histogram (entry d counts the distances equal to d); with a filter, those whose
   * rowid it refuses get 255. Both are views into the memory, valid until the next call.
   */
  prefixDistances(
    count: number,
    query: Uint32Array,
    filter: { bits: Uint8Array; version: number } | null,
  ): { distances: Uint8Array; histogram: Uint32Array } {
    if (filter !== null) this.load(filter);
    this.histogram.fill(0);
    const { prefixes, distances, histogram, rowids, bits } = this.at;
    const [q0 = 0, q1 = 0, q2 = 0, q3 = 0] = query;
    const bitsLength = filter === null ? 0 : filter.bits.length;
    this.kernels.prefixDistances(prefixes, count, distances, histogram, q0, q1, q2, q3, rowids, bits, bitsLength);
    return { distances: this.distances.subarray(0, count), histogram: this.histogram };
  }

  /** The dot product of the signed bytes in `query` with those of the vector at each position. */
  int8Dots(positions: Int32Array): Int32Array {
    if (positions.length > this.at.scratch) this.makeScratch(positions.length);
    this.positions.set(positions);
    this.kernels.int8Dots(this.at.bytes, this.stride, this.at.query, this.at.positions, positions.length, this.at.out);
    return this.out.subarray(0, positions.length);
  }

  /**
   * Writes the binary codes of the vectors at positions `first` to `first + count - 1`, `words`
   * words each, into `into` from word `at`: bit i set when signed byte i is positive. Computed a
   * scratch's worth at a time, so the memory never grows for them.
   */
  writeSignCodes(first: number, count: number, words: number, into: Uint32Array, at: number): void {
    if (words > this.at.scratch) this.makeScratch(words);
    const batch = Math.floor(this.at.scratch / words);
    for (let done = 0; done < count; done += batch) {
      const taken = Math.min(batch, count - done);
      this.kernels.signCodes(this.at.bytes, this.stride, first + done, taken, this.at.out, words * 4);
      into.set(new Uint32Array(this.memory.buffer, this.at.out, taken * words), at + done * words);
    }
  }

  /** A filter's bits into the memory, unless they are there already. */
  private load(filter: { bits: Uint8Array; version: number }): void {
    if (this.loaded?.filter === filter && this.loaded.version === filter.version) return;
    if (filter.bits.length > this.at.bitsLength) this.resize(this.at.scratch, filter.bits.length);
    this.bits.set(filter.bits);
    this.loaded = { filter, version: filter.version };
  }

  /** Room for `scratch` candidates at the end of the memory (the vectors stay where they are). */
  private makeScratch(scratch: number): void {
    this.resize(Math.max(scratch, this.at.scratch * 2), this.at.bitsLength);
  }

  /** Moves the end of the memory (candidates and filter); what was there is dropped. */
  private resize(scratch: number, bitsLength: number): void {
    this.at = layout(this.at.capacity, this.stride, scratch, bitsLength);
    const pages = Math.ceil(this.at.size / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (pages > 0) this.memory.grow(pages);
    this.loaded = null;
    this.view();
  }

  private view(): void {
    const { buffer } = this.memory;
    const at = this.at;
    this.histogram = new Uint32Array(buffer, at.histogram, 256);
    this.query = new Int8Array(buffer, at.query, this.stride);
    this.prefixes = new Uint32Array(buffer, at.prefixes, (at.capacity * PREFIX_BYTES) / 4);
    this.bytes = new Int8Array(buffer, at.bytes, at.capacity * this.stride);
    this.rowids = new Int32Array(buffer, at.rowids, at.capacity);
    this.distances = new Uint8Array(buffer, at.distances, at.capacity);
    this.positions = new Int32Array(buffer, at.positions, at.scratch);
    this.out = new Int32Array(buffer, at.out, at.scratch);
    this.bits = new Uint8Array(buffer, at.bits, at.bitsLength);
  }
}

function instantiate(memory: WasmMemory): Exports {
  compiled ??= new wasm.Module(Buffer.from(VECTOR_KERNELS_WASM, 'base64'));
  return new wasm.Instance(compiled, { env: { memory } }).exports as Exports;
}
