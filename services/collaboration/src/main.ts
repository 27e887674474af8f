// The collaboration service: wiring only (DESIGN.md §2).
import { fileURLToPath } from 'node:url';
import { runService, type ServiceDeps } from '@anvil/kit';
import type { LabelDeps } from './domain/labels.js';
import type { MilestoneDeps } from './domain/milestones.js';
import { identityUserConsumer } from './events/identity-user-consumer.js';
import { repositoryConsumer } from './events/repository-consumer.js';
import { issueGrpcService } from './grpc/issue-service.js';
import { labelGrpcService } from './grpc/label-service.js';
import { milestoneGrpcService } from './grpc/milestone-service.js';
import { pullGrpcService } from './grpc/pull-service.js';
import { pullStore } from './store/pulls.js';
import { reviewGrpcService } from './grpc/review-service.js';
import { reviewStore } from './store/reviews.js';
import type { ReviewDeps } from './domain/reviews.js';
import type { PullDeps } from './domain/pulls.js';
import { pushConsumer } from './events/push-consumer.js';
import { repositoryPullGit } from './grpc/repository-pull-git.js';
import { createDb, type CollaborationDb, type CollaborationTx } from './store/db.js';
import { issueStore } from './store/issues.js';
import { labelStore } from './store/labels.js';
import { milestoneStore } from './store/milestones.js';

type Contexts = LabelDeps & MilestoneDeps & ReviewDeps;

/** One set of stores per process, whatever asks first. */
const contexts = new WeakMap<CollaborationDb, Contexts>();

function contextsOf({ db, relay }: ServiceDeps<CollaborationDb>): Contexts {
  let found = contexts.get(db);
  if (!found) {
    found = { issues: issueStore(db, { onPublished: () => relay.kick() }), labels: labelStore(db), milestones: milestoneStore(db), pulls: pullStore(db, { onPublished: () => relay.kick() }),
      reviews: reviewStore(db, { onPublished: () => relay.kick() }),
    };
    contexts.set(db, found);
  }
  return found;
}

await runService<CollaborationDb, CollaborationTx>({
  name: 'collaboration',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  createDb,
  grpcServices: (deps) => {
    const all = contextsOf(deps);
    return [issueGrpcService(all), labelGrpcService(all), milestoneGrpcService(all), pullGrpcService(all), reviewGrpcService(all)];
  },
  consumers: (deps) => {
    // Pull requests follow pushes; the repository service answers their git facts.
    const pullGit = repositoryPullGit(deps.config.addresses.repository, deps.secret);
    deps.onShutdown('repository client', async () => pullGit.close());
    return [identityUserConsumer(deps.log), repositoryConsumer(deps.log), pushConsumer(deps.log, () => pullGit)];
  },
});
