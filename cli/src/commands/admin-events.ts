// `anvil admin events list|show|retry`: the outbox relay's dead letters on a running Anvil
// (events a service could never publish as they were, set aside so later events flow).
// Each service serves them over its EventAdminService; this calls it as the system caller,
// signed with the internal secret as `anvil admin user create` does.
import { ConfigError, createServiceClient, DomainError, loadConfig, SERVICE_NAMES, SYSTEM, type ServiceName } from '@anvil/kit';
import { loadAnvilGrpc, type common } from '@anvil/proto';
import { readInternalToken } from '../internal-token.js';
import type { CommandResult } from './admin.js';

export type EventsAction =
  | { action: 'list'; services: ServiceName[]; limit: number }
  | { action: 'show'; services: ServiceName[]; id: string }
  | { action: 'retry'; services: ServiceName[]; ids: string[]; all: boolean };

type Client = ReturnType<typeof createServiceClient<common.EventAdminServiceClient>>;

function isoOf(ts: { seconds: number | string; nanos: number } | null): string {
  return ts ? new Date(Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1e6)).toISOString() : '-';
}

export async function adminEvents(args: EventsAction, env: NodeJS.ProcessEnv = process.env): Promise<CommandResult> {
  const out: CommandResult = { code: 0, stdout: [], stderr: [] };
  let config;
  try {
    config = loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return { ...out, code: 1, stderr: [err.message] };
    throw err;
  }
  const secret = config.settings.security.INTERNAL_TOKEN ?? readInternalToken(config.dataDir);
  if (!secret) {
    return { ...out, code: 1, stderr: [`Command error: no internal token: set ANVIL__security__INTERNAL_TOKEN, or run this where \`anvil start\` keeps its data (${config.dataDir})`] };
  }
  const Service = loadAnvilGrpc().anvil.common.v1.EventAdminService;
  let found = false;
  for (const service of args.services) {
    const address = config.addresses[service];
    const client: Client = createServiceClient<common.EventAdminServiceClient>(Service, address, secret);
    try {
      if (args.action === 'list') {
        const page = await client.ListDeadLetters({ limit: args.limit }, { caller: SYSTEM });
        out.stdout.push(`${service}: ${page.total} dead letter${page.total === 1 ? '' : 's'}`);
        for (const d of page.dead_letters) {
          out.stdout.push(`  ${d.id}  ${d.subject}  ${d.payload_bytes} bytes  written ${isoOf(d.created_at)}  parked ${isoOf(d.parked_at)}`);
          out.stdout.push(`      ${d.reason}`);
        }
      } else if (args.action === 'show') {
        const d = await client.GetDeadLetter({ id: args.id }, { caller: SYSTEM }).catch((err: unknown) => {
          if (err instanceof DomainError && err.kind === 'not_found') return undefined;
          throw err;
        });
        if (!d) continue;
        found = true;
        out.stdout.push(`service:  ${service}`, `id:       ${d.id}`, `subject:  ${d.subject}`, `type:     ${d.type}`,
          `size:     ${d.payload_bytes} bytes`, `written:  ${isoOf(d.created_at)}`, `parked:   ${isoOf(d.parked_at)}`,
          `reason:   ${d.reason}`, 'payload (strings over 1 KiB shortened):', d.payload_json);
      } else {
        const reply = await client.RetryDeadLetters({ ids: args.ids, all: args.all }, { caller: SYSTEM });
        if (reply.ids.length) found = true;
        for (const id of reply.ids) out.stdout.push(`${service}: ${id} is back in the outbox`);
      }
    } catch (err) {
      out.code = 1;
      const why = err instanceof DomainError && err.kind === 'unavailable' ? `cannot reach it at ${address}` : (err as Error).message;
      out.stderr.push(`${service}: ${why}`);
    } finally {
      client.close();
    }
  }
  if (args.action === 'show' && !found && out.code === 0) return { ...out, code: 1, stderr: [`no dead letter ${args.id}`] };
  if (args.action === 'retry' && !found && out.code === 0) {
    out.stdout.push(args.all ? 'no dead letters to retry' : 'none of those ids is a dead letter');
  }
  return out;
}

/** `--service NAME` (repeatable) or every service. */
export function servicesFrom(names: string[] | undefined): ServiceName[] {
  if (!names?.length) return [...SERVICE_NAMES];
  for (const name of names) {
    if (!(SERVICE_NAMES as readonly string[]).includes(name)) throw new Error(`unknown service ${name} (one of ${SERVICE_NAMES.join(', ')})`);
  }
  return names as ServiceName[];
}
