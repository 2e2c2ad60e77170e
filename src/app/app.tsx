import { QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { I18nProvider } from '../i18n/i18n.tsx'
import { createQueryClient } from './query-client.ts'
import { Routes } from './routes.tsx'

export function App() {
  const [queryClient] = useState(createQueryClient)
  return (
    <QueryClientProvider client={queryClient}>
      <I18nProvider>
        <Routes />
      </I18nProvider>
    </QueryClientProvider>
  )
}
