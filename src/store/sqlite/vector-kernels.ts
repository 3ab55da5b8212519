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
  ): void;
  int8Dots(bytes: number, stride: number, query: number, positions: number, k: number, out: number): void;
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

/** Where each region starts, for `capacity` vectors of `stride` bytes and room for `scratch` candidates. */
interface Layout {
  capacity: number;
  scratch: number;
  histogram: number;
  query: number;
  prefixes: number;
  bytes: number;
  distances: number;
  positions: number;
  out: number;
  size: number;
}

function layout(capacity: number, stride: number, scratch: number): Layout {
  const query = HISTOGRAM_BYTES;
  const prefixes = align(query + stride);
  const bytes = prefixes + capacity * PREFIX_BYTES;
  const distances = bytes + capacity * stride;
  const positions = align(distances + capacity);
  const out = positions + scratch * 4;
  return { capacity, scratch, histogram: 0, query, prefixes, bytes, distances, positions, out, size: out + scratch * 4 };
}

const align = (offset: number) => Math.ceil(offset / 16) * 16;

/** The prefixes and signed bytes of up to `capacity` vectors, with the kernels that read them. */
export class KernelMemory {
  /** Bytes per vector: its dimensions, rounded up to whole 16-byte lanes (the rest stays 0). */
  readonly stride: number;
  private at: Layout;
  private memory: WasmMemory;
  private kernels: Exports;
  /** Views over the memory, made anew whenever it moves or grows. */
  prefixes!: Uint32Array;
  bytes!: Int8Array;
  query!: Int8Array;
  private distances!: Uint8Array;
  private histogram!: Uint32Array;
  private positions!: Int32Array;
  private out!: Int32Array;

  constructor(dimensions: number, capacity: number) {
    this.stride = align(dimensions);
    this.at = layout(capacity, this.stride, 1024);
    this.memory = new wasm.Memory({ initial: Math.ceil(this.at.size / PAGE) });
    this.kernels = instantiate(this.memory);
    this.view();
  }

  get capacity(): number {
    return this.at.capacity;
  }

  /** Moves everything to a memory with room for `capacity` vectors; the first `count` are kept. */
  grow(capacity: number, count: number): void {
    const old = { prefixes: this.prefixes, bytes: this.bytes };
    this.at = layout(capacity, this.stride, this.at.scratch);
    this.memory = new wasm.Memory({ initial: Math.ceil(this.at.size / PAGE) });
    this.kernels = instantiate(this.memory);
    this.view();
    this.prefixes.set(old.prefixes.subarray(0, (count * PREFIX_BYTES) / 4));
    this.bytes.set(old.bytes.subarray(0, count * this.stride));
  }

  /**
   * The Hamming distance of each of the first `count` prefixes to `query`'s first four words,
   * and their histogram (entry d counts the distances equal to d). Both are views into the
   * memory, valid until the next call.
   */
  prefixDistances(count: number, query: Uint32Array): { distances: Uint8Array; histogram: Uint32Array } {
    this.histogram.fill(0);
    const { prefixes, distances, histogram } = this.at;
    this.kernels.prefixDistances(
      prefixes,
      count,
      distances,
      histogram,
      query[0] ?? 0,
      query[1] ?? 0,
      query[2] ?? 0,
      query[3] ?? 0,
    );
    return { distances: this.distances.subarray(0, count), histogram: this.histogram };
  }

  /** The dot product of the signed bytes in `query` with those of the vector at each position. */
  int8Dots(positions: Int32Array): Int32Array {
    if (positions.length > this.at.scratch) this.makeScratch(positions.length);
    this.positions.set(positions);
    this.kernels.int8Dots(this.at.bytes, this.stride, this.at.query, this.at.positions, positions.length, this.at.out);
    return this.out.subarray(0, positions.length);
  }

  /** Room for `scratch` candidates at the end of the memory (the vectors stay where they are). */
  private makeScratch(scratch: number): void {
    const capacity = this.at.capacity;
    this.at = layout(capacity, this.stride, Math.max(scratch, this.at.scratch * 2));
    const pages = Math.ceil(this.at.size / PAGE) - this.memory.buffer.byteLength / PAGE;
    if (pages > 0) this.memory.grow(pages);
    this.view();
  }

  private view(): void {
    const { buffer } = this.memory;
    const at = this.at;
    this.histogram = new Uint32Array(buffer, at.histogram, 256);
    this.query = new Int8Array(buffer, at.query, this.stride);
    this.prefixes = new Uint32Array(buffer, at.prefixes, (at.capacity * PREFIX_BYTES) / 4);
    this.bytes = new Int8Array(buffer, at.bytes, at.capacity * this.stride);
    this.distances = new Uint8Array(buffer, at.distances, at.capacity);
    this.positions = new Int32Array(buffer, at.positions, at.scratch);
    this.out = new Int32Array(buffer, at.out, at.scratch);
  }
}

function instantiate(memory: WasmMemory): Exports {
  compiled ??= new wasm.Module(Buffer.from(VECTOR_KERNELS_WASM, 'base64'));
  return new wasm.Instance(compiled, { env: { memory } }).exports as Exports;
}
