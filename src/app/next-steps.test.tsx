import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { aBalance, aPage, aUser, aWallet } from '../../tests/support/builders.ts'
import { mockApi } from '../../tests/support/mock-api.ts'
import { renderApp } from '../../tests/support/render-app.tsx'
import { NextSteps, nextSteps, type Progress } from './next-steps.tsx'

const fresh: Progress = {
  kyc: 'UNVERIFIED',
  funded: false,
  carded: false,
  wallet: 'w1',
  offersCards: true,
}

describe('the next steps of a new person', () => {
  it('are verify, add money, get a card — in that order, each a link to its flow', () => {
    expect(nextSteps(fresh)).toEqual([
      { key: 'verify', to: '/verify', waiting: false },
      { key: 'addMoney', to: '/deposit?wallet=w1' },
      { key: 'getCard', to: '/cards/new?wallet=w1' },
    ])
  })

  it('each goes once done, and all go once everything is done', () => {
    expect(nextSteps({ ...fresh, kyc: 'APPROVED' }).map((s) => s.key)).toEqual([
      'addMoney',
      'getCard',
    ])
    expect(nextSteps({ ...fresh, funded: true }).map((s) => s.key)).toEqual(['verify', 'getCard'])
    expect(nextSteps({ ...fresh, carded: true }).map((s) => s.key)).toEqual(['verify', 'addMoney'])
    expect(nextSteps({ ...fresh, kyc: 'APPROVED', funded: true, carded: true })).toEqual([])
  })

  it('says a verification being checked is waiting, and leaves out what is not known yet', () => {
    expect(nextSteps({ ...fresh, kyc: 'PENDING' })[0]).toMatchObject({ waiting: true })
    expect(nextSteps({ ...fresh, kyc: undefined, funded: undefined, carded: undefined })).toEqual(
      [],
    )
  })

  it('offer no card where the tenant offers none', () => {
    expect(nextSteps({ ...fresh, offersCards: false }).map((s) => s.key)).toEqual([
      'verify',
      'addMoney',
    ])
  })

  it('show on home with the person’s own wallet in the links', async () => {
    const wallet = aWallet({ uuid: 'personal-1', type: 'personal', balances: [] })
    mockApi({
      'GET /user': { body: aUser({ kyc_status: 'UNVERIFIED' }) },
      'GET /wallets': { body: aPage([wallet]) },
      'GET /issuing/cards': { body: aPage([]) },
    })
    renderApp(<NextSteps />)
    const steps = await screen.findAllByTestId('next-step')
    expect(steps.map((step) => within(step).getByRole('link').getAttribute('href'))).toEqual([
      '/verify',
      '/deposit?wallet=personal-1',
      '/cards/new?wallet=personal-1',
    ])
    expect(steps[1]).toHaveTextContent('Add money')
  })

  it('show nothing for someone verified, funded and with a card', async () => {
    const wallet = aWallet({ balances: [aBalance({ available: '10.00' })] })
    mockApi({
      'GET /user': { body: aUser({ kyc_status: 'APPROVED' }) },
      'GET /wallets': { body: aPage([wallet]) },
      'GET /issuing/cards': { body: aPage([{ id: 'c1', status: 'ACTIVE' }]) },
    })
    const { container } = renderApp(<NextSteps />)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(container).toBeEmptyDOMElement()
  })
})
