/** Merges the chunks `<dist>/index.js` loads at import into one chunk; how many chunks the root loaded, and dist had before and after. */
export function mergeRootChunks(dist: string): Promise<{ before: number; after: number; rootChunks: number }>;
