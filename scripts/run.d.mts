import type { SpawnOptions } from 'node:child_process'

/** Runs a command with inherited output; resolves to its exit code. */
export function run(
  command: string,
  args: readonly string[],
  options?: SpawnOptions,
): Promise<number>

/** The absolute path of an installed package's bin script, to run it with this Node. */
export function bin(pkg: string, file: string): string

export function node(
  script: string,
  args?: readonly string[],
  options?: SpawnOptions,
): Promise<number>
