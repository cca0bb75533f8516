import { describe, expect, it } from 'vitest';
import { claudeLocations } from '../../../src/agents/claude/claude-locations.js';

describe('claudeLocations', () => {
  it('defaults: <home>/.claude, its projects/, and /tmp', () => {
    expect(claudeLocations({}, '/h/')).toEqual({
      home: '/h',
      config: '/h/.claude',
      discoverProjects: '/h/.claude/projects',
      projects: ['/h/.claude/projects'],
      tmpRoots: ['/tmp'],
    });
  });

  it('CLAUDE_CONFIG_DIR moves the whole config root, sessions/ and projects/ included', () => {
    const loc = claudeLocations({ CLAUDE_CONFIG_DIR: '/cfg/', TMPDIR: '/t', CLAUDE_CODE_TMPDIR: '/ct' }, '/h');
    expect(loc).toMatchObject({ config: '/cfg', discoverProjects: '/cfg/projects', projects: ['/cfg/projects'], tmpRoots: ['/ct', '/t'] });
  });

  it('ignores relative, empty and NUL-bearing values', () => {
    expect(claudeLocations({ CLAUDE_CONFIG_DIR: 'rel', TMPDIR: '', CLAUDE_PROJECT_DIR: '/p\0x' }, '/h')).toMatchObject({ config: '/h/.claude', tmpRoots: ['/tmp'], projects: ['/h/.claude/projects'] });
  });

  it('an explicit CLAUDE_PROJECT_DIR wins for discovery; purge scans it and the root\'s own projects/, each once', () => {
    const loc = claudeLocations({ CLAUDE_PROJECT_DIR: '/store/projects' }, '/h', '/w');
    expect(loc.discoverProjects).toBe('/store/projects');
    expect(loc.projects).toEqual(['/store/projects', '/h/.claude/projects']);
    expect(claudeLocations({ CLAUDE_PROJECT_DIR: '/h/.claude/projects' }, '/h').projects).toEqual(['/h/.claude/projects']);
  });

  it('Claude\'s own CLAUDE_PROJECT_DIR (the workspace, exported to its tools) is not a transcript store', () => {
    for (const env of [
      { CLAUDE_PROJECT_DIR: '/w', CLAUDECODE: '1' },
      { CLAUDE_PROJECT_DIR: '/w', CLAUDE_CODE_SESSION_ID: 'x' },
      { CLAUDE_PROJECT_DIR: '/w/' },
    ]) {
      expect(claudeLocations(env, '/h', '/w')).toMatchObject({ discoverProjects: '/h/.claude/projects', projects: ['/h/.claude/projects'] });
    }
  });
});
