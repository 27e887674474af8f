// The pull domain's PullGit port (domain/pull-git.ts) over one bare repository.
import type { PullGit, TrialMerge } from '../domain/pull-git.js';
import { git, runGit } from './command.js';
import { isAncestor, updateRef } from './branches.js';
import type { RefIndex } from './ref-index.js';
import type { RefUpdaters } from './ref-updater.js';
import { readCommits } from './commits.js';
import { commitTree } from './file-changes-git.js';
import { changedFilesWithStats, cherryPick, commitsOnHead, divergence, mergeBase, rangeDiff, resolveRefs, treeOf, trialMerge, updateRefs } from './pull-git.js';
import { resolveCommit } from './refs.js';
import type { ImmutableCache } from './immutable-cache.js';
import type { RepositoryStorage } from './storage.js';
import type { RepositoryObjects } from './repository-objects.js';
import { diffTrees } from './tree-diff.js';

// A trial merge is remembered under the day it was made: its tree is written loose and stays
// unreferenced until a merge commit names it, and git may prune such objects once they are
// two weeks old (gc.pruneExpire), so an answer is never used after its day is over.
const DAY_MS = 86_400_000;

/**
 * `updaters`: the long-lived ref updaters (ref-updater.ts); without them each move runs its
 * own git. `refs`: told of each branch move, so the turn's end writes just those rows.
 * `objects`: the repository's objects over the cat-file cache, for tree walks without a process.
 * `computed`: answers keyed by object ids (immutable-cache.ts): a pull's trial merge, made
 * when its mergeability was checked, is the merge's own when base and head have not moved,
 * and so is a count of what the head brings that the merge started before its turn.
 */
export function pullGitOf(gitDir: string, objects: RepositoryObjects, updaters?: RefUpdaters, refs?: RefIndex, computed?: ImmutableCache): PullGit {
  const moved = async (moves: ReadonlyArray<{ ref: string; newSha: string }>) => refs?.noteMoves(gitDir, moves);
  return {
    // A pull's base and head are branches: their rows answer, as for every read (a pull's
    // re-check after each push to its base resolved both by a git process per compare).
    resolve: (revision) => (refs && revision.startsWith('refs/heads/') ? refs.resolveBranch(gitDir, revision) : resolveCommit(gitDir, revision)),
    resolveRefs: (names) => resolveRefs(gitDir, names),
    async resolveRefsAtTurnStart(names, rulesFor) {
      // Branches only: a tag's row holds the commit it peels to, where git names the tag object.
      const extras = rulesFor === undefined ? undefined : { protections: true, userId: rulesFor };
      const snapshot = refs && names.every((n) => n.startsWith('refs/heads/')) ? await refs.snapshot(gitDir, names, extras, true) : undefined;
      if (!snapshot) return { refs: await resolveRefs(gitDir, names) };
      const wanted = new Set(names);
      return {
        refs: new Map(snapshot.refs.filter((r) => wanted.has(r.name) && r.objectType === 'commit').map((r) => [r.name, r.objectId])),
        rules: snapshot.protections && { protections: snapshot.protections, teams: snapshot.teams ?? [] },
      };
    },
    mergeBase: (a, b) => mergeBase(gitDir, a, b),
    isAncestor: (a, b) => isAncestor(gitDir, a, b),
    // Remembered too: a merge may have started the count before its turn (countAheadEarly).
    divergence: (base, head) => {
      const count = () => divergence(gitDir, base, head);
      return computed ? computed.get(gitDir, `divergence:${base}:${head}`, count) : count();
    },
    trialMerge: (ours, theirs) => {
      const merge = () => trialMerge(gitDir, ours, theirs);
      // Weighed by its conflicted paths, which a pull that conflicts everywhere makes many.
      const bytesOf = (m: TrialMerge) => m.tree.length + m.conflicts.reduce((n, path) => n + path.length + 16, 0);
      return computed ? computed.get(gitDir, `trial-merge:${Math.floor(Date.now() / DAY_MS)}:${ours}:${theirs}`, merge, bytesOf) : merge();
    },
    changedFiles: (from, to) => changedFilesWithStats(gitDir, from, to),
    diff: (from, to, type) => rangeDiff(gitDir, from, to, type),
    commitsOnHead: (base, head, options) => commitsOnHead(gitDir, base, head, options),
    readCommits: (ids) => readCommits(gitDir, ids),
    commitTree: (parts) => commitTree(gitDir, parts),
    cherryPick: (commit, onto, committer) => cherryPick(gitDir, commit, onto, committer),
    async treeOf(commit) {
      const tree = await objects.peel(commit, 'tree');
      return tree ? tree.oid : treeOf(gitDir, commit); // git says why it has none
    },
    async pathChanges(fromCommit, toTree) {
      const from = await objects.peel(fromCommit, 'tree');
      return diffTrees(objects, from?.oid, toTree);
    },
    updateRef: async (ref, newSha, oldSha) => {
      await (updaters ? updaters.update(gitDir, [{ ref, newSha, oldSha }]) : updateRef(gitDir, ref, newSha, oldSha));
      await moved([{ ref, newSha }]);
    },
    updateRefs: async (moves) => {
      await (updaters ? updaters.update(gitDir, moves) : updateRefs(gitDir, moves));
      await moved(moves);
    },
    // refs/pull/<index>/head has one writer (the pull's own updates), so no old value is asked.
    // It has no row, and telling the index so spares the turn's end a full rewrite.
    setRef: async (ref, sha) => {
      await (updaters ? updaters.update(gitDir, [{ ref, newSha: sha }]) : runGit(git('update-ref', { gitDir }).ref(ref).oid(sha).build()));
      await moved([{ ref, newSha: sha }]);
    },
  };
}

export function pullGit(storage: RepositoryStorage, refs?: RefIndex): (owner: string, name: string) => PullGit {
  return (owner, name) => {
    const gitDir = storage.pathOf(owner, name);
    return pullGitOf(gitDir, storage.objects(gitDir), storage.refUpdaters, refs, storage.computed);
  };
}
