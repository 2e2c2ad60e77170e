import { describe, expect, it } from 'vitest'
import { alwaysTold, EVENT_KINDS } from '../../../contract/event-kinds.ts'
import { translator } from '../../i18n/i18n.tsx'
import { describeNotification, KIND_GROUPS } from './describe.ts'

const en = translator('en')

describe('what a notification says', () => {
  it('a card payment names the merchant, with the amount out', () => {
    const said = describeNotification(
      {
        kind: 'card.authorization.approved',
        data: { merchant_name: 'Corner Café', amount: '3.50', currency: 'EUR' },
      },
      en,
      'en',
    )
    expect(said).toMatchObject({ title: 'Corner Café', detail: 'Card payment' })
    expect(said.amount).toMatch(/3\.50/)
    expect(said.failed).toBeFalsy()
  })

  it('a decline says why, and is marked failed', () => {
    const said = describeNotification(
      {
        kind: 'card.authorization.declined',
        data: {
          merchant_name: 'Shop',
          amount: '10.00',
          currency: 'EUR',
          reason: 'INSUFFICIENT_FUNDS',
        },
      },
      en,
      'en',
    )
    expect(said).toMatchObject({
      detail: 'Declined: not enough money on the account',
      failed: true,
    })
  })

  it('every kind has words in both languages, and a place in the preferences', () => {
    const ru = translator('ru')
    for (const kind of EVENT_KINDS) {
      for (const [t, language] of [
        [en, 'en'],
        [ru, 'ru'],
      ] as const) {
        expect(describeNotification({ kind, data: {} }, t, language).title).not.toMatch(/\{/)
      }
    }
    // The preferences list what may be muted; the always-told kinds are named in one line.
    const listed = KIND_GROUPS.flatMap((group) => group.kinds)
    expect(listed.filter(alwaysTold)).toEqual([])
    expect([...listed, ...EVENT_KINDS.filter(alwaysTold)].sort()).toEqual([...EVENT_KINDS].sort())
  })

  it.each([
    [
      { form_factor: 'PHYSICAL', last4: '4242', delivery_to: 'London, GB' },
      'Physical card •• 4242, sent to London, GB',
    ],
    [{ form_factor: 'VIRTUAL', last4: '4242', delivery_to: null }, 'Virtual card •• 4242'],
  ])('a new card says which and where it goes: %j', (data, detail) => {
    const said = describeNotification({ kind: 'card.issued', data }, en, 'en')
    expect(said).toEqual({ title: 'New card issued', detail })
  })

  it('a device turned on for notifications is named, else said to be unknown', () => {
    const kind = 'security.push_subscription_added'
    expect(describeNotification({ kind, data: { device: 'Chrome, macOS' } }, en, 'en').detail).toBe(
      'On Chrome, macOS',
    )
    expect(describeNotification({ kind, data: { device: null } }, en, 'en').detail).toBe(
      'On a device we can’t name',
    )
  })
})
