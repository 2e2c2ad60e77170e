export declare const APP_SETTINGS: Record<string, (value: string) => string | null>
export declare function appSettingProblems(env: Record<string, string | undefined>): string[]
