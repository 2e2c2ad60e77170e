export declare function areaGraph(root: string): {
  edges: Map<string, Set<string>>
  intoRepositories: string[]
}
export declare function stronglyConnected(edges: Map<string, Set<string>>): string[][]
export declare function twoWayPairs(edges: Map<string, Set<string>>): string[]
