// A user's e-mail addresses (Gitea's /user/emails: routers/api/v1/user/email.go and
// services/user/email.go). Addresses are unique across all users, without regard to case.
import { alreadyExists, invalid, notFound, type Caller } from '@anvil/kit';
import { existingUser, requireSelfOrAdmin, type Identity } from './context.js';
import { emailProblem } from './email.js';
import { UniqueViolation } from './store.js';
import type { EmailAddress, User } from './user.js';

/** An address with the login of its owner, as the API shows it. */
export interface UserEmail extends EmailAddress {
  login: string;
}

const withLogin = (user: User) => (email: EmailAddress): UserEmail => ({ ...email, login: user.login });

export async function listEmails(identity: Identity, caller: Caller, userId: number): Promise<UserEmail[]> {
  requireSelfOrAdmin(caller, userId);
  const user = await existingUser(identity, userId);
  return (await identity.store.emailsOf(user.id)).map(withLogin(user));
}

const emailUsed = (email: string) => alreadyExists(`Email address has been used: ${email}`, 'email_already_used');

/**
 * Adds addresses (all or none) and answers every address of the user, as Gitea does.
 * Added addresses count as verified: Anvil sends no confirmation mail
 * (Gitea: activated unless [service] REGISTER_EMAIL_CONFIRM).
 */
export async function addEmails(identity: Identity, caller: Caller, userId: number, emails: readonly string[]): Promise<UserEmail[]> {
  requireSelfOrAdmin(caller, userId);
  if (emails.length === 0) throw invalid('Email list empty', 'email_list_empty');
  for (const email of emails) {
    if (emailProblem(email)) throw invalid(`Email address "${email}" invalid`, 'email_invalid');
  }
  const user = await existingUser(identity, userId);
  return identity.store.transaction(async (tx) => {
    for (const email of emails) {
      if (await tx.emailAddress(email)) throw emailUsed(email);
      try {
        await tx.insertEmail({ user_id: user.id, email, verified: true, is_primary: false });
      } catch (err) {
        // Taken concurrently, or listed twice in this request.
        if (err instanceof UniqueViolation) throw emailUsed(email);
        throw err;
      }
    }
    // Who owns an address decides whose commits they are: services that remember it
    // (repository's commit authors) forget on the user's event.
    await tx.publish({ kind: 'user.updated', user });
    return (await tx.emailsOf(user.id)).map(withLogin(user));
  });
}

/** Removes addresses (all or none); the primary address cannot be removed. */
export async function deleteEmails(identity: Identity, caller: Caller, userId: number, emails: readonly string[]): Promise<void> {
  requireSelfOrAdmin(caller, userId);
  const user = await existingUser(identity, userId);
  if (emails.length === 0) return;
  await identity.store.transaction(async (tx) => {
    const owned = await tx.emailsOf(user.id);
    const removed = new Set<number>();
    for (const email of emails) {
      const address = owned.find((e) => e.email.toLowerCase() === email.toLowerCase());
      if (!address || removed.has(address.id)) throw notFound(`Email address does not exist [email: ${email}]`, 'email_not_found');
      if (address.is_primary) throw invalid(`Primary email address cannot be deleted [email: ${email}]`, 'primary_email_cannot_delete');
      await tx.deleteEmail(address.id);
      removed.add(address.id);
    }
    await tx.publish({ kind: 'user.updated', user });
  });
}
