// Which e-mail addresses are accepted (Gitea's validateEmailBasic). The RPCs word the
// refusal differently (the admin API quotes Gitea's error, /user/emails its own sentence),
// so this returns what is wrong and lets the caller raise.

// Gitea's emailRegexp: atext characters before the @, DNS labels after it.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+\-/=?^_`{|}~]*@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
// What Go's net/mail additionally demands of the local part: dot-separated non-empty atoms.
const DOT_ATOM = /^[^.]+(?:\.[^.]+)*$/;

export type EmailProblem = 'invalid' | 'unsupported_character';

export function emailProblem(email: string): EmailProblem | undefined {
  if (email.length === 0) return 'invalid';
  if (!EMAIL.test(email)) return 'unsupported_character';
  if (email.startsWith('-')) return 'invalid';
  const local = email.slice(0, email.lastIndexOf('@'));
  if (!DOT_ATOM.test(local)) return 'invalid';
  return undefined;
}

/** Gitea's error text for a refused address (ErrEmailInvalid / ErrEmailCharIsNotSupported). */
export function emailProblemMessage(problem: EmailProblem, email: string): string {
  return problem === 'invalid'
    ? `e-mail invalid [email: ${email}]`
    : `e-mail address contains unsupported character [email: ${email}]`;
}

export const lowerEmail = (email: string): string => email.toLowerCase();
