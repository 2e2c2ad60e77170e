// IndexedDB for the token vault and the query-cache persister, in memory.
import 'fake-indexeddb/auto'
import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'
import { LANGUAGES, loadLanguage } from '../../src/i18n/i18n.tsx'

// Every catalogue in memory, as src/app/main.tsx has the starting one before
// the first render: a test renders in Russian at once. The lazy load itself
// is tested with fresh modules in src/i18n/lazy-language.test.tsx.
await Promise.all(LANGUAGES.map(loadLanguage))

afterEach(() => {
  cleanup()
})
