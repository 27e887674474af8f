// Organization labels (Gitea's routers/api/v1/org/label.go): usable in every repository of
// the organization. The organization and the caller's standing in it come from the signed
// metadata (identity's answer to the gateway): listing needs only to see the organization,
// writing needs an owner of it (or a site admin).
import { forbidden, notFound, type Caller, type OrgScope } from '@anvil/kit';
import type { Label } from './issue-store.js';
import type { CatalogChangeContext } from '../events/label-events.js';
import { profileOfCaller } from './users.js';
import { checkedLabel, checkedLabelChange, labelNotFound, type LabelDeps, type LabelOwner, type NewLabel } from './labels.js';

function orgOf(scope: OrgScope | undefined): LabelOwner {
  const id = Number(scope?.org?.account?.id ?? 0);
  if (!id) throw notFound('The target couldn\'t be found.', 'org_not_found');
  return { orgId: id };
}

function owned(scope: OrgScope | undefined, caller: Caller): LabelOwner {
  const owner = orgOf(scope);
  if (!scope!.caller_is_owner && !caller.isAdmin) throw forbidden('Must be an organization owner', 'org_owner_required');
  return owner;
}

export const listOrgLabels = (deps: LabelDeps, scope: OrgScope | undefined, page: { offset: number; limit: number }) => deps.labels.list(orgOf(scope), page);

export async function getOrgLabel(deps: LabelDeps, scope: OrgScope | undefined, id: number): Promise<Label> {
  const label = await deps.labels.find(orgOf(scope), id);
  if (!label) throw labelNotFound();
  return label;
}

/** Who changes an organization's label, for its event. */
const inOrg = (scope: OrgScope | undefined, caller: Caller): CatalogChangeContext => ({ sender: profileOfCaller(caller), org: scope });

export const createOrgLabel = (deps: LabelDeps, scope: OrgScope | undefined, caller: Caller, input: NewLabel) =>
  deps.labels.create(owned(scope, caller), checkedLabel(input), inOrg(scope, caller));

export async function editOrgLabel(deps: LabelDeps, scope: OrgScope | undefined, caller: Caller, id: number, input: Partial<NewLabel>): Promise<Label> {
  const label = await deps.labels.update(owned(scope, caller), id, checkedLabelChange(input), inOrg(scope, caller));
  if (!label) throw labelNotFound();
  return label;
}

export async function deleteOrgLabel(deps: LabelDeps, scope: OrgScope | undefined, caller: Caller, id: number): Promise<void> {
  if (!(await deps.labels.remove(owned(scope, caller), id, inOrg(scope, caller)))) throw labelNotFound();
}
