export declare const MAX_LINES: number
export declare const SOURCE_ROOTS: string[]
export declare function sourceFiles(base: string, roots?: string[]): string[]
export declare function isRoutesFile(path: string): boolean
export declare function servicesBuiltInRoutes(
  files: string[],
  read: (file: string) => string,
): string[]
export declare function lineCount(text: string): number
export declare function oversized(
  files: string[],
  read: (file: string) => string,
  exemptions: Record<string, string>,
): { over: string[]; stale: string[] }
