import { type Static, Type } from '@sinclair/typebox'
import { KycStatus } from './enums.ts'

export const User = Type.Object({
  id: Type.String({ format: 'uuid' }),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  kyc_status: KycStatus,
  created_at: Type.String({ format: 'date-time' }),
})
export type User = Static<typeof User>

const nullableString = Type.Union([Type.String(), Type.Null()])

export const UserData = Type.Object({
  first_name: nullableString,
  last_name: nullableString,
  date_of_birth: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  language: nullableString,
  updated_at: Type.String({ format: 'date-time' }),
})
export type UserData = Static<typeof UserData>
