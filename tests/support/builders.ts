import type { User, UserData } from '../../contract/user.ts'

/** Test builders: a plausible value, with overrides for what a test is about. */

export const aUser = (overrides: Partial<User> = {}): User => ({
  id: '0190b0a4-0000-7000-8000-000000000001',
  email: 'ada@example.com',
  phone: '14155552671',
  telegram_id: null,
  kyc_status: 'UNVERIFIED',
  created_at: '2026-01-01T00:00:00Z',
  ...overrides,
})

export const someUserData = (overrides: Partial<UserData> = {}): UserData => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  date_of_birth: '1990-12-10',
  language: 'en',
  address: { country: 'GB', city: 'London', line1: '12 Square', postal_code: 'SW1Y 4JH' },
  username: null,
  photo_url: null,
  is_premium: false,
  updated_at: '2026-01-01T00:00:00Z',
  ...overrides,
})
