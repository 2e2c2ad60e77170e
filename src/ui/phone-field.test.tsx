import { screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderApp } from '../../tests/support/render-app.tsx'
import type { ContactResult } from '../telegram/limits.ts'
import { MiniAppProvider } from '../telegram/mini-app.tsx'
import type { MiniAppControls } from '../telegram/sdk.ts'
import { emptyPhone, type PhoneDraft } from './phone.ts'
import { PhoneField, phoneFromDraft } from './phone-field.tsx'

/** A Mini App whose contact request answers `result`; the rest is never called here. */
const miniApp = (result: ContactResult) =>
  ({ requestContact: vi.fn(async () => result) }) as unknown as MiniAppControls

function Field(props: { onDraft: (draft: PhoneDraft) => void }) {
  const [draft, setDraft] = useState<PhoneDraft>(emptyPhone)
  return (
    <PhoneField
      label="Phone number"
      value={draft}
      onChange={(next) => {
        setDraft(next)
        props.onDraft(next)
      }}
      countries={undefined}
      countriesFailed
    />
  )
}

function renderField(controls: MiniAppControls | undefined) {
  const onDraft = vi.fn<(draft: PhoneDraft) => void>()
  const view = renderApp(
    <MiniAppProvider controls={controls}>
      <Field onDraft={onDraft} />
    </MiniAppProvider>,
  )
  return { ...view, onDraft }
}

describe('the phone field in the Telegram Mini App', () => {
  it('offers nothing of Telegram in a browser', () => {
    renderField(undefined)
    expect(screen.queryByRole('button', { name: 'Use my Telegram number' })).toBeNull()
  })

  it('offers nothing where Telegram cannot share contacts', () => {
    renderField({} as MiniAppControls)
    expect(screen.queryByRole('button', { name: 'Use my Telegram number' })).toBeNull()
  })

  it('fills in the number Telegram shares, whole', async () => {
    const controls = miniApp({
      status: 'shared',
      contact: { phone: '79991234567', firstName: 'Ivan' },
    })
    const { user, onDraft } = renderField(controls)
    await user.click(screen.getByRole('button', { name: 'Use my Telegram number' }))
    expect(screen.getByRole('textbox', { name: 'Phone number' })).toHaveValue('+79991234567')
    expect(phoneFromDraft(onDraft.mock.lastCall![0], undefined)).toBe('+79991234567')
  })

  it.each([
    ['refused', 'Telegram did not share your number. Type it in instead.'],
    ['timeout', 'Telegram did not answer in 5 seconds. Type your number in instead.'],
  ] as const)(
    'says so when the request is %s, and leaves the field alone',
    async (status, text) => {
      const { user } = renderField(miniApp({ status }))
      await user.type(screen.getByRole('textbox', { name: 'Phone number' }), '+4420')
      await user.click(screen.getByRole('button', { name: 'Use my Telegram number' }))
      expect(await screen.findByRole('status')).toHaveTextContent(text)
      expect(screen.getByRole('textbox', { name: 'Phone number' })).toHaveValue('+4420')
    },
  )
})
