// How long each string of a request body may be, and which strings are git ref names:
// Gitea's `binding:"MaxSize(N)"` and `binding:"GitRefName"` tags on its option structs
// (modules/structs/*.go), keyed by the contract definition the body is validated against.
// Gitea counts characters (runes), as JSON Schema's maxLength does.
//
// Where Gitea's API struct has no tag, the number is the one its database column or web
// form imposes (a 255-character column, the web form's MaxSize), marked "(column)" or
// "(form)"; a few are Anvil's own, marked "(anvil)". Every string not listed here gets
// DEFAULT_STRING_LIMIT, so no oversized string ever reaches a service, PostgreSQL or an event.
// `name[]` limits each item of an array of strings.

/** Any string field not in FIELD_LIMITS: GitHub's limit for an issue body, a TEXT column's worth. */
export const DEFAULT_STRING_LIMIT = 65_536;

/** No per-field limit: the route's body size limit bounds it (file contents, armoured keys). */
export const UNBOUNDED = Number.POSITIVE_INFINITY;

const USER_NAME = 40;
const EMAIL = 254;
const REF = 255;
const TREE_PATH = 500;

export const FIELD_LIMITS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  // users (modules/structs/admin_user.go, user.go)
  CreateUserOption: { username: USER_NAME, full_name: 100, email: EMAIL, password: 255, login_name: 255 /* (column) */ },
  EditUserOption: { full_name: 100, email: EMAIL, password: 255, website: 255, location: 50, description: 255, login_name: 255 /* (column) */ },
  RenameUserOption: { new_username: USER_NAME },
  UserSettingsOptions: { full_name: 100, website: 255, description: 255, location: 50, language: 255, theme: 255, diff_view_style: 255 /* (column) */ },
  CreateEmailOption: { 'emails[]': EMAIL },
  DeleteEmailOption: { 'emails[]': EMAIL },
  CreateAccessTokenOption: { name: 255 /* (form) */, 'scopes[]': 255 },
  CreateOAuth2ApplicationOptions: { name: 255 /* (column) */, 'redirect_uris[]': 2048 /* (anvil) */ },
  CreateGPGKeyOption: { armored_public_key: UNBOUNDED, armored_signature: UNBOUNDED },
  CreateKeyOption: { title: 50 /* (form) */ },
  // organizations and teams (org.go, org_team.go)
  CreateOrgOption: { username: USER_NAME, full_name: 100, email: 255, description: 255, website: 255, location: 50 },
  EditOrgOption: { full_name: 100, email: 255, description: 255, website: 255, location: 50 },
  RenameOrgOption: { new_name: USER_NAME },
  CreateTeamOption: { name: 255, description: 255 },
  EditTeamOption: { name: 255, description: 255 },
  // repositories (repo.go)
  CreateRepoOption: {
    name: 100, description: 2048, default_branch: 100, object_format_name: 6,
    // template names: Gitea looks them up by name (column-sized)
    gitignores: 1024, license: 255, readme: 255, issue_labels: 255,
  },
  EditRepoOption: { name: 100, description: 2048, website: 1024, default_branch: REF, mirror_interval: 255 },
  GenerateRepoOption: { owner: USER_NAME, name: 100, description: 2048, default_branch: REF },
  MigrateRepoOptions: { repo_name: 100, repo_owner: USER_NAME, description: 2048, clone_addr: 2048 /* (anvil) */ },
  TransferRepoOption: { new_owner: USER_NAME },
  // branches, tags, protection (repo_branch.go, repo_tag.go)
  CreateBranchRepoOption: { new_branch_name: 100, old_branch_name: 100, old_ref_name: 100 },
  UpdateBranchRepoOption: { new_commit_id: 64, old_commit_id: 64 },
  RenameBranchRepoOption: { name: 100 },
  CreateTagOption: { tag_name: REF /* (form) */, target: REF },
  CreateBranchProtectionOption: { branch_name: REF, rule_name: REF },
  // commit statuses: Gitea stores TEXT; these bounds are Anvil's, wide enough for any CI
  CreateStatusOption: { context: 255, description: 1024, target_url: 2048 },
  // contents (repo_file.go)
  CreateFileOptions: { branch: 100, new_branch: 100, content: UNBOUNDED },
  UpdateFileOptions: { branch: 100, new_branch: 100, content: UNBOUNDED, from_path: TREE_PATH, sha: 64 },
  DeleteFileOptions: { branch: 100, new_branch: 100, sha: 64 },
  ChangeFilesOptions: { branch: 100, new_branch: 100 },
  ChangeFileOperation: { path: TREE_PATH, from_path: TREE_PATH, content: UNBOUNDED, sha: 64 },
  GetFilesOptions: { 'files[]': TREE_PATH },
  Identity: { name: 255, email: EMAIL },
  // issues, pull requests, labels, milestones (issue.go, pull.go, issue_label.go, issue_milestone.go)
  CreateIssueOption: { title: 255 /* (form) */, ref: REF, assignee: USER_NAME, 'assignees[]': USER_NAME },
  EditIssueOption: { title: 255 /* (form) */, ref: REF, assignee: USER_NAME, 'assignees[]': USER_NAME },
  CreatePullRequestOption: { title: 255, head: REF, base: REF, assignee: USER_NAME, 'assignees[]': USER_NAME, 'reviewers[]': USER_NAME, 'team_reviewers[]': 255 },
  EditPullRequestOption: { title: 255, base: REF, assignee: USER_NAME, 'assignees[]': USER_NAME },
  CreateLabelOption: { name: 50 /* (form) */, description: 200 /* (form) */, color: 7 },
  EditLabelOption: { name: 50, description: 200, color: 7 },
  CreateMilestoneOption: { title: 50 /* (form) */ },
  EditMilestoneOption: { title: 50 },
  AddTimeOption: { user_name: USER_NAME },
  // bodies that are whole documents or files: bounded by the JSON body limit alone
  MarkdownOption: { Text: UNBOUNDED },
  MarkupOption: { Text: UNBOUNDED, FilePath: TREE_PATH },
  UpdateRepoAvatarOption: { image: UNBOUNDED },
  UpdateUserAvatarOption: { image: UNBOUNDED },
  CreateWikiPageOptions: { content_base64: UNBOUNDED, title: 255 },
  // releases (release.go; web form: title 255, tag 255)
  CreateReleaseOption: { name: 255, tag_name: REF, target_commitish: REF },
  EditReleaseOption: { name: 255, tag_name: REF, target_commitish: REF },
  // webhooks (hook.go)
  CreateHookOption: { type: 255, name: 255, authorization_header: 1024 /* (anvil) */ },
  EditHookOption: { name: 255, authorization_header: 1024 },
};

/**
 * Fields Gitea binds with `GitRefName` (a valid git ref name, or empty): refused with 422
 * before any service sees them.
 */
export const GIT_REF_NAME_FIELDS: Readonly<Record<string, readonly string[]>> = {
  CreateRepoOption: ['default_branch'],
  CreateBranchRepoOption: ['new_branch_name', 'old_branch_name', 'old_ref_name'],
  RenameBranchRepoOption: ['name'],
  CreateTagOption: ['tag_name'],
  CreateReleaseOption: ['tag_name'],
  CreateFileOptions: ['branch', 'new_branch'],
  UpdateFileOptions: ['branch', 'new_branch'],
  DeleteFileOptions: ['branch', 'new_branch'],
  ChangeFilesOptions: ['branch', 'new_branch'],
};
