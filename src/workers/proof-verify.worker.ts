import { expose } from 'comlink'
import { openPinnedKeys } from '../storage/pinned-keys.ts'
import { createProofVerifier } from './proof-verify.ts'

/**
 * The proof-of-balances worker: hashing a path and checking an Ed25519
 * signature off the main thread, with the pinned keys in IndexedDB. It makes
 * no request at all: it checks what the page hands it, offline too.
 */
const api = createProofVerifier(openPinnedKeys())

export type ProofVerifyApi = typeof api

expose(api)
