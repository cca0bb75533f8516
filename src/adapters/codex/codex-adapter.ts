import { BaseAdapter } from '../common/base-adapter.js';
import type { ArtifactPath } from '../common/artifacts.js';

/**
 * The codex adapter (placeholder: finds nothing until implemented).
 * @public
 */
export class CodexAdapter extends BaseAdapter {
  readonly name = 'codex' as const;
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
