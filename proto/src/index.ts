// The contracts between Anvil's services: gRPC service definitions and event payloads,
// loaded from the .proto files beside this package (one name per concept, snake_case
// fields kept as written so proto, table and Gitea JSON read alike).
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import protobuf from 'protobufjs';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { ProtoGrpcType as IdentityGrpc } from './generated/identity.js';
import type { ProtoGrpcType as GpgKeysGrpc } from './generated/gpg_keys.js';
import type { ProtoGrpcType as OAuth2Grpc } from './generated/oauth2.js';
import type { ProtoGrpcType as RepositoryGrpc } from './generated/repository.js';
import type { ProtoGrpcType as CollaborationGrpc } from './generated/collaboration.js';
import type { ProtoGrpcType as HooksGrpc } from './generated/hooks.js';
// A context's second service lives in its own .proto (identity's OrgService in orgs.proto).
import type { ProtoGrpcType as IdentityOrgsGrpc } from './generated/orgs.js';
import type { ProtoGrpcType as RepositoryTeamAccessGrpc } from './generated/team_access.js';
import type { ProtoGrpcType as RepositoryTagsGrpc } from './generated/tags.js';
import type { ProtoGrpcType as RepositoryLanguagesGrpc } from './generated/languages.js';
import type { ProtoGrpcType as RepositoryTopicsGrpc } from './generated/topics.js';
import type { ProtoGrpcType as RepositoryStarsGrpc } from './generated/stars.js';
import type { ProtoGrpcType as RepositoryAvatarsGrpc } from './generated/avatars.js';
import type { ProtoGrpcType as RepositoryBranchesGrpc } from './generated/branches.js';
import type { ProtoGrpcType as RepositoryTemplatesGrpc } from './generated/templates.js';
import type { ProtoGrpcType as RepositoryUnadoptedGrpc } from './generated/unadopted.js';
import type { ProtoGrpcType as RepositoryCommitStatusesGrpc } from './generated/commit_statuses.js';
import type { ProtoGrpcType as RepositoryGitObjectsGrpc } from './generated/git_objects.js';
import type { ProtoGrpcType as RepositoryCommitsGrpc } from './generated/commits.js';
import type { ProtoGrpcType as RepositoryContentsGrpc } from './generated/contents.js';
import type { ProtoGrpcType as RepositoryPullGitGrpc } from './generated/pull_git.js';
import type { ProtoGrpcType as RepositoryMigrationsGrpc } from './generated/migrations.js';
import type { ProtoGrpcType as EventAdminGrpc } from './generated/event_admin.js';
import type { ProtoGrpcType as CollaborationLabelsGrpc } from './generated/labels.js';
import type { ProtoGrpcType as CollaborationMilestonesGrpc } from './generated/milestones.js';
import type { ProtoGrpcType as CollaborationCommentsGrpc } from './generated/comments.js';
import type { ProtoGrpcType as CollaborationReactionsGrpc } from './generated/reactions.js';
import type { ProtoGrpcType as CollaborationSubscriptionsGrpc } from './generated/subscriptions.js';
import type { ProtoGrpcType as CollaborationPullsGrpc } from './generated/pulls.js';
import type { ProtoGrpcType as CollaborationReviewsGrpc } from './generated/reviews.js';
import type { ProtoGrpcType as CollaborationTrackedTimesGrpc } from './generated/tracked_times.js';
import type { ProtoGrpcType as CollaborationWatchesGrpc } from './generated/watches.js';
import type { ProtoGrpcType as CollaborationNotificationsGrpc } from './generated/notifications.js';

// One service per line, so that adding one touches one line.
export type AnvilGrpc = IdentityGrpc
  & IdentityOrgsGrpc
  & GpgKeysGrpc
  & OAuth2Grpc
  & CollaborationGrpc
  & HooksGrpc
  & RepositoryGrpc
  & RepositoryTeamAccessGrpc
  & RepositoryTagsGrpc
  & RepositoryLanguagesGrpc
  & RepositoryTopicsGrpc
  & RepositoryStarsGrpc
  & RepositoryAvatarsGrpc
  & RepositoryBranchesGrpc
  & RepositoryTemplatesGrpc
  & RepositoryUnadoptedGrpc
  & RepositoryCommitStatusesGrpc
  & RepositoryGitObjectsGrpc
  & RepositoryCommitsGrpc
  & RepositoryContentsGrpc
  & RepositoryPullGitGrpc
  & RepositoryMigrationsGrpc
  & EventAdminGrpc
  & CollaborationLabelsGrpc
  & CollaborationMilestonesGrpc
  & CollaborationCommentsGrpc
  & CollaborationReactionsGrpc
  & CollaborationSubscriptionsGrpc
  & CollaborationPullsGrpc
  & CollaborationReviewsGrpc
  & CollaborationTrackedTimesGrpc
  & CollaborationWatchesGrpc
  & CollaborationNotificationsGrpc;

// int64 fields as plain numbers inside protobufjs (which proto-loader shares), not long.js
// objects: every message is converted with `longs: Number` anyway (ids and counts stay below
// 2^53), and a Long per int64 field, and per int64 default, made decoding and encoding a
// page of a list markedly dearer (`pnpm bench`, issues part).
protobuf.util.Long = null as unknown as typeof protobuf.util.Long;
protobuf.configure();

/** Folder holding `anvil/<ctx>/v1/*.proto`; the include root for every import. */
export const PROTO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

// Must match the flags in scripts/gen-types.mjs, or the generated types lie.
export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

function protoFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return protoFiles(path);
    return name.endsWith('.proto') ? [relative(PROTO_ROOT, path)] : [];
  });
}

/** `anvil/<context>/…/*.proto`, relative to PROTO_ROOT. */
function contextFiles(context: string): string[] {
  const dir = join(PROTO_ROOT, 'anvil', context);
  return existsSync(dir) ? protoFiles(dir) : [];
}

// Per process, per context. A process loads only the contexts it serves or calls: every
// context's descriptors in every process cost about 7 MiB each (`pnpm bench`, footprint).
const grpcContexts = new Map<string, unknown>();
let grpcObject: AnvilGrpc | undefined;

/**
 * Every Anvil gRPC service and message, each context (`anvil.identity`, `anvil.repository`,
 * …) loaded from its .proto files the first time it is used, then kept.
 */
export function loadAnvilGrpc(): AnvilGrpc {
  grpcObject ??= {
    anvil: new Proxy({} as Record<string, unknown>, {
      get(_target, context) {
        if (typeof context !== 'string') return undefined;
        if (!grpcContexts.has(context)) {
          const files = contextFiles(context);
          const loaded = files.length
            ? (grpc.loadPackageDefinition(protoLoader.loadSync(files, LOADER_OPTIONS)) as { anvil?: Record<string, unknown> }).anvil?.[context]
            : undefined;
          grpcContexts.set(context, loaded);
        }
        return grpcContexts.get(context);
      },
    }),
  } as unknown as AnvilGrpc;
  return grpcObject;
}

const eventRoots = new Map<string, protobuf.Root>();

/** The protobuf types of one context's events (`anvil.<context>.v1.*`), loaded on first use. */
function eventTypes(typeName: string): protobuf.Root {
  const context = typeName.split('.')[1] ?? '';
  let root = eventRoots.get(context);
  if (!root) {
    root = new protobuf.Root();
    root.resolvePath = (_origin, target) =>
      target.startsWith('google/protobuf/') ? target : join(PROTO_ROOT, target);
    root.loadSync(contextFiles(context), { keepCase: true });
    eventRoots.set(context, root);
  }
  return root;
}

/** Encodes an event payload: `typeName` is the full message name, e.g. `anvil.identity.v1.UserCreated`. */
export function encodeEvent(typeName: string, payload: object): Uint8Array {
  const type = eventTypes(typeName).lookupType(typeName);
  // fromObject first: it turns enum names ('PRIVATE') into numbers, which verify demands.
  const message = type.fromObject(payload);
  const problem = type.verify(message);
  if (problem) throw new Error(`event ${typeName} does not fit its message: ${problem}`);
  return type.encode(message).finish();
}

/** Decodes an event payload into a plain object with the same conventions as gRPC replies. */
export function decodeEvent<T>(typeName: string, bytes: Uint8Array): T {
  const type = eventTypes(typeName).lookupType(typeName);
  return type.toObject(type.decode(bytes), { longs: Number, enums: String, defaults: true, oneofs: true }) as T;
}

export type * from './types.js';
export * from './timestamps.js';
export * from './visibility.js';
