// `npm start`: builds the app and the server when missing or older than their
// sources, then runs the server (built JavaScript, no transpiling at start),
// which serves the app and the API on one origin.
import { spawn } from 'node:child_process'
import { ensureServerBuilt, SERVER_BUNDLE } from './build-server.mjs'
import { ensureBuilt } from './build-state.mjs'

await Promise.all([ensureBuilt(), ensureServerBuilt()])

const server = spawn(process.execPath, [SERVER_BUNDLE], {
  stdio: 'inherit',
})
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)))
