import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { bearer, createTestApp, describeServer, headers, signUp } from '../test-support.ts'

const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(400))}\n`
const HTML = `<!doctype html><title>app</title>${'<p>shell</p>'.repeat(200)}`

/** A built app as `vite build` leaves it: hashed assets with .br and .gz beside them, maps, the shell. */
function fakeDist(): string {
  const dist = mkdtempSync(join(tmpdir(), 'web-dist-'))
  mkdirSync(join(dist, 'assets'))
  const write = (file: string, content: string, encoded = true) => {
    writeFileSync(join(dist, file), content)
    if (!encoded) return
    writeFileSync(join(dist, `${file}.br`), brotliCompressSync(content))
    writeFileSync(join(dist, `${file}.gz`), gzipSync(content))
  }
  write('index.html', HTML)
  write('sw.js', SCRIPT)
  write('manifest.webmanifest', JSON.stringify({ name: 'app', icons: [] }).padEnd(2000))
  write('assets/index-Bx12abCD.js', SCRIPT)
  write('assets/card-secrets.worker-Cd34efGH.js', SCRIPT)
  write('assets/index-Bx12abCD.js.map', '{"version":3,"sources":["src/secret.ts"]}', false)
  write('sw.js.map', '{"version":3}', false)
  return dist
}

describeServer('the built app: precompressed, cached by kind, no source maps', () => {
  let app: FastifyInstance
  let dist: string
  beforeAll(async () => {
    dist = fakeDist()
    app = await createTestApp({ DIST_DIR: dist })
  })
  afterAll(async () => {
    await app?.close()
    rmSync(dist, { recursive: true, force: true })
  })

  const get = (url: string, extra: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: extra })

  it('a hashed asset asked for with br is the brotli file, cached for a year as immutable', async () => {
    const response = await get('/assets/index-Bx12abCD.js', { 'accept-encoding': 'gzip, br' })

    expect(response.statusCode).toBe(200)
    expect(response.headers['content-encoding']).toBe('br')
    expect(response.headers['content-type']).toMatch(/javascript/)
    expect(response.headers.vary).toMatch(/accept-encoding/i)
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT)
  })

  it('gzip when brotli is not accepted, and the plain file when nothing is', async () => {
    const gzipped = await get('/assets/index-Bx12abCD.js', { 'accept-encoding': 'gzip' })
    expect(gzipped.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(SCRIPT)

    const plain = await get('/assets/index-Bx12abCD.js', { 'accept-encoding': 'identity' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(SCRIPT)
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable')
  })

  it('index.html, sw.js and the manifest are revalidated on every load, compressed too', async () => {
    for (const url of ['/', '/index.html', '/sw.js', '/manifest.webmanifest', '/wallets/x']) {
      const response = await get(url, { accept: 'text/html', 'accept-encoding': 'br' })
      expect(response.statusCode, url).toBe(200)
      expect(response.headers['cache-control'], url).toBe('no-cache')
      expect(response.headers['content-encoding'], url).toBe('br')
    }
    const worker = await get('/sw.js', { 'accept-encoding': 'br' })
    expect(worker.headers['service-worker-allowed']).toBe('/')
  })

  it('a page and a worker’s script carry the app’s policy; a script, a style or the manifest only what a resource needs', async () => {
    const documents = ['/', '/wallets/x', '/sw.js', '/assets/card-secrets.worker-Cd34efGH.js']
    for (const url of documents) {
      const response = await get(url, { accept: 'text/html', 'accept-encoding': 'br' })
      expect(String(response.headers['content-security-policy']), url).toMatch(
        /(^|;)\s*script-src 'self'(;|$)/,
      )
      expect(response.headers['cross-origin-opener-policy'], url).toBe('same-origin')
      expect(response.headers['strict-transport-security'], url).toMatch(/max-age=31536000/)
    }
    for (const url of ['/assets/index-Bx12abCD.js', '/manifest.webmanifest']) {
      const response = await get(url, { 'accept-encoding': 'br' })
      expect(response.statusCode, url).toBe(200)
      expect(response.headers['content-security-policy'], url).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      )
      expect(response.headers['x-content-type-options'], url).toBe('nosniff')
      expect(response.headers['cross-origin-resource-policy'], url).toBe('same-origin')
      expect(response.headers['cross-origin-opener-policy'], url).toBeUndefined()
      expect(response.headers['x-dns-prefetch-control'], url).toBeUndefined()
    }
  })

  it('a hashed asset carries no validator (it is never revalidated); the shell keeps one and answers 304', async () => {
    const asset = await get('/assets/index-Bx12abCD.js', { 'accept-encoding': 'br' })
    expect(asset.headers.etag).toBeUndefined()
    expect(asset.headers['last-modified']).toBeUndefined()
    expect(asset.headers['accept-ranges']).toBeUndefined()

    const shell = await get('/', { accept: 'text/html', 'accept-encoding': 'br' })
    expect(shell.headers.etag).toEqual(expect.any(String))
    const again = await get('/', {
      accept: 'text/html',
      'accept-encoding': 'br',
      'if-none-match': String(shell.headers.etag),
    })
    expect(again.statusCode).toBe(304)
  })

  it('source maps are not served, however they are asked for', async () => {
    for (const url of [
      '/assets/index-Bx12abCD.js.map',
      '/sw.js.map',
      '/assets/../assets/index-Bx12abCD.js.map',
    ]) {
      for (const encoding of ['br', 'identity']) {
        const response = await get(url, { 'accept-encoding': encoding })
        expect(response.statusCode, `${url} ${encoding}`).toBe(404)
        expect(response.body).not.toContain('secret.ts')
      }
    }
  })

  it('API answers above 1 KB are compressed, smaller ones are not', async () => {
    const pair = await signUp(app)
    const auth = headers({ ...bearer(pair.access_token), 'accept-encoding': 'br, gzip' })

    const small = await app.inject({ method: 'GET', url: '/api/v2/user', headers: auth })
    expect(small.statusCode).toBe(200)
    expect(small.rawPayload.length).toBeLessThan(1024)
    expect(small.headers['content-encoding']).toBeUndefined()

    const large = await app.inject({ method: 'GET', url: '/api/v2/currencies', headers: auth })
    expect(large.statusCode).toBe(200)
    expect(large.headers['content-encoding']).toBe('br')
    const body = brotliDecompressSync(large.rawPayload)
    expect(body.length).toBeGreaterThan(1024)
    expect(large.rawPayload.length).toBeLessThan(body.length)
    expect(JSON.parse(body.toString())).toHaveProperty('data')
  })
})
