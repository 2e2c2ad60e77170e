import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/** What is worth compressing: text. Images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/
/** Below this a file fits a packet or two either way. */
const MIN_BYTES = 512

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* files(path)
    else yield path
  }
}

/**
 * Writes `x.br` (brotli, best quality) and `x.gz` (gzip level 9) beside every
 * text file of `dir`, each only when it is smaller than the file: the server
 * sends them as they are (server/infra/web.ts), so no request pays for
 * compressing. zlib's async calls run on the thread pool, several at once.
 * Resolves to how many files were compressed.
 */
export async function precompress(dir) {
  const jobs = []
  for await (const path of files(dir)) {
    if (!COMPRESSIBLE.test(path)) continue
    jobs.push(
      (async () => {
        const source = await readFile(path)
        if (source.length < MIN_BYTES) return 0
        const [br, gz] = await Promise.all([
          brotli(source, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
          gzipAsync(source, { level: 9 }),
        ])
        if (br.length < source.length) await writeFile(`${path}.br`, br)
        if (gz.length < source.length) await writeFile(`${path}.gz`, gz)
        return 1
      })(),
    )
  }
  return (await Promise.all(jobs)).reduce((sum, done) => sum + done, 0)
}
