// Webhook types (Gitea's modules/webhook HookType). Anvil sends the payload shapes of the
// BUILT ones; the rest are types Gitea lists whose shapes Anvil does not send yet, refused
// with a clear 422 rather than accepted and never delivered.
import { invalid } from '@anvil/kit';

export const BUILT_HOOK_TYPES = ['gitea', 'gogs', 'slack', 'discord', 'msteams'] as const;
const LISTED_NOT_BUILT = ['dingtalk', 'telegram', 'feishu', 'wechatwork', 'packagist', 'matrix'];

export type HookType = (typeof BUILT_HOOK_TYPES)[number];

export function checkHookType(type: string): HookType {
  if ((BUILT_HOOK_TYPES as readonly string[]).includes(type)) return type as HookType;
  if (LISTED_NOT_BUILT.includes(type)) throw invalid(`webhook type ${type} is not supported yet; supported types: ${BUILT_HOOK_TYPES.join(', ')}`, 'hook_type_not_built');
  throw invalid(`Invalid hook type: ${type}`, 'invalid_hook_type');
}

export const HOOK_CONTENT_TYPES = ['json', 'form'] as const;
export type HookContentType = (typeof HOOK_CONTENT_TYPES)[number];

export function checkContentType(value: string): HookContentType {
  if ((HOOK_CONTENT_TYPES as readonly string[]).includes(value)) return value as HookContentType;
  throw invalid('Invalid content type', 'invalid_content_type');
}
