import { onlineManager } from '@tanstack/react-query'
import { act, cleanup, screen } from '@testing-library/react'
import { vi } from 'vitest'
import type { ApiKey } from '../../../contract/developer.ts'
import { type Call, mockApi, type Route } from '../../../tests/support/mock-api.ts'
import { renderApp } from '../../../tests/support/render-app.tsx'
import type { Language } from '../../i18n/i18n.tsx'
import DeveloperPage from './developer-page.tsx'
import { anApiKey, aPage, aPageOf, aVendor, withSecret } from './test-builders.ts'

// The developer page's test bench: a small server that keeps its keys (developer-*.test.tsx).

export const LIST = 'GET /developer/access/list'
export const CREATE = 'POST /developer/access/create'
export const ROTATE = 'POST /developer/access/rotate'
export const UPDATE = 'POST /developer/access/update'
export const VENDORS = 'GET /developer/vendors/list'
export const NEW_SECRET = 'fpk_fedcba9876543210_ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210_-zyxwv'

export const VENDOR_ROWS = [
  aVendor({ kind: 'chain' }),
  aVendor({ kind: 'messaging', name: 'smtp', mode: 'live', health: 'degraded' }),
  aVendor({ kind: 'rates', health: 'down' }),
]

/** The page against a small server that keeps its keys. */
export function renderPage(
  keys: ApiKey[] = [anApiKey()],
  routes: Record<string, Route> = {},
  language: Language = 'en',
) {
  let stored = keys
  const save = (key: ApiKey) => {
    stored = [key, ...stored.filter((other) => other.id !== key.id)]
  }
  const api = mockApi({
    [LIST]: (call: Call) => ({ body: aPageOf(stored, call.query) }),
    [VENDORS]: { body: aPage(VENDOR_ROWS) },
    [CREATE]: (call: Call) => {
      const body = call.body as { name: string; role: ApiKey['role']; allowed_ips: string[] }
      const key = anApiKey({
        id: '0190f2a0-0000-7000-8000-000000000002',
        name: body.name,
        role: body.role,
        allowed_ips: body.allowed_ips,
        prefix: 'fpk_fedcba9876543210',
      })
      save(key)
      return { status: 201, body: withSecret(key, NEW_SECRET) }
    },
    [ROTATE]: (call: Call) => {
      const { overlap_seconds } = call.body as { overlap_seconds: number }
      const key = {
        ...anApiKey(),
        prefix: 'fpk_fedcba9876543210',
        previous_secret_expires_at: overlap_seconds ? '2026-11-22T11:00:00.000Z' : null,
      }
      save(key)
      return { body: withSecret(key, NEW_SECRET) }
    },
    [UPDATE]: (call: Call) => {
      const { id, ...changes } = call.body as Partial<ApiKey> & { id: string }
      const key = { ...(stored.find((other) => other.id === id) as ApiKey), ...changes }
      save(key)
      return { body: key }
    },
    ...routes,
  })
  return { api, ...renderApp(<DeveloperPage />, { path: '/developer', language }) }
}

export const keyId = (n: number) => `0190f2a0-0000-7000-8000-${String(n).padStart(12, '0')}`

/** `count` keys, newest first as the server lists them: "Key 1" … "Key <count>". */
export const manyKeys = (count: number) =>
  Array.from({ length: count }, (_, index) =>
    anApiKey({
      id: keyId(index + 1),
      name: `Key ${index + 1}`,
      prefix: `fpk_${(index + 1).toString(16).padStart(16, '0')}`,
    }),
  )

export const keyItem = async (name = 'Accounting export') =>
  (await screen.findByRole('heading', { name, level: 3 })).closest('li') as HTMLElement

/** What every developer page test leaves behind, undone. */
export function afterDeveloperTest() {
  cleanup()
  act(() => onlineManager.setOnline(true))
  vi.unstubAllGlobals()
}
