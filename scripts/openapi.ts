// `npm run openapi [-- FILE]`: writes the API's OpenAPI document, as GET /api/openapi.json
// serves it, to FILE (default: stdout). The app is built on a throwaway in-memory database
// with the sandbox on, so every route a deployment can have is in the document.
// `npm test` lints what this writes with Redocly CLI (scripts/test.mjs).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp } from '../server/app.ts'
import { loadConfig } from '../server/config.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'openapi-'))
try {
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      DIST_DIR: join(dataDir, 'no-dist'),
      DATABASE_URL: 'memory://',
      SANDBOX: 'true',
      LOG_LEVEL: 'silent',
      DEMO_SEED: 'false',
      JOBS_POLL_MS: '0',
    }),
  )
  try {
    const response = await app.inject({ method: 'GET', url: '/api/openapi.json' })
    if (response.statusCode !== 200) {
      throw new Error(`GET /api/openapi.json answered ${response.statusCode}: ${response.body}`)
    }
    const document = `${JSON.stringify(response.json(), null, 2)}\n`
    const file = process.argv[2]
    if (file) writeFileSync(file, document)
    else process.stdout.write(document)
  } finally {
    await app.close()
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
