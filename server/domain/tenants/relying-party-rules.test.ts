import { describe, expect, it } from 'vitest'
import { relyingPartyProblems } from './relying-party-rules.ts'

describe('the relying party', () => {
  it.each([
    ['localhost over http', 'localhost', ['http://localhost:8080']],
    ['the RP id itself', 'bank.example', ['https://bank.example']],
    ['a subdomain', 'bank.example', ['https://app.bank.example', 'https://m.bank.example:8443']],
  ])('accepts %s', (_, rpId, origins) => {
    expect(relyingPartyProblems(rpId, origins)).toEqual([])
  })

  it.each([
    ['http off localhost', 'bank.example', ['http://app.bank.example'], /https/],
    ['another domain', 'bank.example', ['https://evil.example'], /not on the RP id/],
    ['a look-alike suffix', 'bank.example', ['https://notbank.example'], /not on the RP id/],
    ['a path', 'bank.example', ['https://bank.example/app'], /origin only/],
    ['no origin', 'bank.example', [], /at least one/],
    ['an RP id with a scheme', 'https://bank.example', ['https://bank.example'], /host name/],
  ])('refuses %s', (_, rpId, origins, problem) => {
    expect(relyingPartyProblems(rpId, origins).join('; ')).toMatch(problem)
  })
})
