// `npm start`: builds the app when dist/ is missing or older than its sources,
// then runs the server, which serves the app and the API on one origin.
import { spawn } from 'node:child_process'
import { distIsStale } from './build-state.mjs'
import { bin, node } from './run.mjs'

if (distIsStale()) {
  console.log('Building the app (dist/ is missing or older than its sources)…')
  const code = await node(bin('vite', 'bin/vite.js'), ['build', '--logLevel', 'warn'])
  if (code !== 0) process.exit(code)
}

const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal))
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)))
