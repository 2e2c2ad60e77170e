import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { keyIdOf } from '../../../contract/balance-proof.ts'
import { mockApi, problem, type Route } from '../../../tests/support/mock-api.ts'
import {
  newKeyPair,
  PROOF_TENANT,
  proofKeyOf,
  signedProof,
} from '../../../tests/support/proof-fixtures.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { openPinnedKeys } from '../../storage/pinned-keys.ts'
import ProofsPage from './proofs-page.tsx'

/** Each test's device: its own store of pinned keys, which the worker stand-in opens. */
const device = vi.hoisted(() => ({ pins: 'pinned-keys-0' }))

// The worker's own module, run on this thread: happy-dom has no Worker.
vi.mock('../../workers/proof-verify-client.ts', async () => {
  const { createProofVerifier } = await import('../../workers/proof-verify.ts')
  const { openPinnedKeys: open } = await import('../../storage/pinned-keys.ts')
  return {
    openProofVerifier: () => ({ ...createProofVerifier(open(device.pins)), close() {} }),
  }
})

const first = newKeyPair()
const second = newKeyPair()
const KEY_URL = `GET /api/proofs/${PROOF_TENANT}/key`

function renderProofs(routes: Record<string, Route>, language: 'en' | 'ru' = 'en') {
  const api = mockApi(routes)
  return { api, ...renderApp(<ProofsPage />, { path: '/profile/proofs', language }) }
}

beforeEach(() => {
  device.pins = `pinned-keys-${crypto.randomUUID()}`
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('proof of balances', () => {
  it('says in people’s words that the balances are included, and pins the key', async () => {
    renderProofs({
      'GET /proofs/latest/mine': { body: signedProof(first) },
      [KEY_URL]: { body: proofKeyOf(first) },
    })
    expect(await screen.findByTestId('proof-verdict')).toHaveTextContent(
      'Your €1,948.00 and 0.01275277 BTC are included in the proof of Nov 29 (verified on this device)',
    )
    const checks = screen.getByRole('list', { name: 'What this device checked' })
    expect(within(checks).getAllByText(/— passed$/)).toHaveLength(4)
    const fingerprint = keyIdOf(first.publicKey).replace(/(.{4})(?=.)/g, '$1 ')
    expect(screen.getByTestId('proof-fingerprint')).toHaveTextContent(fingerprint)
    expect(screen.getByText('This device trusts it from this check on')).toBeInTheDocument()
    expect(await openPinnedKeys(device.pins).get(PROOF_TENANT)).toMatchObject({
      keyId: keyIdOf(first.publicKey),
    })
    expect(screen.getByText('Personal wallet')).toBeInTheDocument()
  })

  it('in Russian, with the app’s money formatter', async () => {
    renderProofs(
      {
        'GET /proofs/latest/mine': { body: signedProof(first) },
        [KEY_URL]: { body: proofKeyOf(first) },
      },
      'ru',
    )
    expect(await screen.findByTestId('proof-verdict')).toHaveTextContent(
      /^Ваши 1\s948,00\s€ и 0,01275277\sBTC учтены в подтверждении от 29 нояб\. \(проверено на этом устройстве\)$/,
    )
  })

  it('names the check that failed: a tampered leaf', async () => {
    const proof = signedProof(first)
    renderProofs({
      'GET /proofs/latest/mine': {
        body: { ...proof, leaf: { ...proof.leaf, sums: 'BTC:1275277,EUR:994800' } },
      },
      [KEY_URL]: { body: proofKeyOf(first) },
    })
    expect(await screen.findByText('The proof of Nov 29 did not check out')).toBeInTheDocument()
    expect(
      screen.getByText(
        'Your balances and their path do not lead to the published total: something in them was changed.',
      ),
    ).toBeInTheDocument()
    const checks = screen.getByRole('list', { name: 'What this device checked' })
    expect(within(checks).getByText(/— failed$/).parentElement).toHaveTextContent(
      'Your balances have their place in the tree',
    )
    expect(await openPinnedKeys(device.pins).get(PROOF_TENANT)).toBeUndefined()
  })

  it('refuses a changed key until the person trusts it', async () => {
    await openPinnedKeys(device.pins).pin(PROOF_TENANT, keyIdOf(first.publicKey))
    const { user } = renderProofs({
      'GET /proofs/latest/mine': { body: signedProof(second) },
      [KEY_URL]: { body: proofKeyOf(second) },
    })
    expect(
      await screen.findByText('The signing key is not the one this device trusted before.'),
    ).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'The signing key changed' })).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Trust the new key' }))
    const dialog = await screen.findByRole('dialog', { name: 'Trust the new key?' })
    await user.click(within(dialog).getByRole('button', { name: 'Trust the new key' }))
    expect(await screen.findByTestId('proof-verdict')).toHaveTextContent(/are included/)
    expect(await openPinnedKeys(device.pins).get(PROOF_TENANT)).toMatchObject({
      keyId: keyIdOf(second.publicKey),
    })
  })

  it('before the first proof, says when there will be one', async () => {
    renderProofs({
      'GET /proofs/latest/mine': problem(404, 'PROOF_NOT_PUBLISHED'),
      [KEY_URL]: { body: proofKeyOf(first) },
    })
    expect(
      await screen.findByRole('heading', { name: 'No proof has been published yet' }),
    ).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Check again' })).toBeInTheDocument()
  })
})
