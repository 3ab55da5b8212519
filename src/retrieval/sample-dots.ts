/**
 * The vectors of a calibration sample's members side by side in a WebAssembly memory of their
 * own, scored against a query by the kernel of sample-dots.wat: two products at a time where
 * JavaScript takes one, summed in the same order, so every dot product is the double that
 * store-calibration.ts's `dot` returns for the same pair. Scoring each query against the sample
 * was the largest part of per-store calibration's cost on every search.
 */
import { SAMPLE_DOTS_WASM } from './sample-dots-wasm.js';

const PAGE = 65_536;

type SampleDotsKernel = (vectors: number, count: number, stride: number, n: number, query: number, out: number) => void;

/** The part of the WebAssembly API used here (Node has it; the compiler's ES libraries do not describe it). */
interface WasmApi {
  Memory: new (descriptor: { initial: number }) => { readonly buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: object | null = null;

export class SampleVectors {
  /** Values per vector. */
  readonly dimensions: number;
  readonly count: number;
  /** The vectors, one after another; a member without one keeps zeros in its place. */
  readonly vectors: Float32Array;
  private readonly query: Float32Array;
  private readonly out: Float64Array;
  private readonly kernel: SampleDotsKernel;

  constructor(dimensions: number, count: number) {
    this.dimensions = dimensions;
    this.count = count;
    const query = align(count * dimensions * 4);
    const out = align(query + dimensions * 4);
    const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil((out + count * 8) / PAGE)) });
    compiled ??= new wasm.Module(Buffer.from(SAMPLE_DOTS_WASM, 'base64'));
    this.kernel = (new wasm.Instance(compiled, { env: { memory } }).exports as { sampleDots: SampleDotsKernel }).sampleDots;
    this.vectors = new Float32Array(memory.buffer, 0, count * dimensions);
    this.query = new Float32Array(memory.buffer, query, dimensions);
    this.out = new Float64Array(memory.buffer, out, count);
  }

  /**
   * The dot product of `query` with each vector, over the shorter of the two lengths, in order;
   * a view that the next call overwrites.
   */
  dots(query: Float32Array): Float64Array {
    const n = Math.min(query.length, this.dimensions);
    this.query.set(query.subarray(0, n));
    this.kernel(this.vectors.byteOffset, this.count, this.dimensions, n, this.query.byteOffset, this.out.byteOffset);
    return this.out;
  }
}

function align(offset: number): number {
  return Math.ceil(offset / 16) * 16;
}
