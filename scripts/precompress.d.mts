export function precompress(dir: string): Promise<number>
