import { lazySchema, type Zod } from '../lazy-zod.js';
import type { FileSystemPort } from '../ports/fs.js';
import { absolutePathSchema, envSchema, parseArgument, requireDirectory, signalSchema } from '../validation/common-schemas.js';
import type { InvalidArgumentError } from '../invalid-argument-error.js';

// Built on first use (zod loads then, not when the package is imported). Fields it does not name are kept.
const optionsSchema = lazySchema((z: Zod) =>
  z.looseObject(
    {
      home: absolutePathSchema(z),
      env: envSchema(z).optional(),
      signal: signalSchema(z).optional(),
      ports: z.looseObject({}, { error: 'must be an object of ports ({ fs, proc, herdr, clock })' }).optional(),
    },
    { error: 'must be an object ({ home })' },
  ),
);

/** Checks `inspectStores`'s options: `home` an absolute path to an existing directory (one stat), `env` and `ports` objects; throws {@link InvalidArgumentError}. */
export function checkInspectOptionsShape(opts: unknown): void {
  parseArgument(optionsSchema, 'opts', opts);
}

/** The home check of {@link checkInspectOptionsShape}'s options, through `fs`. */
export function requireInspectHome(fs: FileSystemPort, home: string): Promise<void> {
  return requireDirectory(fs, 'opts.home', home);
}
