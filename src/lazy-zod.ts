import { createRequire } from 'node:module';
import type * as ZodModule from 'zod';

/** The `z` namespace of zod, as the package uses it. */
export type Zod = typeof ZodModule.z;

// zod is loaded (synchronously, it ships CommonJS too) the first time a schema is used, not when @mam/core is imported.
let loaded: Zod | undefined;

/** zod's `z`, loaded on the first call. */
export function zod(): Zod {
  loaded ??= (createRequire(import.meta.url)('zod') as typeof ZodModule).z;
  return loaded;
}

/**
 * A value built on first use: `build(z)` runs at the first property access (then never again), and the returned object
 * stands for the built one (its methods, properties, prototype). For module-level zod schemas, so that importing a module
 * does not build them — or load zod.
 */
export function lazySchema<T extends object>(build: (z: Zod) => T): T {
  let real: T | undefined;
  const target = (): T => (real ??= build(zod()));
  return new Proxy(Object.create(null) as T, {
    get: (_t, key) => {
      const v: unknown = Reflect.get(target(), key);
      return v;
    },
    has: (_t, key) => Reflect.has(target(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
    ownKeys: () => Reflect.ownKeys(target()).filter((k) => Reflect.getOwnPropertyDescriptor(target(), k)?.configurable === true),
    getOwnPropertyDescriptor: (_t, key) => {
      const d = Reflect.getOwnPropertyDescriptor(target(), key);
      return d === undefined || d.configurable === true ? d : undefined;
    },
  });
}

/** A value computed once, on the first call. */
export function once<T>(build: () => T): () => T {
  let value: { v: T } | undefined;
  return () => (value ??= { v: build() }).v;
}
