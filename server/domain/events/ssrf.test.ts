import { describe, expect, it } from 'vitest'
import { isPublicAddress, refuseUrl } from './ssrf.ts'
import { postGuarded } from './webhook-client.ts'

/*
 * The SSRF rules, pure: which addresses a webhook or push delivery may reach,
 * and why a URL is refused. Every IPv6 spelling of a refused place is refused.
 */

describe('the SSRF rules', () => {
  it.each([
    // Public: reachable on the internet.
    ['8.8.8.8', true],
    ['93.184.215.14', true],
    ['2606:4700:4700::1111', true],
    ['2a00:1450:4001:80b::200e', true],
    ['::ffff:8.8.8.8', true],
    ['64:ff9b::808:808', true],
    ['2002:808:808::1', true],
    // IPv4 special space.
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.0.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['255.255.255.255', false],
    ['224.0.0.1', false],
    ['192.0.2.1', false],
    ['198.18.0.1', false],
    ['240.0.0.1', false],
    // IPv6 loopback and unspecified, in every spelling.
    ['::1', false],
    ['0:0:0:0:0:0:0:1', false],
    ['::', false],
    // Unique-local (fc00::/7), link-local (fe80::/10), site-local, multicast.
    ['fc00::1', false],
    ['fd00::1', false],
    ['fe80::1', false],
    ['febf::1', false],
    ['fec0::1', false],
    ['ff02::1', false],
    ['ff0e::1', false],
    // Documentation, IETF protocol assignments (Teredo, benchmarking), discard-only, reserved.
    ['2001:db8::1', false],
    ['3fff::1', false],
    ['2001::1', false],
    ['2001:2::1', false],
    ['100::1', false],
    ['4000::1', false],
    // IPv4-mapped: judged as the IPv4 address.
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:169.254.169.254', false],
    // IPv4-compatible (deprecated, ::/96): never.
    ['::127.0.0.1', false],
    ['::7f00:1', false],
    ['::8.8.8.8', false],
    ['::a9fe:a9fe', false],
    // IPv4-translated (RFC 6145) and the local-use NAT64 prefix.
    ['::ffff:0:7f00:1', false],
    ['64:ff9b:1::7f00:1', false],
    // NAT64 and 6to4 carrying a refused IPv4 address.
    ['64:ff9b::127.0.0.1', false],
    ['64:ff9b::a00:1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['2002:7f00:1::1', false],
    ['2002:a9fe:a9fe::1', false],
    ['2002:c0a8:1::', false],
    // Not an address.
    ['not an address', false],
    ['', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected)
  })

  const resolve = async (host: string) => {
    if (host === 'internal.example') return ['10.0.0.5']
    if (host === 'mixed.example') return ['93.184.215.14', '127.0.0.1']
    if (host === 'public.example') return ['93.184.215.14']
    if (host === 'sneaky.example') return ['2606:4700:4700::1111', '::7f00:1']
    throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
  }

  it.each([
    ['https://public.example/hook', undefined],
    ['https://internal.example/hook', 'private_address'],
    ['https://mixed.example/hook', 'private_address'],
    ['https://sneaky.example/hook', 'private_address'],
    ['https://nowhere.example/hook', 'unresolvable'],
    ['http://public.example/hook', 'not_https'],
    ['https://user:pass@public.example/hook', 'credentials'],
    ['ftp://public.example/hook', 'invalid'],
    ['not a url', 'invalid'],
    ['https://[2606:4700:4700::1111]/hook', undefined],
    ['https://[::127.0.0.1]/', 'private_address'],
    ['https://[::7f00:1]/', 'private_address'],
    ['https://[::ffff:127.0.0.1]/', 'private_address'],
    ['https://[0:0:0:0:0:ffff:a9fe:a9fe]/latest/meta-data', 'private_address'],
    ['https://[64:ff9b::127.0.0.1]/', 'private_address'],
    ['https://[2002:7f00:1::1]/', 'private_address'],
    ['https://[fe80::1]/', 'private_address'],
    ['https://[fd12:3456::1]/', 'private_address'],
    ['https://[::]/', 'private_address'],
    ['https://2130706433/', 'private_address'],
    ['https://0x7f.1/', 'private_address'],
  ])('outside the sandbox %s: %s', async (url, refusal) => {
    expect(await refuseUrl(url, { sandbox: false, resolve })).toBe(refusal)
  })

  it('the sandbox lets http and local receivers through, never other schemes', async () => {
    expect(
      await refuseUrl('http://127.0.0.1:9000/hook', { sandbox: true, resolve }),
    ).toBeUndefined()
    expect(await refuseUrl('file:///etc/passwd', { sandbox: true, resolve })).toBe('invalid')
  })

  it.each([
    'https://[::7f00:1]/hook',
    'https://[::ffff:7f00:1]/hook',
    'https://[64:ff9b::a9fe:a9fe]/',
  ])('a delivery to %s is refused before any connection', async (url) => {
    const outcome = await postGuarded(url, '{}', {}, { sandbox: false })
    expect(outcome).toMatchObject({ ok: false, status: null })
    expect(outcome.error).toMatch(/may not reach/)
  })
})
