// Issue 31's "done when": the registry-links property at 10,000 cases (MAM_REGISTRY_LINKS_RUNS overrides the count).
// test/property/registry-links.property.test.ts runs a sample of the same property in `npm test`.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { checkRegistryLinks, registryLinksTemplate } from '../helpers/registry-links-property.js';

const RUNS = Number(process.env['MAM_REGISTRY_LINKS_RUNS'] ?? '10000');

describe('hostile files at random registry names (property, slow tier)', () => {
  let template: Awaited<ReturnType<typeof registryLinksTemplate>>;
  beforeAll(async () => {
    template = await registryLinksTemplate();
  });
  afterAll(() => {
    template.dispose();
  });

  it(`every call is refused naming a planted path, and the whole tree is byte-identical afterwards (${RUNS} cases)`, async () => {
    await checkRegistryLinks(template.dir, RUNS);
  }, 4 * 3600_000);
});
