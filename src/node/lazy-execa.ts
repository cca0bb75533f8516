import type { execa as Execa } from 'execa';

// execa (ESM only, and a sizeable graph) is imported on the first spawn, not when @mam/core is imported.
let loading: Promise<typeof Execa> | undefined;

/** execa's `execa` function, imported when first needed and cached. */
export function loadExeca(): Promise<typeof Execa> {
  loading ??= import('execa').then((m) => m.execa);
  return loading;
}
