// `npm run dev`: the API server on :8081 (restarting on change) and Vite on
// :8080 with hot reload, proxying /api to the server. No service worker in
// dev: the page-side auth proxy does its job.
import { spawn } from 'node:child_process'
import { bin } from './run.mjs'

const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'server/main.ts'], {
    stdio: 'inherit',
    // Passkeys are made on the page's origin (Vite's), not the API's.
    env: {
      ...process.env,
      PORT: process.env.API_PORT ?? '8081',
      WEBAUTHN_ORIGINS: process.env.WEBAUTHN_ORIGINS ?? 'http://localhost:8080',
    },
  }),
  spawn(process.execPath, [bin('vite', 'bin/vite.js')], { stdio: 'inherit' }),
]
const stop = () => {
  for (const child of children) child.kill('SIGTERM')
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop)
for (const child of children) child.on('exit', () => stop())
