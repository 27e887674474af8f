// GPG keys as Gitea shows them (services/convert ToGPGKey / ToGPGKeyEmail). A key that
// never expires shows Go's zero time, as Gitea does.
import type { identity } from '@anvil/proto';
import { formatTime } from './time.js';

export function presentGpgKey(key: identity.GpgKey): Record<string, unknown> {
  return {
    id: key.id,
    primary_key_id: key.primary_key_id,
    key_id: key.key_id,
    public_key: key.public_key,
    emails: key.emails.map((e) => ({ email: e.email, verified: e.verified })),
    subkeys: key.subkeys.map(presentGpgKey),
    can_sign: key.can_sign,
    can_encrypt_comms: key.can_encrypt_comms,
    can_encrypt_storage: key.can_encrypt_storage,
    // Gitea reports can_certify from the signing capability.
    can_certify: key.can_sign,
    created_at: formatTime(key.created_at),
    expires_at: formatTime(key.expires_at),
    verified: key.verified,
  };
}
