// Where Gitea's handlers answer a status their own swagger comments do not declare. Clients
// see the code, not the document, so Anvil answers as the code does; the e2e harness checks
// such a response against the schema of the status the document gives instead.
//
// Audited against routers/api/v1 for every create/change operation Anvil serves (a route
// whose handler and document agree needs no entry).

/** operationId → { status the handler writes: the status the document declares instead }. */
export const CODE_STATUSES: Readonly<Record<string, Readonly<Record<number, number>>>> = {
  // repo/tag.go CreateTag: `ctx.JSON(http.StatusCreated, …)`; documented as 200.
  repoCreateTag: { 201: 200 },
  // user/gpg_key.go VerifyUserGPGKey: `ctx.JSON(http.StatusOK, …)`; documented as 201.
  userVerifyGPGKey: { 200: 201 },
};

/** The status a handler answers on success where Gitea's code and document differ. */
export function codeStatus(operationId: string, documented: number): number {
  const entry = CODE_STATUSES[operationId];
  if (!entry) return documented;
  const found = Object.entries(entry).find(([, doc]) => doc === documented);
  return found ? Number(found[0]) : documented;
}

/** The documented status whose schema a code-only status is checked against, if any. */
export function documentedStatusOf(operationId: string, status: number): number | undefined {
  return CODE_STATUSES[operationId]?.[status];
}
