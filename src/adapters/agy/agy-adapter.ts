import { BaseAdapter } from '../common/base-adapter.js';
import type { ArtifactPath } from '../common/artifacts.js';

/**
 * The agy adapter (placeholder: finds nothing until implemented).
 * @public
 */
export class AgyAdapter extends BaseAdapter {
  readonly name = 'agy' as const;
  readonly idLifecycle = 'post_discovered' as const;

  async discover(): Promise<string[]> {
    return [];
  }

  async verifyArtifact(): Promise<boolean> {
    return false;
  }

  protected async artifactPaths(): Promise<ArtifactPath[]> {
    return [];
  }
}
