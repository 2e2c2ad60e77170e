import { openDB } from 'idb'
import type { Tokens } from './token-vault.ts'

/** Another context's write to the vault whose announcement has not arrived (or never will). */
export async function writeUnannounced(tokens: Tokens): Promise<void> {
  const db = await openDB('auth', 1)
  await db.put('vault', tokens, 'tokens')
  db.close()
}
