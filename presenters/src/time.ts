// Go's encoding/json writes time.Time as RFC 3339; Gitea's timestamps have whole seconds.
export { formatTime } from '@anvil/proto';
