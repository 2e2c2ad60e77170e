export interface ValueImport {
  specifier: string
  names: string[]
}
export interface TypeBoxLeak {
  importer: string
  target: string
  names: string[]
}
export declare function valueImports(fileName: string, text: string): ValueImport[]
export declare function typeBoxLeaks(
  importers: string[],
  read: (path: string) => string,
  contractDir: string,
): TypeBoxLeak[]
