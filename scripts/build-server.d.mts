export declare const SERVER_BUNDLE: string
export declare function serverIsStale(root?: string): boolean
export declare function buildServer(root?: string, outfile?: string): Promise<void>
export declare function ensureServerBuilt(root?: string): Promise<void>
