import { describe, expect, it } from 'vitest'
import { APP_ENV_HEADER } from '../../contract/tenancy.ts'
import { parseLaunchParams } from '../telegram/launch.ts'
import { INIT_DATA_HEADER } from './auth-proxy.ts'
import { launchHeaders, withHeaders } from './page-proxy.ts'

const launch = parseLaunchParams(
  `#tgWebAppData=${encodeURIComponent('user={"id":1}&hash=abc')}&tgWebAppPlatform=ios`,
)

describe('launchHeaders', () => {
  it('says nothing outside Telegram', () => {
    expect(launchHeaders(undefined)).toEqual({})
  })

  it('in the Mini App, names the environment and carries the init data', () => {
    expect(launchHeaders(launch)).toEqual({
      [APP_ENV_HEADER]: 'telegram',
      [INIT_DATA_HEADER]: 'user={"id":1}&hash=abc',
    })
  })
})

describe('withHeaders', () => {
  it('keeps the request when there is nothing to add', () => {
    const request = new Request('https://app.test/api/v1/x')
    expect(withHeaders(request, {})).toBe(request)
  })

  it('adds the headers and keeps method, body and the headers already set', async () => {
    const request = new Request('https://app.test/api/v1/x', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"a":1}',
    })
    const stated = withHeaders(request, { [APP_ENV_HEADER]: 'telegram' })
    expect(stated.method).toBe('POST')
    expect(stated.headers.get('content-type')).toBe('application/json')
    expect(stated.headers.get(APP_ENV_HEADER)).toBe('telegram')
    expect(await stated.text()).toBe('{"a":1}')
  })
})
