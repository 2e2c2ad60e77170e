import { describe, expect, it } from 'vitest'
import { firstOpening, requestOfLaunch } from './start-param.ts'

const ID = '0190b0a4-0000-7000-8000-00000000ab01'
const initData = (extra: string) =>
  encodeURIComponent(`user=${encodeURIComponent('{"id":1}')}&auth_date=1&hash=x${extra}`)

describe('requestOfLaunch', () => {
  it.each([
    [`tgWebAppData=${initData('')}&tgWebAppStartParam=pr_${ID}`, ID],
    [`#tgWebAppData=${initData(`&start_param=pr_${ID}`)}`, ID],
    [`tgWebAppData=${initData('')}`, undefined],
    [`tgWebAppData=${initData('')}&tgWebAppStartParam=ref_42`, undefined],
    [`tgWebAppData=${initData('')}&tgWebAppStartParam=pr_not-an-id`, undefined],
    [`tgWebAppData=${initData('')}&tgWebAppStartParam=pr_${ID}x`, undefined],
  ])('reads %s as %s', (raw, expected) => {
    expect(requestOfLaunch(raw)).toBe(expected)
  })
})

describe('firstOpening', () => {
  it('opens a launch’s request once per tab, and another request again', () => {
    sessionStorage.clear()
    expect(firstOpening(sessionStorage, ID)).toBe(true)
    expect(firstOpening(sessionStorage, ID)).toBe(false)
    expect(firstOpening(sessionStorage, ID.replace('ab01', 'ab02'))).toBe(true)
  })
})
