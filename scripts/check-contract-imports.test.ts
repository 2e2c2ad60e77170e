import { describe, expect, it } from 'vitest'
import { typeBoxLeaks } from './check-contract-imports.mjs'

const files: Record<string, string> = {
  '/p/contract/schemas.ts':
    "import { Type } from '@sinclair/typebox'\nexport const A = 1\nexport type T = 1",
  '/p/contract/pure.ts': 'export const B = 2',
  '/p/contract/through.ts': "export { A } from './schemas.ts'",
  '/p/contract/types-only.ts': "import type { T } from './schemas.ts'\nexport const C: T = 1",
  '/p/src/types.ts':
    "import type { T } from '../contract/schemas.ts'\nimport { type T as U } from '../contract/schemas.ts'",
  '/p/src/pure.ts':
    "import { B } from '../contract/pure.ts'\nimport { C } from '../contract/types-only.ts'",
  '/p/src/value.ts': "import { A, type T } from '../contract/schemas.ts'",
  '/p/src/transitive.ts': "import { A } from '../contract/through.ts'",
  '/p/src/reexport.ts':
    "export { A } from '../contract/schemas.ts'\nexport type { T } from '../contract/schemas.ts'",
}
const read = (path: string) => {
  const text = files[path]
  if (text === undefined) throw new Error(`no file ${path}`)
  return text
}
const leaksOf = (importer: string) =>
  typeBoxLeaks([importer], read, '/p/contract').map(
    (leak) => `${leak.target} ${leak.names.join(',')}`,
  )

describe('the lint step that keeps TypeBox out of the app', () => {
  it('lets types through, and values of contract files that reach no TypeBox', () => {
    expect(leaksOf('/p/src/types.ts')).toEqual([])
    expect(leaksOf('/p/src/pure.ts')).toEqual([])
  })

  it('refuses a value taken from a schema file, directly, through another file or re-exported', () => {
    expect(leaksOf('/p/src/value.ts')).toEqual(['/p/contract/schemas.ts A'])
    expect(leaksOf('/p/src/transitive.ts')).toEqual(['/p/contract/through.ts A'])
    expect(leaksOf('/p/src/reexport.ts')).toEqual(['/p/contract/schemas.ts A'])
  })
})
