/**
 * The note every grok purge carries: a session grok synced to its remote (cloud) store has a copy there that no local
 * purge reaches (grok's own `grok sessions delete <id>` removes it first when the user is signed in).
 * @public
 */
export const GROK_REMOTE_NOTE =
  'grok may have synced this session to its remote (cloud) store: a local purge cannot reach that copy (`grok sessions delete <id>` removes it)';
