// The collaboration service: wiring only (DESIGN.md §2).
import { fileURLToPath } from 'node:url';
import { ANSWERS_CHANNEL, answerHintForwarder, listenForNotifications, runService, type ServiceDeps } from '@anvil/kit';
import type { DependencyDeps } from './domain/issue-dependencies.js';
import type { PinDeps } from './domain/issue-pins.js';
import type { SearchDeps } from './domain/issue-search.js';
import type { LabelDeps } from './domain/labels.js';
import type { MilestoneDeps } from './domain/milestones.js';
import type { NotificationDeps } from './domain/notifications.js';
import { MergesInFlight } from './domain/merges-in-flight.js';
import type { PullMergeDeps } from './domain/pull-merge.js';
import type { ReactionDeps } from './domain/reactions.js';
import type { ReviewDeps } from './domain/reviews.js';
import type { StopwatchDeps } from './domain/stopwatches.js';
import type { SubscriptionDeps } from './domain/subscriptions.js';
import type { TrackedTimeDeps } from './domain/tracked-times.js';
import type { WatchDeps } from './domain/watches.js';
import { autoMergeConsumer } from './events/auto-merge-consumer.js';
import { identityUserConsumer } from './events/identity-user-consumer.js';
import { notificationConsumer } from './events/notification-consumer.js';
import { pushConsumer } from './events/push-consumer.js';
import { repositoryConsumer } from './events/repository-consumer.js';
import { commentGrpcService } from './grpc/comment-service.js';
import { issueGrpcService } from './grpc/issue-service.js';
import { labelGrpcService } from './grpc/label-service.js';
import { milestoneGrpcService } from './grpc/milestone-service.js';
import { notificationGrpcService } from './grpc/notification-service.js';
import { pullGrpcService } from './grpc/pull-service.js';
import { reactionGrpcService } from './grpc/reaction-service.js';
import { repositoryMerger, repositoryPullGit } from './grpc/repository-pull-git.js';
import { reviewGrpcService } from './grpc/review-service.js';
import { subscriptionGrpcService } from './grpc/subscription-service.js';
import { trackedTimeGrpcService } from './grpc/tracked-time-service.js';
import { watchGrpcService } from './grpc/watch-service.js';
import { autoMergeStore } from './store/auto-merges.js';
import { commentStore } from './store/comments.js';
import { createDb, type CollaborationDb, type CollaborationTx } from './store/db.js';
import { dependencyStore } from './store/issue-dependencies.js';
import { pinStore } from './store/issue-pins.js';
import { issueSearchStore } from './store/issue-search.js';
import { announceUnannouncedCounts } from './store/issue-counts.js';
import { issueStore } from './store/issues.js';
import { labelStore } from './store/labels.js';
import { milestoneStore } from './store/milestones.js';
import { notificationStore } from './store/notifications.js';
import { pullStore } from './store/pulls.js';
import { reactionStore } from './store/reactions.js';
import { reviewStore } from './store/reviews.js';
import { stopwatchStore } from './store/stopwatches.js';
import { subscriptionStore } from './store/subscriptions.js';
import { trackedTimeStore } from './store/tracked-times.js';
import { watchStore } from './store/watches.js';

type Contexts = SearchDeps & LabelDeps & MilestoneDeps & ReactionDeps & SubscriptionDeps & PinDeps & DependencyDeps & ReviewDeps
  & TrackedTimeDeps & StopwatchDeps & PullMergeDeps & WatchDeps & NotificationDeps;

/** The stores and settings every gRPC service and consumer shares, made once before serving. */
function contextsOf({ db, relay, config, secret, onShutdown }: ServiceDeps<CollaborationDb>): Contexts {
  const onPublished = () => relay.kick();
  // Merges (the merge route's and scheduled ones) are the repository service's to perform.
  const merger = repositoryMerger(config.addresses.repository, secret);
  onShutdown('repository merge client', async () => merger.close());
  return {
    merger, mergesInFlight: new MergesInFlight(),
    issues: issueStore(db, { onPublished }), labels: labelStore(db, { onPublished }), milestones: milestoneStore(db, { onPublished }),
    comments: commentStore(db, { onPublished }), reactions: reactionStore(db), allowedReactions: config.settings.ui.REACTIONS,
    subscriptions: subscriptionStore(db), pins: pinStore(db), dependencies: dependencyStore(db), issueSearch: issueSearchStore(db),
    pulls: pullStore(db, { onPublished }), reviews: reviewStore(db, { onPublished }), autoMerges: autoMergeStore(db),
    trackedTimes: trackedTimeStore(db, { onPublished }), stopwatches: stopwatchStore(db, { onPublished }),
    timeTrackingEnabled: config.settings.service.ENABLE_TIMETRACKING,
    watches: watchStore(db, { onPublished }), notifications: notificationStore(db),
  };
}

/**
 * Gateways cache API answers per repository: the row triggers of migration 20261128010000
 * name every repository whose issues, pulls, comments, labels, milestones or reviews changed
 * at commit, and this forwards them as the repository-answers hint (whichever code path or
 * consumer wrote). On every (re)connect of the listener it hints at every repository.
 */
function forwardAnswerHints({ databaseUrl, bus, log, onShutdown }: ServiceDeps<CollaborationDb>): void {
  const listener = listenForNotifications(databaseUrl, { [ANSWERS_CHANNEL]: answerHintForwarder(bus) }, log, 'changed repositories');
  onShutdown('answer hints', () => listener.stop());
}

await runService<CollaborationDb, CollaborationTx, Contexts>({
  name: 'collaboration',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  createDb,
  beforeServing: async (deps) => {
    forwardAnswerHints(deps);
    return contextsOf(deps);
  },
  grpcServices: (_deps, all) => [
    issueGrpcService(all), labelGrpcService(all), milestoneGrpcService(all), commentGrpcService(all), reactionGrpcService(all),
    subscriptionGrpcService(all), pullGrpcService(all), reviewGrpcService(all),
    trackedTimeGrpcService(all), watchGrpcService(all), notificationGrpcService(all),
  ],
  consumers: (deps, all) => {
    // Pull requests follow pushes; the repository service answers their git facts.
    const pullGit = repositoryPullGit(deps.config.addresses.repository, deps.secret);
    deps.onShutdown('repository client', async () => pullGit.close());
    // Repositories whose issue counts were kept before they were announced tell repository once.
    void announceUnannouncedCounts(deps.db)
      .then((count) => count && (deps.relay.kick(), deps.log.info({ count }, 'announced the issue counts of existing repositories')))
      .catch((err: unknown) => deps.log.warn({ err }, 'announcing existing issue counts stopped'));
    return [
      identityUserConsumer(deps.log), repositoryConsumer(deps.log), pushConsumer(deps.log, deps.db, () => pullGit, all.mergesInFlight),
      autoMergeConsumer(deps.log, all, () => all.merger), notificationConsumer(),
    ];
  },
});
