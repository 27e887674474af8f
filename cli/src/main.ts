#!/usr/bin/env node
// The `anvil` command: `anvil start` runs the whole system, `anvil admin user create`
// adds a user to a running one (Gitea's CLI shape). Parsing is node:util's parseArgs.
import { parseArgs } from 'node:util';

const USAGE = `Usage: anvil <command>

Commands:
  start                       Run Anvil: PostgreSQL and NATS when not configured,
                              the four services and the gateway (Ctrl-C stops)
  admin user create           Create a user on a running Anvil
      --username <name>       login name (required)
      --email <address>       e-mail address (required)
      --password <password>   password (or --random-password)
      --random-password       generate a password and print it
      --admin                 make the user a site administrator
      --must-change-password  require a password change at first login
  admin events list           List the events each service set aside as dead letters
                              (could never be published as they were)
      --service <name>        only this service (repeatable)
      --limit <n>             at most n per service (default 50)
  admin events show <id>      Print one dead letter and its payload
  admin events retry <id>...  Put dead letters back into the outbox (--all: every one)

Options:
  -h, --help                  Show this help

Configuration comes from the environment (ANVIL_*, ANVIL__<section>__<KEY>, NATS_URL)
and an optional app.ini named by ANVIL_CONFIG.
`;

function usage(code: number, message?: string): never {
  if (message) process.stderr.write(`${message}\n\n`);
  (code === 0 ? process.stdout : process.stderr).write(USAGE);
  process.exit(code);
}

async function adminUserCreate(argv: string[]): Promise<never> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        username: { type: 'string' },
        // Gitea's deprecated spelling of --username.
        name: { type: 'string' },
        password: { type: 'string' },
        email: { type: 'string' },
        admin: { type: 'boolean', default: false },
        'must-change-password': { type: 'boolean', default: false },
        'random-password': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    usage(2, (err as Error).message);
  }
  if (values.help) usage(0);
  const username = values.username ?? values.name;
  if (!username || !values.email) usage(2, 'admin user create needs --username and --email');

  const { createUser } = await import('./commands/admin.js');
  const result = await createUser({
    username,
    email: values.email,
    password: values.password,
    admin: values.admin,
    mustChangePassword: values['must-change-password'],
    randomPassword: values['random-password'],
  });
  for (const line of result.stdout) process.stdout.write(`${line}\n`);
  for (const line of result.stderr) process.stderr.write(`${line}\n`);
  process.exit(result.code);
}

async function adminEventsCommand(verb: string | undefined, argv: string[]): Promise<never> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        service: { type: 'string', multiple: true },
        limit: { type: 'string' },
        all: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    usage(2, (err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) usage(0);
  const { adminEvents, servicesFrom } = await import('./commands/admin-events.js');
  let services;
  try {
    services = servicesFrom(values.service);
  } catch (err) {
    usage(2, (err as Error).message);
  }
  let action;
  if (verb === 'list' && positionals.length === 0) {
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1) usage(2, '--limit must be a positive integer');
    action = { action: 'list' as const, services, limit };
  } else if (verb === 'show' && positionals.length === 1) {
    action = { action: 'show' as const, services, id: positionals[0] };
  } else if (verb === 'retry' && (values.all ? positionals.length === 0 : positionals.length > 0)) {
    action = { action: 'retry' as const, services, ids: positionals, all: values.all };
  } else {
    usage(2, `admin events ${verb ?? ''}: see the usage below`.trim());
  }
  const result = await adminEvents(action);
  for (const line of result.stdout) process.stdout.write(`${line}\n`);
  for (const line of result.stderr) process.stderr.write(`${line}\n`);
  process.exit(result.code);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') usage(command ? 0 : 2);
  if (command === 'start') {
    if (rest.includes('-h') || rest.includes('--help')) usage(0);
    if (rest.length) usage(2, `start takes no arguments, got ${rest.join(' ')}`);
    // Imported on demand: `anvil admin` should not load the supervisor, nor the reverse.
    const { start } = await import('./commands/start.js');
    await start();
    return;
  }
  if (command === 'admin') {
    const [noun, verb, ...flags] = rest;
    if (noun === 'user' && verb === 'create') await adminUserCreate(flags);
    if (noun === 'events') await adminEventsCommand(verb, flags);
    usage(2, `unknown admin command: ${[noun, verb].filter(Boolean).join(' ') || '(none)'}`);
  }
  usage(2, `unknown command: ${command}`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`anvil: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
