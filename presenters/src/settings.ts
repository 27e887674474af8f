// Site settings come from configuration, which the gateway loads like every process
// (routers/api/v1/settings/settings.go).
import type { Settings } from '@anvil/kit';

export const presentUISettings = (s: Settings) => ({
  default_theme: s.ui.DEFAULT_THEME,
  allowed_reactions: s.ui.REACTIONS,
  custom_emojis: s.ui.CUSTOM_EMOJIS,
});

export const presentAPISettings = (s: Settings) => ({
  max_response_items: s.api.MAX_RESPONSE_ITEMS,
  default_paging_num: s.api.DEFAULT_PAGING_NUM,
  default_git_trees_per_page: s.api.DEFAULT_GIT_TREES_PER_PAGE,
  default_max_blob_size: s.api.DEFAULT_MAX_BLOB_SIZE,
  default_max_response_size: s.api.DEFAULT_MAX_RESPONSE_SIZE,
});

export const presentRepoSettings = (s: Settings) => ({
  // Spec: "mirrors disabled flag": new mirrors are refused when [mirror] ENABLED is false.
  mirrors_disabled: !s.mirror.ENABLED,
  http_git_disabled: s.repository.DISABLE_HTTP_GIT,
  migrations_disabled: s.repository.DISABLE_MIGRATIONS,
  stars_disabled: s.repository.DISABLE_STARS,
  time_tracking_disabled: !s.service.ENABLE_TIMETRACKING,
  // Gitea: !LFS.StartServer. Anvil serves no LFS.
  lfs_disabled: true,
  // Anvil's spec: the general repository settings carry the maximum repository creation
  // limit (-1 = unlimited); Gitea 1.27's object has no such field (contract/schemas.ts).
  max_creation_limit: s.repository.MAX_CREATION_LIMIT,
});

export const presentAttachmentSettings = (s: Settings) => ({
  enabled: s.attachment.ENABLED,
  allowed_types: s.attachment.ALLOWED_TYPES,
  max_size: s.attachment.MAX_SIZE,
  max_files: s.attachment.MAX_FILES,
});
