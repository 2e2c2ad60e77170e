import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { type Language, useI18n } from '../../i18n/i18n.tsx'
import { userDataQuery } from '../../queries/user.ts'
import { useUpdateUserData } from './mutations.ts'

/**
 * The person's language lives on their profile, so every device and the
 * server (codes, pushes, bot messages) agree: signed in, the app takes the
 * profile's language once, and from then on any choice (the shell's picker,
 * the profile's form) is saved to it. A profile without one gets the language
 * in use. Renders nothing.
 */
export function useProfileLanguage(): void {
  const { language, setLanguage } = useI18n()
  const profile = useQuery(userDataQuery()).data
  const save = useUpdateUserData()
  const saving = save.isPending
  const adopted = useRef(false)
  // Switching to the profile's language: until its words are here, `language` is the one before.
  const switching = useRef<{ from: Language; to: Language } | undefined>(undefined)

  useEffect(() => {
    if (!profile || saving) return
    if (!adopted.current) {
      adopted.current = true
      if (profile.language && profile.language !== language) {
        switching.current = { from: language, to: profile.language }
        setLanguage(profile.language)
        return
      }
    }
    const pending = switching.current
    if (pending) {
      if (language === pending.from) return
      switching.current = undefined
    }
    if (profile.language !== language) save.mutate({ language })
  }, [profile, language, saving, setLanguage, save.mutate])
}
