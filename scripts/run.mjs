import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

/** Runs a command with inherited output; resolves to its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options })
    child.on('error', reject)
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

/** The absolute path of an installed package's bin script, to run it with this Node. */
export function bin(pkg, file) {
  // Through package.json: `exports` maps often hide the bin files themselves.
  return join(dirname(require.resolve(`${pkg}/package.json`)), file)
}

export const node = (script, args = [], options = {}) =>
  run(process.execPath, [script, ...args], options)
