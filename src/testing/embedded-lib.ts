/**
 * One named part of an implementation that runs both in this process and, as source text, inside a standalone
 * executable: a function whose text stands alone and reaches the other parts only through `lib`.
 * @public
 */
export type EmbeddedPart<L> = { [K in keyof L]: readonly [K, (lib: L) => L[K]] }[keyof L];

/**
 * Builds the implementation in this process from its parts, in order.
 * @public
 */
export function buildEmbeddedLib<L>(parts: readonly EmbeddedPart<L>[]): L {
  const lib: Partial<L> = {};
  for (const [name, make] of parts) (lib as Record<PropertyKey, unknown>)[name] = make(lib as L);
  return lib as L;
}

/**
 * JavaScript text that defines `lib` exactly as {@link buildEmbeddedLib} does, from the parts' own source.
 * @public
 */
export function embeddedLibSource<L>(parts: readonly EmbeddedPart<L>[]): string {
  const text = parts.map(([name, make]) => `  [${JSON.stringify(name)}, (${make.toString()})],`).join('\n');
  // esbuild's keepNames (tsx, some test runners) wraps inner functions in `__name(fn, "fn")`: a no-op here.
  return `var __name = (target, _value) => target;\nconst PARTS = [\n${text}\n];\nconst lib = {};\nfor (const [name, make] of PARTS) lib[name] = make(lib);\n`;
}
