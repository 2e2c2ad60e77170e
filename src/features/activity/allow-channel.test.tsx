import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { ActivityDetail } from '../../../contract/activity.ts'
import { defaultControls } from '../../../contract/card-controls.ts'
import { mockApi, problem } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { translator } from '../../i18n/i18n.tsx'
import { failureWords } from './activity-facts.tsx'
import { AllowChannel } from './allow-channel.tsx'

const CARD = '0190b0a4-0000-7000-8000-0000000000d1'
const CONTROLS = `/issuing/cards/${CARD}/controls`

describe('a payment the card’s controls declined', () => {
  it('says why in people’s words, naming the channel', () => {
    const item = {
      source: { type: 'card_transaction', id: 'x', order_type: null },
      failure_code: 'CHANNEL_BLOCKED',
      channel: 'online',
      card_transactions: [],
    } as unknown as ActivityDetail
    expect(failureWords(translator('en'), item)).toBe('Online payments are off for this card')
  })

  it('“Allow online payments” turns that channel on, keeping the rest of the controls', async () => {
    const stored = {
      ...defaultControls(),
      channels: { ...defaultControls().channels, online: false },
      blocked_countries: ['RU'],
    }
    const api = mockApi({
      [`GET ${CONTROLS}`]: { body: stored },
      [`PUT ${CONTROLS}`]: (call) => ({ body: call.body }),
    })
    const { user } = renderApp(<AllowChannel cardId={CARD} channel="online" />)
    await user.click(screen.getByRole('button', { name: 'Allow online payments' }))
    expect(await screen.findByText('Done. The next payment this way goes through.')).toBeVisible()
    expect(api.to(`PUT ${CONTROLS}`).map((call) => call.body)).toEqual([
      { ...stored, channels: { ...stored.channels, online: true } },
    ])
  })

  it('a refusal is said, and the button stays to try again', async () => {
    mockApi({
      [`GET ${CONTROLS}`]: { body: defaultControls() },
      [`PUT ${CONTROLS}`]: problem(409, 'CARD_STATUS_CONFLICT'),
    })
    const { user } = renderApp(<AllowChannel cardId={CARD} channel="atm" />, { language: 'ru' })
    await user.click(screen.getByRole('button', { name: 'Разрешить снятие в банкоматах' }))
    expect(await screen.findByRole('alert')).toBeVisible()
    expect(screen.getByRole('button', { name: 'Разрешить снятие в банкоматах' })).toBeEnabled()
  })
})
