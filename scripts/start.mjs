// `npm start`: builds the app when dist/ is missing or older than its sources,
// then runs the server, which serves the app and the API on one origin.
import { spawn } from 'node:child_process'
import { ensureBuilt } from './build-state.mjs'

await ensureBuilt()

const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)))
