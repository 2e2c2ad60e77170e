export declare const LAYERS: [string, string[]][]
export declare function isComposition(file: string): boolean
export declare function areaGraph(root: string): {
  edges: Map<string, Set<string>>
  intoRepositories: string[]
  imports: { file: string; target: string }[]
}
export declare function layerViolations(
  imports: { file: string; target: string }[],
  layers?: [string, string[]][],
): string[]
export declare function stronglyConnected(edges: Map<string, Set<string>>): string[][]
export declare function twoWayPairs(edges: Map<string, Set<string>>): string[]
