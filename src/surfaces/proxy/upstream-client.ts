/**
 * Requests to the upstream over Node's own HTTP client, with connections kept alive between
 * requests: a step through the proxy then costs one loopback round trip more than going
 * straight to the upstream, and little else (fetch added about half a millisecond a request).
 * A compressed answer is decompressed, as the proxy reads every answer's step; an encoding it
 * does not know is relayed as it came, with its header.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';

/** The upstream's answer: status, headers and the body as it arrives. */
export interface UpstreamAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Readable;
}

export interface UpstreamRequest {
  method: string;
  headers: OutgoingHttpHeaders;
  body: Buffer | null;
  /** Aborts the request, and the answer's body while it is being read. */
  signal: AbortSignal;
}

export class UpstreamClient {
  private readonly secure: boolean;
  private readonly agent: http.Agent;

  constructor(base: URL) {
    this.secure = base.protocol === 'https:';
    this.agent = this.secure ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  }

  /** Sends the request; resolves with the answer once its status and headers have come. */
  request(url: string, request: UpstreamRequest): Promise<UpstreamAnswer> {
    const { method, body, signal } = request;
    const headers = body === null ? request.headers : { ...request.headers, 'content-length': body.length };
    const send = this.secure ? https.request : http.request;
    return new Promise((resolve, reject) => {
      const outgoing = send(url, { method, headers, agent: this.agent, signal }, (answer) => resolve(decoded(answer)));
      outgoing.on('error', reject);
      outgoing.end(body ?? undefined);
    });
  }

  /** Closes the connections kept alive. */
  close(): void {
    this.agent.destroy();
  }
}

/** Decompressors for the encodings an upstream may use. */
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  deflate: () => zlib.createInflate(),
  br: () => zlib.createBrotliDecompress(),
};

function decoded(answer: IncomingMessage): UpstreamAnswer {
  const status = answer.statusCode ?? 502;
  const encoding = answer.headers['content-encoding']?.trim().toLowerCase();
  const decoder = encoding === undefined ? undefined : DECODERS[encoding];
  if (decoder === undefined) return { status, headers: answer.headers, body: answer };
  const { 'content-encoding': _, 'content-length': __, ...headers } = answer.headers;
  const body = decoder();
  answer.on('error', (error) => body.emit('error', error));
  return { status, headers, body: answer.pipe(body) as unknown as Readable };
}
