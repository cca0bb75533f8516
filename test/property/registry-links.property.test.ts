// Issue 31, as a property (a modest sample; test/slow/registry-links.test.ts runs it at 10,000 cases): with links, hard
// links, directories, FIFOs and foreign databases at random registry names, no registry call writes anything anywhere.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { checkRegistryLinks, registryLinksTemplate } from '../helpers/registry-links-property.js';

describe('hostile files at random registry names (property, sample)', () => {
  let template: Awaited<ReturnType<typeof registryLinksTemplate>>;
  beforeAll(async () => {
    template = await registryLinksTemplate();
  });
  afterAll(() => {
    template.dispose();
  });

  it('every call is refused naming a planted path, and the whole tree is byte-identical afterwards (50 cases)', async () => {
    await checkRegistryLinks(template.dir, 50);
  }, 120_000);
});
