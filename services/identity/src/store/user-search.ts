// A UserSearch as a Prisma filter. Substring matches become LIKE/ILIKE '%kw%', which the
// trigram GIN indexes on lower_name, full_name and email serve (migration init), so the
// search stays index-backed however many users there are.
import type { UserSearch, UserSort } from '../domain/store.js';
import type { Prisma } from './generated/client.js';
import { userTypeNumber, visibilityNumber } from './rows.js';

/** Escapes LIKE's wildcards: the keyword is matched as written. */
function likeLiteral(keyword: string): string {
  return keyword.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export function userSearchWhere(search: UserSearch): Prisma.UserWhereInput {
  const and: Prisma.UserWhereInput[] = [{ type: userTypeNumber('user') }];
  if (search.keyword !== '') {
    const literal = likeLiteral(search.keyword);
    const matches: Prisma.UserWhereInput[] = [
      { lower_name: { contains: literal.toLowerCase() } },
      { full_name: { contains: literal, mode: 'insensitive' } },
    ];
    const email = { email: { contains: literal, mode: 'insensitive' as const } };
    if (search.email_match.scope === 'all') matches.push(email);
    if (search.email_match.scope === 'public') {
      matches.push({ ...email, OR: [{ keep_email_private: false }, { id: BigInt(search.email_match.owner_id) }] });
    }
    and.push({ OR: matches });
  }
  if (search.visible.scope === 'some') {
    const visible: Prisma.UserWhereInput[] = [];
    if (search.visible.visibilities.length > 0) visible.push({ visibility: { in: search.visible.visibilities.map(visibilityNumber) } });
    if (search.visible.user_id > 0) visible.push({ id: BigInt(search.visible.user_id) });
    and.push(visible.length > 0 ? { OR: visible } : { id: { in: [] } });
  }
  if (search.only_active) and.push({ active: true, prohibit_login: false });
  if (search.id !== undefined) and.push({ id: BigInt(search.id) });
  if (search.login_name !== undefined) and.push({ login_name: search.login_name });
  if (search.source_id !== undefined) and.push({ source_id: BigInt(search.source_id) });
  return { AND: and };
}

const ORDER: Record<UserSort, Prisma.UserOrderByWithRelationInput[]> = {
  id: [{ id: 'asc' }],
  alphabetically: [{ lower_name: 'asc' }],
  reversealphabetically: [{ lower_name: 'desc' }],
  newest: [{ created_at: 'desc' }, { id: 'desc' }],
  oldest: [{ created_at: 'asc' }, { id: 'asc' }],
  recentupdate: [{ updated_at: 'desc' }, { id: 'desc' }],
  leastupdate: [{ updated_at: 'asc' }, { id: 'asc' }],
};

export const userSearchOrder = (sort: UserSort): Prisma.UserOrderByWithRelationInput[] => ORDER[sort];
