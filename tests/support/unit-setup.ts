// IndexedDB for the token vault and the query-cache persister, in memory.
import 'fake-indexeddb/auto'
import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'
import { LANGUAGES, loadLanguage, loadMessages } from '../../src/i18n/i18n.tsx'
import { EN_PART_NAMES } from '../../src/i18n/parts.ts'

// findBy*/waitFor default to 1 s: too short for happy-dom on a loaded 2-core CI machine.
// A passing test keeps its speed; only a failure waits longer.
configure({ asyncUtilTimeout: 5_000 })

// Every catalogue in memory (English with all its parts), as src/app/main.tsx has the starting one before
// the first render: a test renders in Russian at once. The lazy load itself
// is tested with fresh modules in src/i18n/lazy-language.test.tsx.
await Promise.all([...LANGUAGES.map(loadLanguage), loadMessages(...EN_PART_NAMES)])

afterEach(() => {
  cleanup()
})
