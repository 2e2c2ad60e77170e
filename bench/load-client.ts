import http from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { TENANT } from './lib.ts'

/** Kept-alive sockets for the load loops (one per client at most, as a browser keeps one). */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 })

/**
 * One request of a load loop, on node:http: fetch (undici's WHATWG layer)
 * spent about 2 ms of CPU an order on this machine — a quarter of the two
 * cores taken from the server it measures, where pgbench's client is C. It
 * asks for compressed answers as a browser does, so the server compresses as
 * in use, and reads them as a browser would. Throws on anything but `expect`.
 */
export function send(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
  expect: number,
): Promise<Buffer> {
  const payload = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${base}${path}`,
      {
        method,
        agent,
        headers: {
          ...TENANT,
          ...headers,
          'accept-encoding': 'br, gzip',
          ...(payload !== undefined && {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(payload)),
          }),
        },
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          const raw = Buffer.concat(chunks)
          const encoding = response.headers['content-encoding']
          const answer =
            encoding === 'br'
              ? brotliDecompressSync(raw)
              : encoding === 'gzip'
                ? gunzipSync(raw)
                : raw
          if (response.statusCode !== expect) {
            reject(new Error(`${method} ${path} answered ${response.statusCode}: ${answer}`))
          } else resolve(answer)
        })
      },
    )
    request.on('error', reject)
    request.end(payload)
  })
}
