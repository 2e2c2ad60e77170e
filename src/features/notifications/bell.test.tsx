import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { mockApi } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import { latinDigits } from '../../i18n/digits.ts'
import { NotificationBell } from './bell.tsx'

afterEach(() => {
  latinDigits.set(false)
  localStorage.clear()
})

describe('the bell’s count (issue 34)', () => {
  it('is written in Persian digits, or Latin ones once chosen', async () => {
    mockApi({ 'GET /notifications/unread': { body: { unread: 34 } } })
    renderApp(<NotificationBell href="/notifications" />, { language: 'fa' })
    const badge = await screen.findByText('۳۴')
    latinDigits.set(true)
    expect(await screen.findByText('34')).toBe(badge)
  })
})
